"""A captain's entry that survives the pub's Wi-Fi, in chromium on a 390 × 844 phone: the
network goes after round 1 of a Корова sheet and the captain goes on typing, adding (and
removing) rounds without it; Save keeps the sheet on the phone, and when the network is back
it is sent: saved exactly once, every round in it. And the next page load: the page closed
while the sheet waits, reopened with the network back, sends it once.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import ResultVersion
from tests.browser.play import check_no_sideways_scroll
from tests.factories import team_player_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Penalty heads per round: Ann, Bea (home), Cy, Dot (away); Ann reaches 80 in round 4.
FULL_GAME = [[20, 5, 10, 5], [20, 5, 10, 5], [20, 5, 10, 5], [20, 5, 10, 5]]
PLAYERS = ["Ann", "Bea", "Cy", "Dot"]
WAITING = "Saved on this phone, waiting for the network"


@pytest.fixture
def captain(cow_league_fixture):
    """Cy, the away team's captain, with his own login: (fixture, user)."""
    season, fixture, staff = cow_league_fixture
    return fixture, team_player_user(fixture.away_team, 1, username="cy")


def _type_round(page, number, heads):
    for seat, player in enumerate(PLAYERS):
        page.get_by_label(f"Round {number}, {player}").fill(str(heads[seat]))


def _open_entry_page(page, live_server, fixture):
    page.goto(live_server.url + reverse("result-entry", args=[fixture.pk]))
    expect(page.locator("#player-entry-notice")).to_be_visible()  # a player's entry page
    # The service worker has kept the page and its files: it can be shown offline from now on.
    expect(page.locator("html")).to_have_attribute("data-offline-ready", "true")


def _type_the_rest_offline(page):
    """Rounds 2-4 added on the phone without the network, a fifth added and taken away."""
    for number in (2, 3, 4, 5):
        page.locator("#add-round").tap()
        expect(page.get_by_label(f"Round {number}, Ann")).to_be_focused()
        if number < 5:
            _type_round(page, number, FULL_GAME[number - 1])
    expect(page.locator("#entry-offline-rows")).to_contain_text("the totals wait for the network")
    page.locator("#remove-round").tap()
    expect(page.get_by_label("Round 5, Ann")).to_have_count(0)
    expect(page.get_by_label("Round 4, Dot")).to_have_value("5")


def _saved_once(fixture, user):
    versions = list(ResultVersion.objects.filter(fixture=fixture))
    assert len(versions) == 1
    assert versions[0].sheet["rounds"] == FULL_GAME
    assert (versions[0].home_score, versions[0].away_score) == (100, 60)
    assert (versions[0].created_by, versions[0].confirmation) == (user, "awaiting")


def test_a_captain_cut_off_after_round_1_types_on_and_the_sheet_is_saved_once(
    live_server, phones, captain
):
    fixture, cy = captain
    page = phones(cy)
    _open_entry_page(page, live_server, fixture)
    _type_round(page, 1, FULL_GAME[0])
    expect(page.locator("#home-total")).to_have_text("25")

    page.context.set_offline(True)
    _type_the_rest_offline(page)
    check_no_sideways_scroll(page)
    page.locator("#save-result").tap()
    # Shown once the sheet is in IndexedDB (its text is in the page from the start, hidden).
    expect(page.locator("#entry-waiting")).to_be_visible()
    expect(page.locator("#entry-waiting")).to_contain_text(WAITING)
    assert not ResultVersion.objects.filter(fixture=fixture).exists()

    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="Result saved")).to_be_visible()
    assert page.url == live_server.url + reverse("fixture-detail", args=[fixture.pk])
    expect(page.locator("#confirmation-state")).to_contain_text("Awaiting confirmation")
    _saved_once(fixture, cy)


def test_a_sheet_kept_on_a_closed_page_is_sent_when_the_page_is_opened_again(
    live_server, phones, captain
):
    fixture, cy = captain
    page = phones(cy)
    _open_entry_page(page, live_server, fixture)
    _type_round(page, 1, FULL_GAME[0])

    page.context.set_offline(True)
    _type_the_rest_offline(page)
    page.locator("#save-result").tap()
    # Shown once the sheet is in IndexedDB (its text is in the page from the start, hidden).
    expect(page.locator("#entry-waiting")).to_be_visible()
    expect(page.locator("#entry-waiting")).to_contain_text(WAITING)
    context = page.context
    page.close()  # the phone goes back in the pocket, the sheet still waiting

    context.set_offline(False)
    assert not ResultVersion.objects.filter(fixture=fixture).exists()

    again = context.new_page()
    again.goto(live_server.url + reverse("result-entry", args=[fixture.pk]))
    expect(again.get_by_role("status").filter(has_text="Result saved")).to_be_visible()
    assert again.url == live_server.url + reverse("fixture-detail", args=[fixture.pk])
    _saved_once(fixture, cy)

    # Nothing waits any more: the entry page opens on the saved version, and sends nothing.
    again.goto(live_server.url + reverse("result-entry", args=[fixture.pk]))
    expect(again.locator(".version-line")).to_contain_text("version 1")
    expect(again.locator("#entry-waiting")).to_be_hidden()
    assert ResultVersion.objects.filter(fixture=fixture).count() == 1
