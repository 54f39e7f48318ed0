"""Match night's other pages on 390 × 844 phones, as the pub's staff, a league admin and two
captains use them: staff postpone a fixture and move it directly in the admin (the fixture's
page shows its play-by day, then the new date), an admin finds the overdue one; a new date
accepted by the other captain reaches the printed fixture list and the pub's TV; a captain
says he cannot play and the team's and fixture's pages name the reserve who could stand in;
staff open a dispute from "What needs you" on the decide page; a player turns emails off there.
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Entry, Fixture, Profile, Reserve
from leagues.schedule_services import availability_set, reschedule_propose
from scoring.publishing.services import venue_screen_issue
from scoring.publishing.tv import pub_evening
from scoring.results import confirmation, services
from tests.admin_pages import change_url
from tests.browser.play import check_no_sideways_scroll
from tests.factories import FixtureFactory, PlayerFactory, UserFactory, team_player_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_DAY = "%A %-d %B %Y"  # the fixture page's "l j F Y"


def _fixture_page(page, live_server, fixture):
    page.goto(live_server.url + reverse("fixture-detail", args=[fixture.pk]))


def _admin_change(page, live_server, fixture, *, status, reason="", starts_at=None):
    page.goto(live_server.url + change_url(fixture))
    page.locator("#id_status").select_option(status)
    if reason:
        page.locator("#id_reason").fill(reason)
    if starts_at:
        local = timezone.localtime(starts_at)
        page.locator("#id_starts_at_0").fill(local.strftime("%Y-%m-%d"))
        page.locator("#id_starts_at_1").fill(local.strftime("%H:%M:%S"))
    check_no_sideways_scroll(page)
    page.locator('input[name="_save"]').tap()
    expect(page.locator(".messagelist .success")).to_be_visible()


def test_staff_postpone_and_move_a_fixture_and_an_admin_finds_the_overdue_one(
    live_server, phones, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    # Played two months ago by the calendar, and never: past its play-by day once postponed.
    Fixture.objects.filter(pk=fixture.pk).update(
        starts_at=timezone.now() - datetime.timedelta(days=60)
    )

    bar = phones(staff)
    _admin_change(bar, live_server, fixture, status="postponed", reason="Flooded cellar")
    fixture.refresh_from_db()
    assert fixture.status == "postponed" and fixture.play_by < timezone.localdate()
    _fixture_page(bar, live_server, fixture)
    expect(bar.get_by_text("Play by", exact=True)).to_be_visible()
    expect(bar.locator(".play-by")).to_have_text(
        f"To be played by {fixture.play_by.strftime(LONG_DAY)}."
    )
    check_no_sideways_scroll(bar)

    # The league admin's list of overdue fixtures: this one, not one postponed in time.
    FixtureFactory(
        season=season, home_team=fixture.away_team, away_team=fixture.home_team,
        venue=fixture.venue, starts_at=timezone.now() - datetime.timedelta(days=2),
        status="postponed", postponed_reason="Ice", play_by=timezone.localdate() + datetime.timedelta(days=26),
    )  # fmt: skip
    admin = phones(UserFactory(is_superuser=True, is_staff=True))
    admin.goto(live_server.url + reverse("admin:leagues_fixture_changelist"))
    admin.get_by_role("link", name="Overdue: not played by its play-by day").tap()
    rows = admin.locator("#result_list tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Red Lions v Night Owls")
    check_no_sideways_scroll(admin)

    # The barkeep moves it directly to next Thursday: the fixture page follows.
    new_date = (timezone.localtime() + datetime.timedelta(days=7)).replace(
        hour=20, minute=0, second=0, microsecond=0
    )
    _admin_change(bar, live_server, fixture, status="scheduled", starts_at=new_date)
    _fixture_page(bar, live_server, fixture)
    expect(bar.locator("body")).to_contain_text(new_date.strftime(f"{LONG_DAY}, %H:%M"))
    expect(bar.get_by_text("Play by", exact=True)).to_have_count(0)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.starts_at) == ("scheduled", new_date)


def test_an_accepted_new_date_reaches_the_printed_list_and_the_pubs_tv(
    live_server, phones, phone, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    Fixture.objects.filter(pk=fixture.pk).update(
        starts_at=timezone.now() + datetime.timedelta(days=5)
    )
    ann = team_player_user(fixture.home_team, 1, username="ann")
    cy = team_player_user(fixture.away_team, 1, username="cy")
    # Tonight, later: inside the pub's evening and still to come.
    now = timezone.now()
    tonight = (now + (pub_evening(now)[1] - now) / 2).replace(second=0, microsecond=0)
    reschedule_propose(fixture_id=fixture.pk, starts_at=tonight, message="Tonight?", by=ann)

    token = venue_screen_issue(venue_id=fixture.venue.pk).token
    tv_url = f"{live_server.url}{reverse('tv-screen', args=[fixture.venue.slug, token])}"
    print_url = live_server.url + reverse(
        "season-print-venue", args=[season.league.slug, season.slug, fixture.venue.slug]
    )
    phone.goto(tv_url)
    expect(phone.locator(f"#tv-fixture-{fixture.pk}")).to_have_count(0)

    away = phones(cy)
    _fixture_page(away, live_server, fixture)
    away.get_by_role("button", name="Accept the new date").tap()
    expect(away.locator("#schedule")).not_to_contain_text("Tonight?")
    check_no_sideways_scroll(away)

    local = timezone.localtime(tonight)
    phone.goto(print_url)
    row = phone.locator("table.list-table tbody tr").filter(has_text="Red Lions")
    expect(row).to_contain_text(local.strftime("%a %-d %b %Y"))
    expect(row).to_contain_text(local.strftime("%H:%M"))
    phone.goto(tv_url)
    expect(phone.locator(f"#tv-fixture-{fixture.pk}")).to_contain_text(local.strftime("%H:%M"))


def test_a_captain_who_cannot_play_shows_the_reserve_who_could_stand_in(
    live_server, phones, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    Fixture.objects.filter(pk=fixture.pk).update(
        starts_at=timezone.now() + datetime.timedelta(days=3)
    )
    ann = team_player_user(fixture.home_team, 1, username="ann")
    rita = PlayerFactory(name="Rita", user=UserFactory(username="rita"))
    Reserve.objects.create(
        entry=Entry.objects.get(season=season, team=fixture.home_team), player=rita
    )
    availability_set(fixture_id=fixture.pk, available=True, by=rita.user)

    home = phones(ann)
    team_url = live_server.url + reverse("team-detail", args=[fixture.home_team.slug])
    home.goto(team_url)
    toggle = home.locator(f"#availability-{fixture.pk}")
    toggle.get_by_role("button", name="I can't play").tap()
    expect(toggle.get_by_role("status")).to_have_text("You said you cannot play.")
    check_no_sideways_scroll(home)

    home.goto(team_url)  # the team's list, as anyone reads it now
    marks = home.locator(".upcoming-availability")
    expect(marks.locator("li").filter(has_text="Ann")).to_contain_text("cannot play")
    expect(marks.locator("li").filter(has_text="Rita")).to_contain_text("can play")
    expect(marks.locator(".stand-ins")).to_have_text("Could stand in: Rita")

    _fixture_page(home, live_server, fixture)
    expect(home.locator("#schedule .stand-ins")).to_have_text("Could stand in: Rita")
    expect(home.locator("#schedule .mark-no")).to_have_count(1)
    check_no_sideways_scroll(home)


def test_staff_open_a_dispute_from_needs_you_and_a_player_turns_emails_off(
    live_server, phones, cow_league_fixture
):
    season, fixture, staff = cow_league_fixture
    ann = team_player_user(fixture.home_team, 1, username="ann")
    cy = team_player_user(fixture.away_team, 1, username="cy")
    players = [m.player_id for t in (fixture.home_team, fixture.away_team) for m in t.members.all()]
    entered = services.result_submit(
        fixture_id=fixture.pk,
        sheet={"players": players, "rounds": [[20, 5, 10, 5]] * 4},
        based_on_version=0,
        by=ann,
    )
    confirmation.result_dispute(
        fixture_id=fixture.pk, version=entered.number, reason="Round 2 was ours", by=cy
    )

    bar = phones(staff)
    bar.goto(live_server.url + reverse("home"))
    bar.get_by_role("link", name="Needs you").tap()
    disputes = bar.locator("section").filter(has=bar.locator("#disputes-heading"))
    expect(disputes).to_contain_text("The Black Cow")
    check_no_sideways_scroll(bar)
    disputes.get_by_role("link", name="Red Lions v Night Owls").tap()
    expect(bar).to_have_url(live_server.url + reverse("result-decide", args=[fixture.pk]))
    expect(bar.locator("#decide-version-2")).to_contain_text("Round 2 was ours")
    check_no_sideways_scroll(bar)

    # Cy turns his emails off; the page says so, and so it stays.
    away = phones(cy)
    away.goto(live_server.url + reverse("needs-you"))
    away.get_by_role("button", name="Turn emails off").tap()
    expect(away.get_by_role("status").filter(has_text="No more emails")).to_be_visible()
    away.reload()
    expect(away.get_by_role("button", name="Turn emails on")).to_be_visible()
    expect(away.locator("#notices-heading ~ form")).to_contain_text("Emails are off")
    check_no_sideways_scroll(away)
    assert Profile.objects.get(user=cy).email_notices is False
