"""A member of staff on a 390 px phone: chooses a reserve in a player's place, and awards a
walkover; the pages that show them fit the phone."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import Game
from scoring.models import ResultVersion
from tests.browser.play import check_no_sideways_scroll
from tests.scoring.squads import make_squads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_choose_a_reserve_and_award_a_walkover_on_a_phone(live_server, phones):
    squads = make_squads(Game.KOROVA, teams=3)
    squads.reserve(0, name="Rita Reserve")
    other = squads.fixture_between(1, 2)
    page = phones(squads.staff)

    page.goto(live_server.url + reverse("result-entry", args=[squads.fixture.pk]))
    page.get_by_text("Who played: a reserve in a player's place").tap()
    home_team = squads.teams[0].name
    page.get_by_label(f"{home_team}, place 2").select_option(label="Rita Reserve (reserve)")
    check_no_sideways_scroll(page)
    page.get_by_role("button", name="Use this lineup").tap()
    expect(page.locator("#sheet-form")).to_contain_text("Rita Reserve")
    check_no_sideways_scroll(page)

    page.goto(live_server.url + reverse("result-entry", args=[other.pk]))
    page.get_by_text("A team did not turn up? Award a walkover").tap()
    page.get_by_label(squads.teams[1].name).check()
    check_no_sideways_scroll(page)
    page.get_by_role("button", name="Award a walkover").tap()
    expect(page.locator(".result-line")).to_contain_text("Walkover:")
    check_no_sideways_scroll(page)
    assert ResultVersion.objects.get(fixture=other).walkover == "home"

    season = squads.season
    page.goto(live_server.url + reverse("season-fixtures", args=[season.league.slug, season.slug]))
    expect(page.locator(".fixture-list")).to_contain_text("w/o")
    check_no_sideways_scroll(page)
