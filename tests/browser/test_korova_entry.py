"""A member of staff enters a whole Корова sheet on a phone; the public table shows the points."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import ResultVersion
from tests.browser.play import check_no_sideways_scroll
from tests.factories import (
    PASSWORD,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Penalty heads per round: Ann, Bea (home), Cy, Dot (away). Ann reaches 69 in round 5.
ROUNDS = [
    [8, 3, 12, 6],
    [15, 7, 2, 9],
    [11, 14, 5, 3],
    [22, 6, 10, 4],
    [13, 9, 4, 7],
]
HOME_TOTALS = [11, 33, 58, 86, 108]
AWAY_TOTALS = [18, 29, 37, 51, 62]


def _table_row(page, team_name: str):
    return page.locator("table.standings tbody tr").filter(has_text=team_name)


def test_staff_enter_a_whole_korova_sheet_and_the_table_shows_the_points(
    live_server, phone, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    page = phone
    table_url = live_server.url + reverse("season-detail", args=[season.league.slug, season.slug])

    # Before: the public table has both teams on no points.
    page.goto(table_url)
    expect(_table_row(page, "Night Owls").locator(".pts")).to_have_text("0")

    # The member of staff logs in and picks tonight's fixture.
    page.goto(live_server.url + reverse("staff-home"))
    page.get_by_label("Username").fill(staff.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").tap()
    page.locator(".staff-fixtures a").filter(has_text="Red Lions v Night Owls").tap()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Red Lions")
    check_no_sideways_scroll(page)

    # Round by round: the running totals follow the typing.
    for index, heads in enumerate(ROUNDS):
        number = index + 1
        for seat, player in enumerate(["Ann", "Bea", "Cy", "Dot"]):
            page.get_by_label(f"Round {number}, {player}").fill(str(heads[seat]))
        expect(page.locator("#home-total")).to_have_text(str(HOME_TOTALS[index]))
        expect(page.locator("#away-total")).to_have_text(str(AWAY_TOTALS[index]))
        if number < len(ROUNDS):
            expect(page.locator("#game-status")).to_contain_text("nobody has reached 66 yet")
            page.locator("#add-round").tap()
            expect(page.get_by_label(f"Round {number + 1}, Ann")).to_be_focused()

    # Ann reached 66 in round 5: the sheet knows the game is over and shows the outcome.
    expect(page.locator("#game-status")).to_have_text("Game over in round 5: Ann reached 66.")
    expect(page.locator("#outcome")).to_contain_text("Night Owls win with fewer heads (62 v 108)")
    expect(page.locator("#outcome")).to_contain_text("League points: Red Lions 0, Night Owls 3")
    expect(page.locator("#add-round")).to_have_count(0)

    page.locator("#save-result").tap()
    expect(page.get_by_role("status")).to_contain_text("Result saved")
    assert page.url == live_server.url + reverse("fixture-detail", args=[fixture.pk])

    version = ResultVersion.objects.get(fixture=fixture)
    assert (version.number, version.home_score, version.away_score) == (1, 108, 62)
    assert version.created_by == staff

    # The public table shows the new points at once.
    page.goto(table_url)
    winners, losers = _table_row(page, "Night Owls"), _table_row(page, "Red Lions")
    expect(winners.locator(".pts")).to_have_text("3")
    expect(losers.locator(".pts")).to_have_text("0")
    expect(winners.locator("td.num").nth(1)).to_have_text("1")  # played
    expect(winners.locator("td.pos")).to_have_text("1")
