"""The OpenAPI schema matches every response: schemathesis generates requests from the
schema at /api/v1/schema/ and sends them to a live server, signed in by token, and checks
each answer's status code, content type, headers and body against the schema (and that
none is a 500).

A bounded run (``EXAMPLES`` requests an operation), only to 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from pytest_django.live_server_helper import LiveServer
from schemathesis.checks import CHECKS
from schemathesis.generation import GenerationMode

from accounts.models import ApiToken, User
from tests.conftest import MARCH, Sent, upload_hand

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ADDRESS = "127.0.0.1:0"  # a free port, on this machine only
EXAMPLES = 30
REQUEST_TIMEOUT_SECONDS = 120
"""Longer than schemathesis's 10 s: a judgement question asked for with no seed while the
pool is still empty is made on the request, which took 28 s once on a busy CI machine."""
# What "the schema matches the response" means, check by check; the others judge the API's
# choices (e.g. that any JSON the schema allows for a record is a valid record).
MATCHING = [
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
]


@pytest.fixture(scope="module")
def live(django_db_blocker: Any) -> Iterator[LiveServer]:
    with django_db_blocker.unblock():
        server = LiveServer(ADDRESS)
    yield server
    server.stop()


@pytest.fixture
def key(live: LiveServer, sent: list[Sent]) -> str:
    """A user with a hand, the course loaded, and the user's token (the analyses asked for
    are recorded, not sent to a broker)."""
    call_command("load_content", verbosity=0)
    user = User.objects.create_user("robot")
    upload_hand(user, MARCH)
    return ApiToken.objects.issue(user, "schemathesis")[1]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_response_matches_the_schema(live: LiveServer, key: str, mode: Any) -> None:
    """Requests that fit the schema, then requests that do not (wrong types, missing
    fields, bad JSON): each answer must still be one the schema documents."""
    schema = schemathesis.openapi.from_url(f"{live.url}/api/v1/schema/?format=json")
    checks = CHECKS.get_by_names(MATCHING)
    headers = {"Authorization": f"Token {key}"}
    failures: dict[str, str] = {}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def run(case: Any) -> None:
            case.call_and_validate(
                base_url=live.url, headers=headers, checks=checks, timeout=REQUEST_TIMEOUT_SECONDS
            )

        try:
            run()
        except Unsatisfiable:
            # No request can break a schema that allows anything (an operation with no
            # parameters, a free string): nothing to send.
            assert mode == GenerationMode.NEGATIVE
        except (Exception, BaseExceptionGroup) as failure:  # each operation is reported
            inner = getattr(failure, "exceptions", ())
            failures[operation.label] = "\n".join(
                [str(failure), *(f"  {error!r}" for error in inner)]
            )[:2000]
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
