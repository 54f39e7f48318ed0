"""axe-core finds no violation on the site's own pages, public and staff, in the light and the
dark colour scheme, on a 390 × 844 phone screen in chromium.

The staff pages are visited in the states staff meet: an empty sheet, a saved result of each
game, a failed save with its messages, the conflict page, the history and the staff home.
Then the live tables (a table of each game while it is played, a finished one and its
replay), the pub's TV screen, the print sheets, and the account pages: password change and
reset, and the page of a login locked after failed attempts.
"""

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import expect

from games.live import services
from scoring.publishing.services import venue_screen_issue
from tests.api.conftest import build_world
from tests.browser.axe import axe_violations, describe
from tests.browser.conftest import PHONE
from tests.factories import FixtureFactory, UserFactory
from tests.games.live.playing import finished_conquian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _phone_in(chromium, scheme: str):
    context = chromium.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme
    )
    context.set_default_timeout(15_000)
    return context


def _log_in(context, live_server, user) -> None:
    """The user's session cookie in the browser: the login form has its own tests."""
    client = Client()
    client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def _public_pages(world) -> dict[str, str]:
    season = world.season
    played, waiting = world.fixtures[0], world.fixtures[5]
    team = played.home_team
    player = team.members.order_by("position").first().player
    return {
        "home": reverse("home"),
        "league": reverse("league-detail", args=[season.league.slug]),
        "season table": reverse("season-detail", args=[season.league.slug, season.slug]),
        "season fixtures": reverse("season-fixtures", args=[season.league.slug, season.slug]),
        "team": reverse("team-detail", args=[team.slug]),
        "player": reverse("player-detail", args=[player.slug]),
        "venue": reverse("venue-detail", args=[world.crown.slug]),
        "played fixture": reverse("fixture-detail", args=[played.pk]),
        "fixture to play": reverse("fixture-detail", args=[waiting.pk]),
        "convoy fixture": reverse("fixture-detail", args=[world.convoy_fixture.pk]),
        "conquian fixture": reverse("fixture-detail", args=[world.conquian_fixture.pk]),
        "login": reverse("login"),
        "ratings": reverse("ratings-index"),
        "Корова ratings": reverse("ratings-table", args=["korova"]),
        "live tables": reverse("table-lobby"),
        "how to play Convoy": reverse("how-to-play", args=["convoy"]),
        "how to play Корова": reverse("how-to-play", args=["korova"]),
        "how to play Conquian": reverse("how-to-play", args=["conquian"]),
    }


def _staff_pages(world) -> dict[str, str]:
    played, waiting = world.fixtures[0], world.fixtures[5]
    return {
        "staff home": reverse("staff-home"),
        "empty Корова sheet": reverse("result-entry", args=[waiting.pk]),
        "saved Корова sheet": reverse("result-entry", args=[played.pk]),
        "Convoy sheet": reverse("result-entry", args=[world.convoy_fixture.pk]),
        "Conquian sheet": reverse("result-entry", args=[world.conquian_fixture.pk]),
        "history": reverse("result-history", args=[played.pk]),
    }


def _play_pages(world) -> dict[str, str]:
    """A table of each game under way, seen by the staff member in seat 0 (the bots never
    move: no worker runs here), and a finished Conquian match with its replay and in the lobby's
    finished games."""
    player = world.crown_staff
    pages = {}
    for game, players in [("korova", 4), ("convoy", 2), ("conquian", 2)]:
        bots = list(range(1, players))
        table = services.table_create(game=game, players=players, options={}, bots=bots, by=player)
        pages[f"{game} table under way"] = reverse("table-detail", args=[table.pk])
    finished = finished_conquian([player, UserFactory(username="opponent", first_name="Olga")])
    pages["finished table"] = reverse("table-detail", args=[finished.pk])
    pages["replay"] = reverse("table-replay", args=[finished.pk]) + "?step=3"
    pages["lobby with finished games"] = reverse("table-lobby")
    return pages


def _print_and_tv_pages(world) -> dict[str, str]:
    season = world.season
    slugs = [season.league.slug, season.slug]
    token = venue_screen_issue(venue_id=world.crown.pk).token
    return {
        "Корова fixture sheet": reverse("print-fixture-sheet", args=[world.fixtures[5].pk]),
        "Convoy fixture sheet": reverse("print-fixture-sheet", args=[world.convoy_fixture.pk]),
        "Conquian fixture sheet": reverse("print-fixture-sheet", args=[world.conquian_fixture.pk]),
        "season print": reverse("season-print", args=slugs),
        "season table print": reverse("season-print-table", args=slugs),
        "venue fixture list print": reverse("season-print-venue", args=[*slugs, world.crown.slug]),
        "TV screen": reverse("tv-screen", args=[world.crown.slug, token]),
    }


def _account_pages(world) -> dict[str, str]:
    user = world.crown_staff
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return {
        "password reset": reverse("password_reset"),
        "password reset sent": reverse("password_reset_done"),
        # The link in the mail: Django moves the token into the session and shows the form.
        "new password": reverse(
            "password_reset_confirm", args=[uid, default_token_generator.make_token(user)]
        ),
        "password reset done": reverse("password_reset_complete"),
    }


def _locked_out(context, live_server, username: str):
    """A page showing the login locked after as many wrong passwords as the limit allows."""
    page = context.new_page()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        page.goto(live_server.url + reverse("login"))
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill("not the password")
        page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Login locked")).to_be_visible()
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_public_and_staff_pages_have_no_axe_violation(live_server, chromium, scheme, settings):
    settings.PASSWORD_RESET_BY_MAIL = True  # the reset pages are shown only where mail works
    world = build_world()
    context = _phone_in(chromium, scheme)
    page = context.new_page()
    found = {}
    try:
        for name, url in _public_pages(world).items():
            page.goto(live_server.url + url)
            found[name] = axe_violations(page)

        _log_in(context, live_server, world.crown_staff)
        for name, url in _staff_pages(world).items():
            page.goto(live_server.url + url)
            found[name] = axe_violations(page)

        # A Conquian single under way shows what the next deal is worth.
        page.goto(live_server.url + reverse("result-entry", args=[_conquian_to_play(world).pk]))
        page.locator("#single-0").get_by_role("button", name="Drawn").click()
        expect(page.locator("#single-0-next")).to_contain_text("next deal worth 2")
        found["Conquian under way"] = axe_violations(page)

        # A failed save: a word where a number goes.
        page.goto(live_server.url + reverse("result-entry", args=[world.fixtures[5].pk]))
        page.get_by_label("Round 1, Cara Cole").fill("ten")
        page.locator("#save-result").click()
        # The page that answered the save: the preview shows the box already, the answer (sent
        # by entry_offline.js once the sheet is kept) puts the focus on it.
        expect(page.locator("#sheet-errors")).to_be_focused()
        found["failed save"] = axe_violations(page)

        # The conflict page: someone saves a correction while this sheet is open.
        played = world.fixtures[0]
        page.goto(live_server.url + reverse("result-entry", args=[played.pk]))
        world.submit(played, played_sheet_with_round_one_changed(played))
        page.get_by_label("Round 3, Bob Baker").fill("11")
        page.locator("#save-result").click()
        expect(page.locator("#conflict")).to_be_visible()
        found["conflict"] = axe_violations(page)

        for name, url in {**_play_pages(world), **_print_and_tv_pages(world)}.items():
            page.goto(live_server.url + url)
            found[name] = axe_violations(page)

        page.goto(live_server.url + reverse("password_change"))
        found["password change"] = axe_violations(page)
        page.goto(live_server.url + reverse("password_change_done"))
        found["password changed"] = axe_violations(page)
    finally:
        context.close()

    context = _phone_in(chromium, scheme)  # logged out
    try:
        page = context.new_page()
        for name, url in _account_pages(world).items():
            page.goto(live_server.url + url)
            found[name] = axe_violations(page)
        found["login locked"] = axe_violations(_locked_out(context, live_server, "anchor-staff"))
    finally:
        context.close()

    failing = {name: violations for name, violations in found.items() if violations}
    assert not failing, "\n".join(
        f"{name} ({scheme}):\n{describe(violations)}" for name, violations in failing.items()
    )


def _conquian_to_play(world):
    played = world.conquian_fixture
    return FixtureFactory(
        season=played.season,
        round=2,
        home_team=played.away_team,  # the return match, also at The Crown
        away_team=played.home_team,
        starts_at=played.starts_at,
    )


def played_sheet_with_round_one_changed(fixture) -> dict:
    current = fixture.result_versions.get(is_current=True).sheet
    rounds = [list(row) for row in current["rounds"]]
    rounds[0][0] += 1
    return {**current, "rounds": rounds}
