"""Bad input to the API never gives a 500 and never changes anything: 400 (or 404/409) with a
JSON body that names the field and the problem. Regression tests for what fuzzing the API
(schemathesis, and hypothesis below) found, plus a property test over random JSON sheets."""

import json

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.api_parsers import MAX_DEPTH
from leagues.models import Fixture
from scoring.models import ResultVersion
from tests.api.conftest import KOROVA_AWAY_WINS, korova_sheet, token_client
from tests.factories import FixtureFactory

pytestmark = pytest.mark.django_db

TOO_MANY_DIGITS = "9" * 5000  # more digits than Python's int() reads (4300)


def snapshot() -> tuple:
    """Everything a refused request must leave alone."""
    return (
        sorted(
            ResultVersion.objects.values_list(
                "pk", "fixture_id", "number", "is_current", "home_score", "away_score"
            )
        ),
        sorted(Fixture.objects.values_list("pk", "status", "postponed_reason")),
        Fixture.history.count(),
    )


def result_url(fixture) -> str:
    return f"/api/fixtures/{fixture.pk}/result/"


def post_json(client, url: str, body) -> object:
    """POST `body` as JSON text, escaping whatever json.dumps must (lone surrogates too)."""
    return client.post(url, json.dumps(body), content_type="application/json")


def fresh_korova_sheet(fixture) -> dict:
    """A valid Корова sheet whose rounds a test may change (the shared constant stays as is)."""
    return korova_sheet(fixture, [list(row) for row in KOROVA_AWAY_WINS])


def nested(depth: int, leaf=0):
    for _ in range(depth):
        leaf = [leaf]
    return leaf


@pytest.fixture
def open_fixtures(world):
    """One fixture of each game with no result yet, all at The Crown."""
    home, away = world.teams[0], world.teams[1]
    return {
        "korova": world.fixtures[5],
        "conquian": FixtureFactory(
            season=world.conquian_fixture.season, round=2, home_team=away, away_team=home
        ),
        "convoy": FixtureFactory(
            season=world.convoy_fixture.season, round=2, home_team=away, away_team=home
        ),
    }


# ---- text that cannot be stored or sent back: NUL and lone surrogates -----------------------


@pytest.mark.parametrize(
    ("sheet", "path", "words"),
    [
        ({"\ud800": 1}, "non_field_errors", "surrogate character (U+D800)"),
        ({"rounds": [{"\udfff": 1}]}, "rounds.0", "field name with a surrogate"),
        ({"rounds": [[1, "\ud83d", 0, 0]]}, "rounds.0.1", "surrogate character (U+D83D)"),
        ({"\x00": 1}, "non_field_errors", "field name with a null character"),
        ({"players": ["a\x00b"]}, "players.0", "null character"),
    ],
)
def test_unusable_text_in_a_sheet_is_400_naming_where(world, open_fixtures, sheet, path, words):
    before = snapshot()
    response = post_json(
        token_client(world.crown_staff),
        result_url(open_fixtures["korova"]),
        {"sheet": sheet, "based_on_version": 0},
    )
    assert response.status_code == 400
    assert words in response.json()["sheet"][path][0]
    assert snapshot() == before


@pytest.mark.parametrize("note", ["a\x00b", "\ud800"])
def test_unusable_text_in_the_note_is_400_naming_the_note(world, open_fixtures, note):
    fixture = open_fixtures["korova"]
    before = snapshot()
    response = post_json(
        token_client(world.crown_staff),
        result_url(fixture),
        {"sheet": korova_sheet(fixture, KOROVA_AWAY_WINS), "based_on_version": 0, "note": note},
    )
    assert response.status_code == 400
    assert list(response.json()) == ["note"]
    assert snapshot() == before


# ---- deeply nested JSON ---------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 950, 100_000])
def test_json_nested_too_deep_is_400_not_a_recursion_error(world, open_fixtures, depth):
    before = snapshot()
    body = '{"sheet": {"rounds": ' + "[" * depth + "]" * depth + '}, "based_on_version": 0}'
    response = token_client(world.crown_staff).post(
        result_url(open_fixtures["korova"]), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested more than" in response.json()["detail"]
    assert snapshot() == before


def test_a_deep_value_inside_the_limit_is_named_like_any_other(world, open_fixtures):
    fixture = open_fixtures["korova"]
    sheet = fresh_korova_sheet(fixture)
    sheet["rounds"][0][2] = nested(MAX_DEPTH - 5)
    response = post_json(
        token_client(world.crown_staff),
        result_url(fixture),
        {"sheet": sheet, "based_on_version": 0},
    )
    assert response.status_code == 400
    assert "must be a whole number" in response.json()["sheet"]["rounds.0.2"][0]


def test_the_token_endpoint_refuses_deep_json_too(world):
    body = '{"username": ' + "[" * 5000 + "]" * 5000 + ', "password": "x"}'
    response = token_client(world.admin).post(
        "/api/auth/token/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested more than" in response.json()["detail"]


# ---- numbers too long for int() -------------------------------------------------------------


def test_a_number_with_too_many_digits_is_400_beside_it(world, open_fixtures):
    fixtures = open_fixtures
    korova = fresh_korova_sheet(fixtures["korova"])
    korova["rounds"][1][3] = TOO_MANY_DIGITS
    korova["players"][0] = TOO_MANY_DIGITS
    convoy = {"games": [{"winner": "home", "convoys": {"home": TOO_MANY_DIGITS, "away": 0}}]}
    conquian = {
        "singles": [
            {"home_player": TOO_MANY_DIGITS, "away_player": 1, "deals": ["home"]},
            {"home_player": 2, "away_player": 3, "deals": [TOO_MANY_DIGITS]},
        ]
    }
    client = token_client(world.crown_staff)
    before = snapshot()
    answers = {
        game: post_json(client, result_url(fixtures[game]), {"sheet": sheet, "based_on_version": 0})
        for game, sheet in [("korova", korova), ("convoy", convoy), ("conquian", conquian)]
    }
    assert {game: answer.status_code for game, answer in answers.items()} == dict.fromkeys(
        answers, 400
    )
    assert set(answers["korova"].json()["sheet"]) >= {"rounds.1.3", "players.0"}
    assert "games.0.convoys.home" in answers["convoy"].json()["sheet"]
    conquian_errors = answers["conquian"].json()["sheet"]
    assert {"singles.0.home_player", "singles.1.deals.0"} <= set(conquian_errors)
    # A bad value is quoted, but cut short.
    assert len(conquian_errors["singles.1.deals.0"][0]) < 200
    assert snapshot() == before


@pytest.mark.parametrize("version", [10**30, str(10**30), "99999999999999999999"])
def test_a_huge_based_on_version_is_a_conflict_not_a_500(world, open_fixtures, version):
    fixture = open_fixtures["korova"]
    before = snapshot()
    response = post_json(
        token_client(world.crown_staff),
        result_url(fixture),
        {"sheet": korova_sheet(fixture, KOROVA_AWAY_WINS), "based_on_version": version},
    )
    assert response.status_code == 409
    assert "based_on_version" in response.json()
    assert snapshot() == before


# ---- filters and addresses ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("round=1.5", "round"),
        ("season=1e30", "season"),
        ("team=NaN", "team"),
        ("venue=%00", "venue"),
        ("date_from=2026-02-30", "date_from"),
        ("status=%F0%9F%90%84", "status"),
        ("round=1.0", "round"),
        ("team=%D9%A3", "team"),  # Arabic-Indic 3: ids are ASCII digits, not any digits
        ("season=%D9%A1", "season"),
        ("round=%D9%A1", "round"),
        ("team=%EF%BC%93", "team"),  # fullwidth 3
        ("venue=%E0%A5%A7", "venue"),  # Devanagari 1
        ("team=+3", "team"),
    ],
)
def test_a_filter_value_of_the_wrong_type_is_400_naming_the_filter(world, api, query, name):
    response = api.get(f"/api/fixtures/?{query}")
    assert response.status_code == 400
    assert list(response.json()) == [name]


def test_a_whole_number_filter_still_reads_big_and_negative_ids(world, api):
    for query in ["season=9223372036854775807", "round=-1", "team=0", "team=-9223372036854775808"]:
        response = api.get(f"/api/fixtures/?{query}")
        assert response.status_code == 200, query
        assert response.json()["results"] == []


@pytest.mark.parametrize(
    ("path", "name"),
    [("players", "team"), ("seasons", "league"), ("teams", "season"), ("teams", "venue")],
)
def test_an_id_filter_in_other_than_ascii_digits_is_400_naming_it(world, api, path, name):
    for digit in ["%D9%A3", "%EF%BC%93", "%E0%A5%A7"]:
        response = api.get(f"/api/{path}/?{name}={digit}")
        assert response.status_code == 400, digit
        assert response.json() == {name: ["Enter a whole number."]}


@pytest.mark.parametrize("path", ["fixtures", "players", "seasons", "teams"])
def test_an_id_filter_beyond_what_the_database_holds_is_400_naming_it(world, api, path):
    """On SQLite an id past 64 bits was an OverflowError (500) in every filter on a relation."""
    names = {"fixtures": ["team", "season", "venue"], "players": ["team"]}
    names |= {"seasons": ["league"], "teams": ["season", "venue"]}
    for name in names[path]:
        for value in ["9223372036854775808", "-12434468321961275775015316441006080"]:
            response = api.get(f"/api/{path}/?{name}={value}")
            assert response.status_code == 400, (name, value)
            assert list(response.json()) == [name]


@pytest.mark.parametrize(
    "path",
    [
        "/api/fixtures/-1/",
        "/api/fixtures/abc/result/",
        "/api/nothing-here/",
        "/api/",
        "/api/fixtures/X%12%0A%C3%B2/results/",  # a newline in the path
        # ids in other than ASCII digits (Arabic-Indic, fullwidth 3) name no object
        *(
            f"/api/{route}/{digit}/"
            for route in ["leagues", "seasons", "teams", "players", "venues", "fixtures", "tables"]
            for digit in ["%D9%A3", "%EF%BC%93"]
        ),
        "/api/seasons/%D9%A3/standings/",
        "/api/fixtures/%D9%A3/result/",
        "/api/fixtures/%D9%A3/results/",
        "/api/fixtures/%D9%A3/tables/",
        "/api/tables/%D9%A3/join/",
        "/api/tables/%D9%A3/moves/",
        "/api/tables/%D9%A3/log/",
    ],
)
def test_an_address_no_endpoint_serves_is_a_json_404(world, path):
    browser = Client(enforce_csrf_checks=True)  # a POST without a CSRF token: still the 404
    for response in (browser.get(path), browser.post(path, {})):
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert "no API endpoint" in response.json()["detail"]


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    ("path", "meant"),
    [
        ("/api/tables/3/moves", "/api/tables/3/moves/"),
        ("/api/fixtures", "/api/fixtures/"),
        ("/api/schema", "/api/schema/"),
        ("/api/nothing-here", None),
    ],
)
def test_an_api_address_without_its_slash_is_a_json_404_naming_the_right_one(
    world, settings, debug, path, meant
):
    """No redirect (it would drop a POST's body; under DEBUG Django raises on it): the client
    is told the address it meant, whatever the method."""
    settings.DEBUG = debug
    browser = Client(enforce_csrf_checks=True)
    for method in ("get", "post", "put", "patch", "delete"):
        response = getattr(browser, method)(path, {}, content_type="application/json")
        assert response.status_code == 404, (method, response)
        assert response["Content-Type"] == "application/json"
        detail = response.json()["detail"]
        assert (f"did you mean {meant}?" in detail) if meant else ("no API endpoint" in detail)


@pytest.mark.parametrize("debug", [True, False])
def test_a_page_without_its_slash_is_still_redirected(world, settings, debug):
    settings.DEBUG = debug
    response = Client().get("/tables")
    assert response.status_code == 301 and response["Location"] == "/tables/"


# ---- random JSON sheets ---------------------------------------------------------------------

SHEET_KEYS = [
    "players",
    "rounds",
    "singles",
    "deals",
    "home_player",
    "away_player",
    "games",
    "winner",
    "convoys",
    "home",
    "away",
    "draw",
    "stalemate",
]
TEXT = st.text(alphabet=st.characters(exclude_characters="\x00"), max_size=20)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
    | st.sampled_from(SHEET_KEYS)
)
JSON = st.recursive(
    LEAVES,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.sampled_from(SHEET_KEYS) | TEXT, children, max_size=5)
    ),
    max_leaves=30,
)
SHEETS = st.dictionaries(st.sampled_from(SHEET_KEYS) | TEXT, JSON, max_size=4)
VERSIONS = st.sampled_from([0, 0, 0, 1, -1, 10**30]) | JSON


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(game=st.sampled_from(["korova", "conquian", "convoy"]), sheet=SHEETS, version=VERSIONS)
def test_random_json_sheets_are_refused_and_change_nothing(
    world, open_fixtures, game, sheet, version
):
    before = snapshot()
    response = post_json(
        token_client(world.crown_staff),
        result_url(open_fixtures[game]),
        {"sheet": sheet, "based_on_version": version},
    )
    assert response.status_code in {400, 409}, response.content
    body = response.json()
    assert isinstance(body, dict) and body
    if response.status_code == 400:
        assert set(body) <= {"sheet", "based_on_version", "note", "non_field_errors", "detail"}
    assert snapshot() == before


def test_an_explicit_nul_anywhere_in_the_body_is_400(world, open_fixtures):
    client = token_client(world.crown_staff)
    before = snapshot()
    for body in (
        {"sheet": {"singles": [{"deals": ["home\x00"]}]}, "based_on_version": 0},
        {"sheet": {}, "based_on_version": "\x00"},
        {"sheet": {}, "based_on_version": 0, "note": "\x00"},
    ):
        response = post_json(client, result_url(open_fixtures["conquian"]), body)
        assert response.status_code == 400, body
    assert snapshot() == before


# ---- the schema documents these refusals ----------------------------------------------------


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_documents_the_token_refusal_as_answered(schema, world, api):
    """A missing field is named under its own key, not only under non_field_errors."""
    refusal = schema["paths"]["/api/auth/token/"]["post"]["responses"]["400"]
    name = refusal["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    shape = schema["components"]["schemas"][name]
    response = api.post("/api/auth/token/", {}, format="json")
    assert response.status_code == 400
    assert set(response.json()) <= set(shape["properties"])
    assert not set(shape.get("required", [])) - set(response.json())


def test_the_schema_documents_400_and_404_on_lists_and_404_on_objects(schema):
    paths = schema["paths"]
    for path, operations in paths.items():
        get = operations.get("get")
        if get is None or path.startswith("/api/schema"):
            continue
        codes = set(get["responses"])
        if "{id}" in path:
            assert "404" in codes, path
        elif "page" in {parameter["name"] for parameter in get.get("parameters", [])}:
            assert {"404"} <= codes, path
            if path != "/api/venues/":  # the one list without filters
                assert "400" in codes, path
    filters = {p["name"]: p["schema"] for p in paths["/api/fixtures/"]["get"]["parameters"]}
    for name in ("season", "round", "team", "venue"):
        assert filters[name]["type"] == "integer", name
