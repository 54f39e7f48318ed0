"""Match night on 390 × 844 phones: the home captain enters the result from the fixture page
(where the printed sheet's QR code leads), the away captain confirms it and the table counts
it; in the other evening the away captain disputes it with their own account and the pub's
member of staff decides between the two versions, side by side."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import Player
from scoring.models import ResultVersion
from scoring.results import services
from tests.browser.play import check_no_sideways_scroll
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL_GAME = [[20, 5, 10, 5]] * 4  # Ann reaches 80 in round 4: Night Owls win on fewer heads


def captain(fixture, team, name):
    user = UserFactory(username=name.lower())
    Player.objects.filter(memberships__team=team, name=name).update(user=user)
    return user


def table_points(page, team_name: str):
    return page.locator("table.standings tbody tr").filter(has_text=team_name).locator(".pts")


@pytest.fixture
def evening(cow_league_fixture):
    season, fixture, staff = cow_league_fixture
    ann = captain(fixture, fixture.home_team, "Ann")
    cy = captain(fixture, fixture.away_team, "Cy")
    return season, fixture, staff, ann, cy


def test_captain_a_enters_on_a_phone_and_captain_b_confirms(live_server, phones, evening):
    season, fixture, _, ann, cy = evening
    fixture_url = live_server.url + reverse("fixture-detail", args=[fixture.pk])
    table_url = live_server.url + reverse("season-detail", args=[season.league.slug, season.slug])

    # Ann, the home captain, enters the sheet from the fixture page.
    home = phones(ann)
    home.goto(fixture_url)
    home.locator("#player-enter").tap()
    expect(home.locator("#player-entry-notice")).to_contain_text("once a player of the other team")
    for index, heads in enumerate(FULL_GAME):
        for seat, player in enumerate(["Ann", "Bea", "Cy", "Dot"]):
            home.get_by_label(f"Round {index + 1}, {player}").fill(str(heads[seat]))
        if index + 1 < len(FULL_GAME):
            home.locator("#add-round").tap()
            expect(home.get_by_label(f"Round {index + 2}, Ann")).to_be_focused()
    check_no_sideways_scroll(home)
    home.locator("#save-result").tap()
    expect(home.locator("#confirmation-state")).to_contain_text("Awaiting confirmation")
    expect(home.locator("#confirm-result")).to_have_count(0)  # not hers to confirm
    check_no_sideways_scroll(home)

    # The table does not count it yet, and says so.
    home.goto(table_url)
    expect(table_points(home, "Night Owls")).to_have_text("0")
    expect(home.locator("#uncounted-results")).to_contain_text("Red Lions v Night Owls")
    check_no_sideways_scroll(home)

    # Cy, the away captain, confirms it on his phone.
    away = phones(cy)
    away.goto(fixture_url)
    expect(away.locator("#answer-heading")).to_be_visible()
    away.locator("#confirm-result").tap()
    expect(away.locator("p.notice.success")).to_contain_text("Result confirmed")
    expect(away.locator("#confirmation-state")).to_have_count(0)
    check_no_sideways_scroll(away)

    away.goto(table_url)
    expect(table_points(away, "Night Owls")).to_have_text("3")
    expect(away.locator("#uncounted-results")).to_have_count(0)
    assert list(
        ResultVersion.objects.filter(fixture=fixture)
        .order_by("number")
        .values_list("confirmation", "created_by__username")
    ) == [("awaiting", "ann"), ("confirmed", "cy")]


def test_captain_b_disputes_with_his_own_sheet_and_staff_decide(live_server, phones, evening):
    season, fixture, staff, ann, cy = evening
    fixture_url = live_server.url + reverse("fixture-detail", args=[fixture.pk])
    players = [m.player_id for t in (fixture.home_team, fixture.away_team) for m in t.members.all()]
    services.result_submit(  # Ann entered it as in the test above
        fixture_id=fixture.pk,
        sheet={"players": players, "rounds": FULL_GAME},
        based_on_version=0,
        by=ann,
    )

    # Cy disputes it: round 1 was 30 for him, not 10; he enters his account and says why.
    away = phones(cy)
    away.goto(fixture_url)
    away.locator("#answer-heading ~ details summary").tap()
    away.get_by_role("link", name="Or enter your own account").tap()
    expect(away.locator("#dispute-notice")).to_be_visible()
    away.get_by_label("Round 1, Cy").fill("30")
    away.get_by_label("Why you dispute it").fill("Round 1 was 30 for Cy")
    check_no_sideways_scroll(away)
    away.locator("#save-result").tap()
    expect(away.locator("#confirmation-state")).to_contain_text("Disputed")
    expect(away.locator("#confirmation-state")).to_contain_text("Round 1 was 30 for Cy")

    # The barkeep finds it first on the staff page and sees both versions side by side.
    bar = phones(staff)
    bar.goto(live_server.url + reverse("staff-home"))
    bar.locator("#fixtures-disputed a").filter(has_text="Red Lions v Night Owls").tap()
    expect(bar.locator("#decide-version-1")).to_contain_text("As entered")
    expect(bar.locator("#decide-version-2")).to_contain_text("Round 1 was 30 for Cy")
    expect(bar.locator("table.changes")).to_contain_text("Round 1")
    check_no_sideways_scroll(bar)
    bar.locator("#choose-2").tap()
    expect(bar.locator("#confirmation-state")).to_have_count(0)

    history = list(
        ResultVersion.objects.filter(fixture=fixture)
        .order_by("number")
        .values_list("confirmation", "source", "is_current")
    )
    assert history == [
        ("awaiting", "player", False),
        ("disputed", "player", False),
        ("confirmed", "staff", True),
    ]
    decided = ResultVersion.objects.get(fixture=fixture, is_current=True)
    assert decided.sheet["rounds"][0] == [20, 5, 30, 5]
    bar.goto(live_server.url + reverse("season-detail", args=[season.league.slug, season.slug]))
    expect(table_points(bar, "Night Owls")).to_have_text("3")
