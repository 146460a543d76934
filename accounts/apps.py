from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from .lockout import tell_owner

        user_locked_out.connect(tell_owner, dispatch_uid="accounts.lockout.tell_owner")
