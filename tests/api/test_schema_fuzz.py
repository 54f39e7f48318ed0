"""Schemathesis over the whole API schema, in process against the WSGI app: whatever a client
sends to any operation the schema lists (present and future endpoints alike), the answer is
never a 5xx, and an error under /api/ is JSON. Runs on the database the suite runs on; `make
test` runs it on PostgreSQL and again on the embedded SQLite default."""

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from knox.models import AuthToken

from tests.api.conftest import build_world

EXAMPLES = 10  # per operation, besides the boundary cases schemathesis derives: modest


# The schema is generated from the code, without the database.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def admin_token(db, settings):
    """A league admin's token, so that writes get past authentication to their validation."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = build_world()
    # The WSGI handler closes the database connection after each request, which would end the
    # test's transaction; Django's own test client holds these signals off the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield lambda: AuthToken.objects.create(user=world.admin)[1]
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def no_server_error(ctx, response, case):
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path}: {response.status_code}"
    )


def errors_are_json(ctx, response, case):
    if response.status_code >= 400:
        headers = {name.lower(): values for name, values in response.headers.items()}
        content_type = headers.get("content-type", [""])[0]
        assert content_type.startswith("application/json"), (
            f"{case.method} {case.formatted_path}: {response.status_code} {content_type}"
        )


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    # The league is built once per operation and shared by its examples, on purpose.
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_no_request_makes_the_api_fail(case, admin_token):
    response = case.call(headers={"Authorization": f"Token {admin_token()}"})
    no_server_error(None, response, case)
    errors_are_json(None, response, case)
