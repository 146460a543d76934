"""``python manage.py api_token USERNAME [--create]``: make an API token and print its key
(shared/spec/commands.md)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from accounts.models import ApiToken, User


class Command(BaseCommand):
    help = (
        "Make a new API token for USERNAME and print only its key, on one line (it is shown "
        "once: the site keeps only its hash). With --create, make the user first when there "
        "is none, with no usable password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--create",
            action="store_true",
            help="Make the user (with no usable password) when there is none.",
        )
        parser.add_argument(
            "--name",
            default="manage.py api_token",
            help="The token's name, as the Settings page lists it.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        username: str = options["username"]
        with transaction.atomic():
            user = User.objects.filter(username=username).first()
            if user is None:
                if not options["create"]:
                    raise CommandError(
                        f"There is no user {username!r}: give --create to make one.",
                        returncode=2,
                    )
                try:
                    User._meta.get_field("username").run_validators(username)
                except ValidationError as error:
                    raise CommandError(
                        f"{username!r} cannot be a username: {' '.join(error.messages)}",
                        returncode=2,
                    ) from None
                user = User.objects.create_user(username=username, password=None)
            _, key = ApiToken.objects.issue(user, options["name"][:100])
        self.stdout.write(key)
