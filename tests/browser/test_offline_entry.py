"""Entry that survives the pub's Wi-Fi, in chromium on a 390 × 844 phone: a member of staff
types the sheet, the network goes (Playwright's offline mode) before Save, the page keeps the
sheet and says it waits; a reload without the network still shows the form with that sheet
(the service worker's copy); the network comes back and the sheet is sent: saved exactly once.
And a sheet that waited while someone else saved meets the conflict page, as a plain Save would;
rounds are added and removed without the network, and get their totals once it is back.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import Game
from scoring.models import ResultVersion
from scoring.results import page_fixtures
from scoring.results.services import result_submit
from tests.browser.play import check_no_sideways_scroll
from tests.browser.test_entry_keyboard import _fixture
from tests.factories import StaffMembershipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Penalty heads per round: Ann, Bea (home), Cy, Dot (away). Ann reaches 69 in round 5.
ROUNDS = [[8, 3, 12, 6], [15, 7, 2, 9], [11, 14, 5, 3], [22, 6, 10, 4], [13, 9, 4, 7]]
WAITING = "Saved on this phone, waiting for the network"


def _type_sheet(page, rounds):
    for index, heads in enumerate(rounds):
        number = index + 1
        for seat, player in enumerate(["Ann", "Bea", "Cy", "Dot"]):
            page.get_by_label(f"Round {number}, {player}").fill(str(heads[seat]))
        if number < len(rounds):
            page.locator("#add-round").tap()
            expect(page.get_by_label(f"Round {number + 1}, Ann")).to_be_focused()


@pytest.fixture
def entry_page_hits(monkeypatch):
    """How many requests for an entry page reached the server (each one opens its fixture)."""
    hits = []
    real = page_fixtures.staff_fixture

    def staff_fixture(request, pk):
        hits.append(request.method)
        return real(request, pk)

    monkeypatch.setattr(page_fixtures, "staff_fixture", staff_fixture)
    return hits


def _open_entry_page(page, live_server, fixture):
    page.goto(live_server.url + reverse("result-entry", args=[fixture.pk]))
    # The service worker has kept the page and its files: it can be shown offline from now on.
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "true")


def test_a_sheet_saved_without_the_network_is_kept_shown_after_a_reload_and_sent_once(
    live_server, phones, cow_league_fixture, entry_page_hits
):
    season, fixture, staff = cow_league_fixture
    page = phones(staff)
    _open_entry_page(page, live_server, fixture)
    _type_sheet(page, ROUNDS)
    expect(page.locator("#game-status")).to_have_text("Game over in round 5: Ann reached 66.")

    page.context.set_offline(True)
    entry_page_hits.clear()
    page.locator("#save-result").tap()

    waiting = page.locator("#entry-waiting")
    expect(waiting).to_be_visible()
    expect(waiting).to_contain_text(WAITING)
    assert not ResultVersion.objects.filter(fixture=fixture).exists()
    check_no_sideways_scroll(page)

    # A reload without the network: the kept page, with the waiting sheet in it.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Red Lions")
    # Shown once the sheet is in IndexedDB (its text is in the page from the start, hidden).
    expect(page.locator("#entry-waiting")).to_be_visible()
    expect(page.locator("#entry-waiting")).to_contain_text(WAITING)
    for seat, player in enumerate(["Ann", "Bea", "Cy", "Dot"]):
        expect(page.get_by_label(f"Round 5, {player}")).to_have_value(str(ROUNDS[4][seat]))
    assert not ResultVersion.objects.filter(fixture=fixture).exists()
    # Neither the Save nor the reload reached the server: the page is the service worker's copy.
    assert entry_page_hits == []

    # The network is back: the sheet goes by itself, and the fixture's page says it is saved.
    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="Result saved")).to_be_visible()
    assert page.url == live_server.url + reverse("fixture-detail", args=[fixture.pk])

    versions = list(ResultVersion.objects.filter(fixture=fixture))
    assert len(versions) == 1
    assert (versions[0].number, versions[0].home_score, versions[0].away_score) == (1, 108, 62)
    assert versions[0].created_by == staff and versions[0].submission_key

    # Nothing waits any more: the entry page opens on the saved version, and says nothing.
    _open_entry_page(page, live_server, fixture)
    expect(page.locator(".version-line")).to_contain_text("version 1")
    expect(page.locator("#entry-waiting")).to_be_hidden()
    assert ResultVersion.objects.filter(fixture=fixture).count() == 1


def test_a_sheet_that_waited_while_someone_else_saved_gets_the_conflict_page(
    live_server, phones, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    page = phones(staff)
    _open_entry_page(page, live_server, fixture)
    _type_sheet(page, ROUNDS)

    page.context.set_offline(True)
    page.locator("#save-result").tap()
    # Shown once the sheet is in IndexedDB (its text is in the page from the start, hidden).
    expect(page.locator("#entry-waiting")).to_be_visible()
    expect(page.locator("#entry-waiting")).to_contain_text(WAITING)

    # Meanwhile a colleague with a working network saves the result.
    colleague = StaffMembershipFactory(venue=fixture.venue).user
    players = [p for team in (fixture.home_team, fixture.away_team)
               for p in team.members.order_by("position").values_list("player_id", flat=True)]  # fmt: skip
    result_submit(
        fixture_id=fixture.pk,
        sheet={"players": players, "rounds": [[20, 5, 10, 5]] * 4},
        based_on_version=0,
        by=colleague,
    )

    page.context.set_offline(False)
    expect(page.get_by_text("Not saved: the result changed")).to_be_visible()
    assert ResultVersion.objects.filter(fixture=fixture).count() == 1

    # The conflict page is the answer to the kept sheet: it waits no more.
    page.reload()
    expect(page.locator("#entry-waiting")).to_be_hidden()
    expect(page.locator(".version-line")).to_contain_text("version 1")
    assert ResultVersion.objects.filter(fixture=fixture).count() == 1


def test_rounds_added_and_removed_without_the_network_get_their_totals_once_it_is_back(
    live_server, phones, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    page = phones(staff)
    _open_entry_page(page, live_server, fixture)
    _type_sheet(page, ROUNDS[:1])
    expect(page.locator("#home-total")).to_have_text("11")
    entry_url = page.url

    page.context.set_offline(True)
    page.locator("#add-round").tap()
    expect(page.get_by_label("Round 2, Ann")).to_be_focused()
    expect(page.locator("#entry-offline-rows")).to_contain_text("the totals wait for the network")
    for seat, player in enumerate(["Ann", "Bea", "Cy", "Dot"]):
        page.get_by_label(f"Round 2, {player}").fill(str(ROUNDS[1][seat]))
    page.locator("#add-round").tap()
    expect(page.get_by_label("Round 3, Ann")).to_be_focused()
    page.locator("#remove-round").tap()
    expect(page.get_by_label("Round 3, Ann")).to_have_count(0)
    expect(page.get_by_label("Round 1, Cy")).to_have_value("12")
    expect(page.locator("#home-total")).to_have_text("11")  # the totals wait
    assert page.url == entry_url

    # The network is back: the totals of the sheet as it is now, two rounds.
    page.context.set_offline(False)
    expect(page.locator("#entry-offline-rows")).to_be_hidden()
    expect(page.locator("#home-total")).to_have_text("33")
    expect(page.locator("#away-total")).to_have_text("29")
    expect(page.locator("#totals-heading")).to_have_text("Totals after 2 rounds")
    page.locator("#add-round").tap()  # and the server's own buttons again
    expect(page.get_by_label("Round 3, Ann")).to_be_focused()
    expect(page.get_by_label("Round 2, Dot")).to_have_value("9")
    assert not ResultVersion.objects.filter(fixture=fixture).exists()


def test_conquian_deals_tapped_without_the_network_are_read_by_the_server_once_it_is_back(
    live_server, phones
):
    fixture, staff = _fixture(Game.CONQUIAN)[1:]
    page = phones(staff)
    _open_entry_page(page, live_server, fixture)

    page.context.set_offline(True)
    page.locator("#add-0-draw").tap()
    page.locator("#add-0-home").tap()
    page.locator("#add-0-away").tap()
    expect(page.get_by_label("Deal 1, worth 1")).to_have_value("draw")
    expect(page.get_by_label("Deal 2, worth 2")).to_have_value("home")
    expect(page.get_by_label("Deal 3, worth 1")).to_have_value("away")
    page.locator("#undo-0").tap()  # "Remove last deal" came with the first deal
    expect(page.locator("#single-0 select")).to_have_count(2)
    expect(page.locator("#entry-offline-rows")).to_be_visible()
    expect(page.locator("#single-0-score")).to_have_text("Ann 0 – 0 Cy")  # the score waits

    page.context.set_offline(False)
    expect(page.locator("#single-0-score")).to_have_text("Ann 2 – 0 Cy")
    expect(page.get_by_label("Deal 2, worth 2")).to_have_value("home")
    assert not ResultVersion.objects.filter(fixture=fixture).exists()
