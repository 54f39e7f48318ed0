"""The sheet by keyboard and screen reader, on a 390 × 844 phone in chromium: Enter moves on
(or saves) and never removes a round, a removed round can be put back, a failed save puts the
focus on a list of links to the fields, whose messages stay clear of the sticky Save bar, one
status line stays put while htmx redraws around it, and Conquian's deal buttons keep the focus.
"""

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import Game
from scoring.models import ResultVersion
from scoring.results.services import result_submit
from tests.browser.test_korova_entry import ROUNDS
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Ann", "Bea", "Cy", "Dot"]


def _fixture(game: str):
    """Red Lions (Ann, Bea) v Night Owls (Cy, Dot) tonight, and a member of staff there."""
    season = SeasonFactory(league=LeagueFactory(game=game))
    home = TeamFactory(name="Red Lions", members=[PlayerFactory(name=n) for n in PLAYERS[:2]])
    away = TeamFactory(name="Night Owls", members=[PlayerFactory(name=n) for n in PLAYERS[2:]])
    for team in (home, away):
        EntryFactory(season=season, team=team)
    fixture = FixtureFactory(season=season, home_team=home, away_team=away)
    return None, fixture, StaffMembershipFactory(venue=fixture.venue).user


@pytest.fixture
def season_with_fixture():
    return _fixture(Game.KOROVA)


@pytest.fixture
def conquian_fixture():
    return _fixture(Game.CONQUIAN)[1:]


def open_sheet(page, live_server, fixture, user):
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page.goto(live_server.url + reverse("result-entry", args=[fixture.pk]))


def cell(page, round_number: int, player: str):
    return page.get_by_role("textbox", name=f"Round {round_number}, {player}", exact=True)


def test_enter_moves_to_the_next_cell_and_in_the_last_one_saves_every_round(
    live_server, phone, season_with_fixture
):
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)

    for index, heads in enumerate(ROUNDS):
        number = index + 1
        if number > 1:
            page.locator("#add-round").tap()
        for seat, player in enumerate(PLAYERS):
            cell(page, number, player).fill(str(heads[seat]))
            if seat < 3:
                cell(page, number, player).press("Enter")
                expect(cell(page, number, PLAYERS[seat + 1])).to_be_focused()
    expect(page.locator("#game-status")).to_contain_text("Game over in round 5")

    # Enter in the last cell of the finished game saves it: the deciding round stays.
    cell(page, 5, "Dot").press("Enter")

    page.wait_for_url(live_server.url + reverse("fixture-detail", args=[fixture.pk]))
    assert ResultVersion.objects.get(fixture=fixture).sheet["rounds"] == ROUNDS


def test_enter_while_the_totals_are_redrawn_keeps_the_focus_where_it_went(
    live_server, phone, season_with_fixture
):
    """The totals' preview can come in just as Enter moves on: the redraw must not pull the
    focus back to the cell it was on when the preview was swapped in. htmx settles a swap
    20 ms after it; here a second, so that Enter comes in between every time."""
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    page.evaluate(
        """() => {
            htmx.config.defaultSettleDelay = 1000;
            document.addEventListener("htmx:afterSwap", () => { window.swapped = true; });
            document.addEventListener("htmx:afterSettle", () => { window.settled = true; });
        }"""
    )
    cell(page, 1, "Ann").fill("3")
    page.wait_for_function("() => window.swapped === true")  # the preview, the focus still on Ann
    cell(page, 1, "Ann").press("Enter")
    expect(cell(page, 1, "Bea")).to_be_focused()
    page.wait_for_function("() => window.settled === true")
    expect(cell(page, 1, "Bea")).to_be_focused()


def test_enter_in_the_note_saves_and_never_presses_remove_last_round(
    live_server, phone, season_with_fixture
):
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    page.evaluate("document.querySelector('script[src*=staff_entry]').remove()")
    for index, heads in enumerate(ROUNDS):
        if index:
            page.locator("#add-round").tap()
        for seat, player in enumerate(PLAYERS):
            cell(page, index + 1, player).fill(str(heads[seat]))
    expect(page.locator("#game-status")).to_contain_text("Game over in round 5")

    page.get_by_label("Note (optional)").fill("Played early")
    page.get_by_label("Note (optional)").press("Enter")

    page.wait_for_url(live_server.url + reverse("fixture-detail", args=[fixture.pk]))
    assert len(ResultVersion.objects.get(fixture=fixture).sheet["rounds"]) == 5


def test_a_removed_round_can_be_put_back(live_server, phone, season_with_fixture):
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    for number in (1, 2):
        if number == 2:
            page.locator("#add-round").tap()
        for seat, player in enumerate(PLAYERS):
            cell(page, number, player).fill(str(ROUNDS[number - 1][seat]))
    expect(page.locator("#home-total")).to_have_text("33")

    page.locator("#remove-round").tap()

    expect(cell(page, 2, "Ann")).to_have_count(0)
    expect(page.locator("#round-removed")).to_contain_text("Round 2 removed (Ann 15, Bea 7")
    expect(page.locator("#undo-remove")).to_be_focused()
    page.locator("#undo-remove").tap()
    for seat, player in enumerate(PLAYERS):
        expect(cell(page, 2, player)).to_have_value(str(ROUNDS[1][seat]))
    expect(page.locator("#home-total")).to_have_text("33")


def test_a_failed_save_focuses_links_to_the_fields_clear_of_the_save_bar(
    live_server, phone, season_with_fixture
):
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    rounds = [list(row) for row in ROUNDS]
    rounds[4][1] = 120  # Bea cannot take 120 heads in one round
    for index, heads in enumerate(rounds):
        if index:
            page.locator("#add-round").tap()
        for seat, player in enumerate(PLAYERS):
            cell(page, index + 1, player).fill(str(heads[seat]))

    page.locator("#save-result").tap()

    expect(page.locator("#sheet-errors")).to_be_focused()
    link = page.locator("#sheet-errors a").filter(has_text="Round 5, Bea")
    expect(link).to_have_attribute("href", "#cell-rounds-4-1")
    link.tap()
    bea = cell(page, 5, "Bea")
    expect(bea).to_be_focused()
    expect(bea).to_have_attribute("aria-invalid", "true")
    # All three digits show: no room is lost to an error icon.
    assert bea.evaluate("input => input.scrollWidth <= input.clientWidth")
    # The message under the round is above the sticky Save bar, not behind it.
    message = page.locator("#err-rounds-4-1").bounding_box()
    save_bar = page.locator(".save-bar").bounding_box()
    assert message["height"] > 0
    assert message["y"] + message["height"] <= save_bar["y"]
    assert not ResultVersion.objects.exists()


def test_one_status_line_stays_on_the_page_while_the_totals_are_redrawn(
    live_server, phone, season_with_fixture
):
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    status = page.locator("#entry-status")
    expect(status).to_have_attribute("role", "status")
    status.evaluate("line => { line.dataset.original = 'yes'; }")

    for seat, player in enumerate(PLAYERS):
        cell(page, 1, player).fill(str(ROUNDS[0][seat]))

    expect(page.locator("#home-total")).to_have_text("11")
    expect(status).to_contain_text("Red Lions 11, Night Owls 18")
    expect(status).to_have_attribute("data-original", "yes")  # the same element, new words
    expect(page.locator("[aria-live]")).to_have_count(0)  # no live region that is replaced


def test_conquian_deal_buttons_keep_the_focus_across_redraws(live_server, phone, conquian_fixture):
    fixture, staff = conquian_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    drawn = page.locator("#single-0").get_by_role("button", name="Drawn")

    drawn.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#single-0-next")).to_contain_text("next deal worth 2")
    page.wait_for_function("document.activeElement.id === 'add-0-draw'")
    page.keyboard.press("Enter")
    expect(page.locator("#single-0-next")).to_contain_text("next deal worth 4")
    page.wait_for_function("document.activeElement.id === 'add-0-draw'")
    expect(page.locator("#entry-status")).to_contain_text("Ann 0–0 Cy")


def test_deals_pressed_in_a_row_stay_on_the_page_and_the_winning_one_focuses_the_heading(
    live_server, phone, conquian_fixture
):
    fixture, staff = conquian_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    page_loads: list[str] = []
    page.on(
        "request",
        lambda request: request.is_navigation_request() and page_loads.append(request.method),
    )
    page.locator("#add-0-home").focus()
    for _ in range(10):  # Ann wins deals until the single is hers and its buttons go
        score = page.locator("#single-0-score").inner_text()
        # at once: a button redrawn a moment ago is htmx's already, not a plain form's
        page.keyboard.press("Enter")
        expect(page.locator("#single-0-score")).not_to_have_text(score)
        if not page.locator("#add-0-home").count():
            break
        expect(page.locator("#add-0-home")).to_be_focused()  # the same button, redrawn
    expect(page.locator("#single-0")).to_contain_text("won the single")
    expect(page.locator("#single-0-title")).to_be_focused()  # not the top of the page
    assert page_loads == [], "a deal was sent as a whole page load"


def test_on_the_conflict_page_choosing_yours_puts_your_value_in_the_field(
    live_server, phone, season_with_fixture
):
    _, fixture, staff = season_with_fixture
    page = phone
    open_sheet(page, live_server, fixture, staff)
    for index, heads in enumerate(ROUNDS):
        if index:
            page.locator("#add-round").tap()
        for seat, player in enumerate(PLAYERS):
            cell(page, index + 1, player).fill(str(heads[seat]))
    cell(page, 1, "Ann").fill("9")  # mine: round 1, Ann 9
    expect(page.locator("#home-total")).to_have_text("109")
    theirs = [list(row) for row in ROUNDS]
    theirs[0][0] = 7  # someone else saves round 1, Ann 7 meanwhile
    other = StaffMembershipFactory(venue=fixture.venue).user
    result_submit(
        fixture_id=fixture.pk,
        sheet={"players": [p.pk for p in _players(fixture)], "rounds": theirs},
        based_on_version=0,
        by=other,
    )

    page.locator("#save-result").tap()

    expect(page.locator("#conflict")).to_be_focused()  # read first, not the top of the page
    expect(cell(page, 1, "Ann")).to_have_value("7")  # theirs, until I choose
    page.get_by_label("Use yours: 9").check()
    expect(cell(page, 1, "Ann")).to_have_value("9")
    expect(page.locator("#home-total")).to_have_text("109")  # the totals follow
    page.locator("#save-result").tap()
    page.wait_for_url(live_server.url + reverse("fixture-detail", args=[fixture.pk]))
    assert ResultVersion.objects.get(is_current=True).sheet["rounds"][0][0] == 9


def _players(fixture):
    return [
        member.player
        for team in (fixture.home_team, fixture.away_team)
        for member in team.members.order_by("position")
    ]
