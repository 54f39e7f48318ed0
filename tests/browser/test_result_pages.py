"""The pages that show results, and the season's admin page, on a 390 × 844 phone: nothing
scrolls sideways, every abbreviation of the table is explained, each game shows its own
columns and its result laid out by its kind."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.api.conftest import build_world
from tests.browser.play import check_no_sideways_scroll
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_result_pages_fit_a_phone_and_explain_their_columns(live_server, phone):
    world = build_world()
    page = phone
    season_url = reverse("season-detail", args=[world.league.slug, world.season.slug])
    page.goto(live_server.url + season_url)
    expect(page.locator("table.standings thead")).to_contain_text("HF")
    legend = page.locator("dl.abbreviations")
    expect(legend).to_contain_text("Heads for: penalty heads the team's players took.")
    expect(legend).to_contain_text("League points: win 3, draw 1, loss 0.")
    check_no_sideways_scroll(page)

    player = world.teams[0].members.first().player
    for url in [
        reverse("team-detail", args=[world.teams[0].slug]),
        reverse("player-detail", args=[player.slug]),
        reverse("fixture-detail", args=[world.fixtures[0].pk]),
        reverse("fixture-detail", args=[world.convoy_fixture.pk]),
        reverse("fixture-detail", args=[world.conquian_fixture.pk]),
        reverse("home"),
    ]:
        page.goto(live_server.url + url)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        check_no_sideways_scroll(page)

    page.goto(live_server.url + reverse("player-detail", args=[player.slug]))
    expect(page.locator(".player-figures").nth(1)).to_contain_text("Heads per game")
    page.goto(live_server.url + reverse("fixture-detail", args=[world.conquian_fixture.pk]))
    expect(page.locator("ol.deals").first).to_be_visible()


def test_a_league_admin_sets_rules_and_generates_fixtures_on_a_phone(live_server, phone):
    world = build_world()
    admin = UserFactory(username="phone-admin", is_staff=True, is_superuser=True)
    page = phone
    season = world.season
    page.goto(live_server.url + reverse("admin:leagues_season_change", args=[season.pk]))
    page.get_by_label("Username").fill(admin.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    # The season has results: its game's options show, but stay as they are.
    expect(page.get_by_label("Game ends at")).to_be_disabled()
    page.get_by_label("Points for a draw").fill("4")
    page.locator('input[name="_save"]').tap()
    error = page.locator(".errorlist").first
    expect(error).to_contain_text("Points must go win ≥ draw ≥ loss.")
    page.get_by_label("Points for a draw").fill("1")
    page.get_by_label("Points for a win").fill("2")
    page.get_by_role("button", name="Generate fixtures").tap()
    expect(page.locator(".messagelist")).to_contain_text("The season already has results")
    season.refresh_from_db()
    assert season.points_win == 2
