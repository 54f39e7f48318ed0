"""The OpenAPI schema: generated without errors or warnings, valid, listing every endpoint."""

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

EXPECTED = {
    "/api/auth/token/": {"post"},
    "/api/leagues/": {"get"},
    "/api/leagues/{id}/": {"get"},
    "/api/seasons/": {"get"},
    "/api/seasons/{id}/": {"get"},
    "/api/seasons/{id}/standings/": {"get"},
    "/api/teams/": {"get"},
    "/api/teams/{id}/": {"get"},
    "/api/players/": {"get"},
    "/api/players/{id}/": {"get"},
    "/api/venues/": {"get"},
    "/api/venues/{id}/": {"get"},
    "/api/fixtures/": {"get"},
    "/api/fixtures/{id}/": {"get"},
    "/api/fixtures/{id}/result/": {"get", "post"},
    "/api/fixtures/{id}/result/confirm/": {"post"},
    "/api/fixtures/{id}/result/dispute/": {"post"},
    "/api/fixtures/{id}/results/": {"get"},
    "/api/fixtures/{id}/reschedule/": {"post"},
    "/api/reschedules/{id}/accept/": {"post"},
    "/api/reschedules/{id}/decline/": {"post"},
}


@pytest.fixture(scope="module")
def schema():
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        generated = SchemaGenerator().get_schema(request=None, public=True)
    problems = dict(GENERATOR_STATS._warn_cache) | dict(GENERATOR_STATS._error_cache)
    GENERATOR_STATS.reset()
    return generated, problems


def test_schema_generates_without_errors_or_warnings(schema):
    generated, problems = schema
    assert problems == {}
    validate_schema(generated)


def test_schema_lists_every_endpoint_with_its_methods(schema):
    paths = schema[0]["paths"]
    for path, methods in EXPECTED.items():
        assert path in paths, path
        assert methods <= set(paths[path]), path
        assert not {"put", "patch", "delete"} & set(paths[path]), path


def test_availability_is_read_and_put_for_the_requesting_player(schema):
    path = schema[0]["paths"]["/api/fixtures/{id}/availability/"]
    assert set(path) == {"get", "put"}
    assert {"200", "400", "401", "403", "404", "409"} <= set(path["put"]["responses"])


def test_fixture_list_documents_its_filters_and_pagination(schema):
    parameters = {p["name"] for p in schema[0]["paths"]["/api/fixtures/"]["get"]["parameters"]}
    assert {
        "season",
        "round",
        "status",
        "team",
        "venue",
        "date_from",
        "date_to",
        "page",
        "page_size",
    } <= parameters


def test_result_submission_documents_its_body_and_every_refusal(schema):
    post = schema[0]["paths"]["/api/fixtures/{id}/result/"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema[0]["components"]["schemas"][body.rsplit("/", 1)[1]]["properties"]
    assert {"sheet", "based_on_version", "note"} <= set(fields)
    assert {"201", "400", "401", "403", "404", "409"} <= set(post["responses"])
    assert {"knoxApiToken", "cookieAuth"} <= {
        name for requirement in post["security"] for name in requirement
    }


def test_a_result_version_always_carries_its_confirmation_and_deadline(schema):
    """docs/contracts.md "Match night": every version's JSON has both ("confirm_by" null once
    confirmed), so a client may rely on them."""
    components = schema[0]["components"]["schemas"]
    for path in ("/api/fixtures/{id}/result/confirm/", "/api/fixtures/{id}/result/dispute/"):
        ok = schema[0]["paths"][path]["post"]["responses"]["200"]
        ref = ok["content"]["application/json"]["schema"]["$ref"]
        version = components[ref.rsplit("/", 1)[1]]
        assert {"confirmation", "confirm_by"} <= set(version["required"]), version["required"]
        assert version["properties"]["confirm_by"].get("nullable") is True
    answers = {"403", "404", "409", "400", "401"}
    for what in ("confirm", "dispute"):
        responses = schema[0]["paths"][f"/api/fixtures/{{id}}/result/{what}/"]["post"]["responses"]
        assert answers <= set(responses), what


def test_standings_response_describes_the_rows(schema):
    get = schema[0]["paths"]["/api/seasons/{id}/standings/"]["get"]
    ref = get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    components = schema[0]["components"]["schemas"]
    rows = components[ref.rsplit("/", 1)[1]]["properties"]["rows"]["items"]["$ref"]
    row = components[rows.rsplit("/", 1)[1]]["properties"]
    assert {
        "position",
        "team",
        "played",
        "won",
        "drawn",
        "lost",
        "difference",
        "points",
        "form",
    } <= set(row)


def test_the_schema_and_docs_are_served(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/fixtures/{id}/result/" in response.json()["paths"]
    docs = client.get("/api/docs/").content.decode()
    assert "cdn" not in docs.lower()
