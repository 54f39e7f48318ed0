"""The pub's TV screen at 1920 × 1080: a result appears without a reload, and a board that
cannot refresh says so."""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Game, TeamMember
from scoring.publishing.services import venue_screen_issue
from scoring.results.services import result_submit
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFRESH_SECONDS = 2


@pytest.fixture
def screen(settings, chromium, live_server):
    settings.TV_REFRESH_SECONDS = REFRESH_SECONDS
    venue = VenueFactory(name="The Black Cow", slug="black-cow")
    season = SeasonFactory(league=LeagueFactory(name="Cow League", game=Game.KOROVA))
    home = TeamFactory(name="Red Lions", home_venue=venue)
    away = TeamFactory(name="Night Owls")
    for team in (home, away):
        EntryFactory(season=season, team=team)
    fixture = FixtureFactory(
        season=season, home_team=home, away_team=away, venue=venue, starts_at=timezone.now()
    )
    token = venue_screen_issue(venue_id=venue.pk).token
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/tv/black-cow/{token}/")
    try:
        yield page, fixture
    finally:
        context.close()


def test_a_new_result_appears_without_a_reload(screen):
    page, fixture = screen
    row = page.locator(f"#tv-fixture-{fixture.pk}")
    expect(row).to_contain_text("Playing now")
    page.evaluate("window.loadedOnce = true")  # gone if the page reloads

    players = [
        m.player_id
        for team in (fixture.home_team, fixture.away_team)
        for m in TeamMember.objects.filter(team=team).order_by("position")
    ]
    sheet = {"players": players, "rounds": [[20, 5, 10, 5]] * 4}
    admin = UserFactory(is_superuser=True)
    result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=admin)

    expect(row).to_contain_text("100–60", timeout=(REFRESH_SECONDS * 2 + 1) * 1000)
    assert page.evaluate("window.loadedOnce") is True
    size = page.eval_on_selector(
        ".tv-fixture .team", "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 40  # readable across a room at 1920 px
    expect(page.locator(".stale-banner")).to_be_hidden()


def test_a_board_that_cannot_refresh_shows_it_is_stale(screen):
    page, _ = screen
    page.route("**/board/", lambda route: route.abort())
    expect(page.locator(".stale-banner")).to_be_visible(timeout=(REFRESH_SECONDS * 5) * 1000)
    expect(page.locator(".stale-banner")).to_contain_text("Not updated since")
