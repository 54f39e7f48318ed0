"""Malformed posts to the staff result-entry pages of all three games: never a 500, never a new
ResultVersion, and the message beside the field. Regression tests for what fuzzing the forms
found, plus a property test over random posts."""

import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.errors import Invalid
from leagues.models import Fixture, Game
from scoring.models import ResultVersion
from scoring.results.services import result_submit
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LONG_INDEX = "1" * 5000  # more digits than Python's int() reads (4300)


def make_fixture(game: str) -> Fixture:
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game))
    home = TeamFactory(
        home_venue=venue, members=[PlayerFactory(name="Ann"), PlayerFactory(name="Bea")]
    )
    away = TeamFactory(members=[PlayerFactory(name="Cy"), PlayerFactory(name="Dot")])
    return FixtureFactory.create(season=season, home_team=home, away_team=away, venue=venue)


# A whole, valid sheet of each game as the form posts it, and the input a test corrupts.
VALID_POSTS = {
    Game.KOROVA: {
        f"rounds.{index}.{seat}": str(heads)
        for index in range(4)
        for seat, heads in enumerate([20, 5, 10, 5])  # Ann reaches 80 in round 4
    },
    Game.CONQUIAN: {
        **{f"singles.0.deals.{index}": "home" for index in range(5)},
        **{f"singles.1.deals.{index}": "away" for index in range(5)},
    },
    Game.CONVOY: {
        "games.0.winner": "home",
        "games.0.convoys.home": "3",
        "games.0.convoys.away": "1",
    },
}
CORRUPTED_INPUT = {
    Game.KOROVA: "rounds.1.2",
    Game.CONQUIAN: "singles.0.deals.2",
    Game.CONVOY: "games.0.convoys.home",
}
GAMES = list(VALID_POSTS)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(params=GAMES)
def game_fixture(request, client):
    """A fixture of each game, and the client logged in as staff of its venue."""
    fixture = make_fixture(request.param)
    client.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    return fixture


def post(client, fixture, data: dict, **extra):
    """Post `data` urlencoded, as a browser does (names of any length, NUL bytes and all)."""
    return client.post(
        reverse("result-entry", args=[fixture.pk]),
        urlencode(data),
        content_type="application/x-www-form-urlencoded",
        **extra,
    )


def valid_post(fixture, **extra) -> dict:
    return {"based_on_version": "0", "action": "save", **VALID_POSTS[fixture.season.game], **extra}


def assert_nothing_saved(fixture):
    assert not ResultVersion.objects.exists()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED


def test_the_valid_posts_here_really_save(game_fixture, client):
    """The control: each bad post below differs from this one in one input only."""
    response = post(client, game_fixture, valid_post(game_fixture))
    assert response.status_code == 302
    assert ResultVersion.objects.count() == 1


# ---- the version marker ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("based_on", "status"),
    [
        ("abc", 400),
        ("-1", 400),
        ("", 400),
        ("\x00", 400),
        ("1e9999", 400),
        ("1.5", 400),
        ("9" * 5000, 400),
        ("99999999999999999999", 409),
        ("5", 409),
    ],
)
def test_a_tampered_version_marker_never_saves(game_fixture, client, based_on, status):
    response = post(client, game_fixture, valid_post(game_fixture, based_on_version=based_on))
    assert response.status_code == status
    assert_nothing_saved(game_fixture)


def test_a_missing_version_marker_says_reload_the_page(game_fixture, client):
    data = valid_post(game_fixture)
    del data["based_on_version"]
    response = post(client, game_fixture, data)
    assert response.status_code == 400
    assert "reload the page" in response.content.decode()
    assert_nothing_saved(game_fixture)


def test_a_version_from_the_future_shows_the_conflict_page_for_every_game(game_fixture, client):
    """The conflict page against no saved result at all: a Корова sheet used to be a 500
    (the list of players was looked up as one player's name)."""
    response = post(client, game_fixture, valid_post(game_fixture, based_on_version="7"))
    assert response.status_code == 409
    html = response.content.decode()
    assert "based on version 7, but there is no saved result" in html
    assert 'name="based_on_version" value="0"' in html  # the entries kept, based on none
    assert_nothing_saved(game_fixture)


# ---- the grid's inputs ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        str(10**30),
        "-5",
        "abc",
        "1.5",
        "0x10",
        "🐄",
        "Ω≈ç√",
        "\x00",
        "3\x00",
        "   ",
        "x" * 100_000,
        "9" * 5000,
    ],
)
def test_a_bad_input_is_refused_beside_it(game_fixture, client, value):
    name = CORRUPTED_INPUT[game_fixture.season.game]
    response = post(client, game_fixture, valid_post(game_fixture, **{name: value}))
    assert response.status_code == 400
    html = response.content.decode()
    tag = re.search(rf'<(input|select)[^>]*name="{re.escape(name)}"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in tag
    assert_nothing_saved(game_fixture)


@pytest.mark.parametrize("winner", ["", "nobody", "\x00", "HOME", "home\x00", "x" * 5000])
def test_a_bad_convoy_winner_is_refused(client, winner):
    fixture = make_fixture(Game.CONVOY)
    client.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    response = post(client, fixture, valid_post(fixture, **{"games.0.winner": winner}))
    assert response.status_code == 400
    assert_nothing_saved(fixture)


def test_missing_inputs_are_refused(game_fixture, client):
    data = valid_post(game_fixture)
    del data[CORRUPTED_INPUT[game_fixture.season.game]]
    for body in ({}, {"action": "save"}, {"based_on_version": "0"}, data):
        response = post(client, game_fixture, body)
        assert response.status_code == 400, body
    assert_nothing_saved(game_fixture)


def test_an_input_name_with_a_huge_index_is_ignored(game_fixture, client):
    """Names are read as numbers: one with 5000 digits used to make int() raise (a 500)."""
    game = game_fixture.season.game
    tampered = {
        Game.KOROVA: f"rounds.{LONG_INDEX}.0",
        Game.CONQUIAN: f"singles.0.deals.{LONG_INDEX}",
        Game.CONVOY: f"games.{LONG_INDEX}.winner",
    }[game]
    for action in ("preview", "add_round"):
        response = post(
            client, game_fixture, valid_post(game_fixture, action=action, **{tampered: "7"})
        )
        assert response.status_code in (200, 400), action
    assert_nothing_saved(game_fixture)

    response = post(client, game_fixture, valid_post(game_fixture, **{tampered: "7"}))

    assert response.status_code == 302
    assert ResultVersion.objects.get().number == 1  # saved, the stray input left out


@pytest.mark.parametrize("note", ["\x00", "x" * 10_000])
def test_a_bad_note_is_refused_beside_it(game_fixture, client, note):
    response = post(client, game_fixture, valid_post(game_fixture, note=note))
    assert response.status_code == 400
    assert 'class="field-error"' in response.content.decode()
    assert_nothing_saved(game_fixture)


@pytest.mark.parametrize(
    "action", ["\x00", "explode", "add:9:home", "add:0:nobody", "undo:x", "add", "x" * 5000]
)
def test_an_unknown_action_saves_nothing(game_fixture, client, action):
    for extra in ({}, HTMX):
        response = post(client, game_fixture, valid_post(game_fixture, action=action), **extra)
        assert response.status_code in (200, 400)
    assert_nothing_saved(game_fixture)


# ---- random posts ---------------------------------------------------------------------------


@pytest.fixture
def fixtures_by_game(client) -> dict:
    """A fixture of each game, the client logged in as a member of staff serving all three."""
    fixtures = {game: make_fixture(game) for game in GAMES}
    staff = StaffMembershipFactory(venue=fixtures[Game.KOROVA].venue).user
    for game in (Game.CONQUIAN, Game.CONVOY):
        StaffMembershipFactory(user=staff, venue=fixtures[game].venue)
    client.force_login(staff)
    return fixtures


NAMES = st.sampled_from(
    [
        "based_on_version",
        "note",
        "action",
        "rounds.0.0",
        "rounds.0.3",
        "rounds.119.1",
        "rounds.120.0",
        "rounds.-1.0",
        "singles.0.deals.0",
        "singles.1.deals.7",
        "singles.2.deals.0",
        "games.0.winner",
        "games.0.convoys.home",
        "games.14.convoys.away",
        f"rounds.{LONG_INDEX}.0",
        f"games.{LONG_INDEX}.winner",
    ]
) | st.text(max_size=30)
# Never a usable value: no digit at all (Unicode digits included), no deal or winner word.
JUNK_TEXT = st.text(max_size=60).filter(
    lambda text: (
        not any(character.isdigit() for character in text)
        and text.strip().lower() not in {"home", "away", "draw", "stalemate"}
    )
)
JUNK_NUMBERS = st.one_of(
    st.integers(max_value=-1), st.integers(min_value=10**12, max_value=10**40)
).map(str)
VALUES = JUNK_TEXT | JUNK_NUMBERS
ACTIONS = st.sampled_from(
    ["save", "preview", "add_round", "remove_round", "add:0:home", "undo:1", "add:1:draw"]
) | st.text(max_size=20)


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    game=st.sampled_from(GAMES),
    data=st.dictionaries(NAMES, VALUES, max_size=12),
    based_on=st.sampled_from(["0", "abc", "-1", "99999999999999999999", ""]) | VALUES,
    action=ACTIONS,
    htmx=st.booleans(),
)
def test_random_posts_never_fail_and_never_save(
    client, fixtures_by_game, game, data, based_on, action, htmx
):
    fixture = fixtures_by_game[game]
    body = {**data, "based_on_version": based_on, "action": action}

    response = post(client, fixture, body, **(HTMX if htmx else {}))

    assert response.status_code in (200, 400, 409), response.status_code
    assert not ResultVersion.objects.filter(fixture=fixture).exists()


# ---- the service, for any other caller ------------------------------------------------------


@pytest.mark.parametrize("note", ["a\x00b", "\ud800"])
def test_the_service_refuses_a_note_the_database_cannot_store(note):
    fixture = make_fixture(Game.CONVOY)
    staff = StaffMembershipFactory(venue=fixture.venue).user
    sheet = {"games": [{"winner": "home", "convoys": {"home": 3, "away": 1}}]}

    with pytest.raises(Invalid) as refused:
        result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=staff, note=note)

    assert list(refused.value.errors) == ["note"]
    assert_nothing_saved(fixture)
