"""Preview equals Save on the staff entry pages.

For generated entries (Hypothesis), the messages an htmx preview shows are exactly the
messages Save shows: the same sentences, beside the same fields, each once. And the cases
staff met: a Convoy winner with fewer convoys, a negative Корова cell, a message that must
go when the winner changes.
"""

import html
import re

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.models import Game
from scoring.models import ResultVersion
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
PARITY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
SLOT = re.compile(r'<span class="field-error" id="(err-[\w-]+)"[^>]*>([^<]*)</span>')
GENERAL = re.compile(r'<div class="sheet-errors" id="sheet-errors".*?</div>', re.S)
# The summary's links name the fields with a message (the message shows beside the field):
# only its plain items are messages of their own.
ITEM = re.compile(r"<li>(?!<a )(.*?)</li>", re.S)


def make_fixture(game, **season):
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game), **season)
    home = TeamFactory(
        name="Sixth Cow",
        home_venue=venue,
        members=[PlayerFactory(name="Ann"), PlayerFactory(name="Bea")],
    )
    away = TeamFactory(
        name="Last Orders", members=[PlayerFactory(name="Cy"), PlayerFactory(name="Dot")]
    )
    return FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)


def messages(page: str) -> dict[str, str]:
    """Every message on a page or a preview: slot id (or "general") → sentence; the general
    box's own items each count once (its links to the fields' messages are not messages)."""
    found = {slot: html.unescape(text) for slot, text in SLOT.findall(page) if text.strip()}
    box = GENERAL.search(page)
    for number, item in enumerate(ITEM.findall(box.group(0)) if box else []):
        found[f"general.{number}"] = html.unescape(item)
    return found


def assert_each_message_once(page: str) -> None:
    """Every message shows once on the page: beside its field, or in the box if it belongs
    to no field; the box links to the fields by their place only."""
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page))
    for message in messages(page).values():
        assert shown.count(message) == 1, message


def preview_and_save(client, fixture, data):
    """(messages of the preview, messages of Save, whether Save saved); nothing is kept."""
    url = reverse("result-entry", args=[fixture.pk])
    with transaction.atomic():
        preview = client.post(url, {**data, "action": "preview"}, **HTMX)
        saved = client.post(url, {**data, "action": "save"})
        transaction.set_rollback(True)
    assert preview.status_code == 200
    assert saved.status_code in (302, 400)
    page = saved.content.decode() if saved.status_code == 400 else ""
    assert_each_message_once(preview.content.decode())
    assert_each_message_once(page)
    return messages(preview.content.decode()), messages(page), saved.status_code == 302


def base(fixture):
    return {"based_on_version": "0"}


typed = st.one_of(
    st.integers(min_value=-5, max_value=40).map(str),
    st.sampled_from(["", "", "0", "x", "7.5", " 12 ", "١٢"]),
)


@pytest.fixture
def korova_page(client):
    fixture = make_fixture(Game.KOROVA, rule_options={"end_score": 30})
    client.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    return client, fixture


@PARITY
@given(rounds=st.lists(st.lists(typed, min_size=4, max_size=4), min_size=1, max_size=6))
def test_korova_preview_shows_exactly_what_save_says(korova_page, rounds):
    client, fixture = korova_page
    data = base(fixture)
    for index, row in enumerate(rounds):
        for seat, cell in enumerate(row):
            data[f"rounds.{index}.{seat}"] = cell
    preview, save, saved = preview_and_save(client, fixture, data)
    assert preview == save
    assert saved == (not preview)


@pytest.fixture
def convoy_page(client):
    fixture = make_fixture(Game.CONVOY, fixture_format={"games": 3})
    client.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    return client, fixture


convoy_game = st.tuples(
    st.sampled_from(["", "home", "away", "stalemate", "draw"]),
    st.sampled_from(["", "0", "1", "2", "3", "4", "9", "-1", "x"]),
    st.sampled_from(["", "0", "1", "2", "3", "4", "9", "-1", "x"]),
)


@PARITY
@given(games=st.lists(convoy_game, min_size=1, max_size=3))
def test_convoy_preview_shows_exactly_what_save_says(convoy_page, games):
    client, fixture = convoy_page
    data = base(fixture)
    for index, (winner, home, away) in enumerate(games):
        if winner:
            data[f"games.{index}.winner"] = winner
        data[f"games.{index}.convoys.home"] = home
        data[f"games.{index}.convoys.away"] = away
    preview, save, saved = preview_and_save(client, fixture, data)
    assert preview == save
    assert saved == (not preview)


@pytest.fixture
def conquian_page(client):
    fixture = make_fixture(Game.CONQUIAN, rule_options={"target": 3})
    client.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    return client, fixture


deals = st.lists(st.sampled_from(["home", "away", "draw", "home", "away", "", "x"]), max_size=7)


@PARITY
@given(first=deals, second=deals)
def test_conquian_preview_shows_exactly_what_save_says(conquian_page, first, second):
    client, fixture = conquian_page
    data = base(fixture)
    for single, results in enumerate((first, second)):
        for number, result in enumerate(results):
            data[f"singles.{single}.deals.{number}"] = result
    preview, save, saved = preview_and_save(client, fixture, data)
    assert preview == save
    assert saved == (not preview)


# --- what staff met ------------------------------------------------------------------------


def test_a_convoy_winner_with_fewer_convoys_is_refused_in_the_preview(convoy_page):
    client, fixture = convoy_page
    data = {
        **base(fixture),
        "games.0.winner": "home",
        "games.0.convoys.home": "1",
        "games.0.convoys.away": "3",
    }
    preview, save, _ = preview_and_save(client, fixture, data)
    assert preview["err-games-0-convoys-away"] == (
        "Game 1: Sixth Cow won, so Last Orders had fewer than 3 convoys "
        "(the game ends at the third), not 3."
    )
    assert preview == save


def test_a_negative_korova_cell_is_refused_once_in_the_preview(korova_page):
    client, fixture = korova_page
    data = base(fixture)
    for seat, heads in enumerate(["120", "0", "0", "-3"]):
        data[f"rounds.0.{seat}"] = heads
    preview, save, _ = preview_and_save(client, fixture, data)
    assert preview == {
        "err-rounds-0-0": "Round 1: Ann cannot take 120 heads; at most 106 can be taken in one round.",
        "err-rounds-0-3": "Round 1: Dot cannot take fewer than 0 heads (not -3).",
    }
    assert preview == save
    page = client.post(
        reverse("result-entry", args=[fixture.pk]), {**data, "action": "preview"}, **HTMX
    ).content.decode()
    # Nothing is claimed from the refused cells: 120 does not end the game, and with -3
    # left out nobody leads.
    assert "Game over" not in page
    assert "lead by" not in page
    assert re.findall(r'data-total="\d">(\d+)', page) == ["0", "0", "0", "0"]


def test_a_convoy_message_goes_when_the_winner_changes(convoy_page):
    client, fixture = convoy_page
    url = reverse("result-entry", args=[fixture.pk])
    wrong = {
        **base(fixture),
        "games.0.winner": "away",
        "games.0.convoys.home": "3",
        "games.0.convoys.away": "1",
    }
    failed = client.post(url, wrong)
    assert failed.status_code == 400
    assert "err-games-0-convoys-home" in messages(failed.content.decode())

    fixed = client.post(url, {**wrong, "games.0.winner": "home", "action": "preview"}, **HTMX)
    slots = dict(SLOT.findall(fixed.content.decode()))
    assert slots["err-games-0-convoys-home"] == ""  # redrawn empty, out of band
    assert 'id="err-games-0-convoys-home" hx-swap-oob="true"' in fixed.content.decode()
    assert not ResultVersion.objects.exists()
