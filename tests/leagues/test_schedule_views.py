"""Match night's schedule on the site: the fixture page's new date and availability, the
proposal form, the team page's toggles and the season page's play-by days
(leagues/schedule_views.py, scoring/publishing/pages.py)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from leagues.models import Availability, Entry, Fixture, RescheduleProposal, Reserve
from leagues.schedule_services import reschedule_propose
from leagues.services import fixture_status_change
from tests.factories import FixtureFactory, PlayerFactory, UserFactory, team_player_user

pytestmark = pytest.mark.django_db

LOCAL_NEXT_WEEK = (timezone.localtime() + datetime.timedelta(days=7)).replace(
    hour=20, minute=0, second=0, microsecond=0
)


@pytest.fixture
def fixture():
    return FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=2))


@pytest.fixture
def home(fixture):
    return team_player_user(fixture.home_team, 1)


@pytest.fixture
def away(fixture):
    return team_player_user(fixture.away_team, 1)


def page(client, fixture) -> str:
    response = client.get(reverse("fixture-detail", args=[fixture.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_visitor_sees_who_can_play_but_no_buttons(client, fixture):
    html = page(client, fixture)
    assert "Who can play" not in html  # that is the team page's
    assert "not said" in html
    assert "Propose a new date" not in html and "I can play" not in html


def test_a_player_proposes_on_the_form_and_the_other_team_accepts_on_the_fixture_page(
    client, fixture, home, away
):
    client.force_login(home)
    assert "Propose a new date" in page(client, fixture)
    response = client.post(
        reverse("reschedule-propose", args=[fixture.pk]),
        {"starts_at": LOCAL_NEXT_WEEK.strftime("%Y-%m-%dT%H:%M"), "message": "Darts final"},
    )
    assert response.status_code == 302
    html = page(client, fixture)
    assert "Waiting for the other team" in html and "Accept the new date" not in html

    client.force_login(away)
    html = page(client, fixture)
    assert "Darts final" in html and "Accept the new date" in html
    proposal = RescheduleProposal.objects.get()
    response = client.post(reverse("reschedule-answer", args=[proposal.pk, "accept"]))
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert fixture.starts_at == LOCAL_NEXT_WEEK
    assert "the fixture has moved" in page(client, fixture)


def test_the_form_shows_a_past_date_next_to_the_field(client, fixture, home):
    client.force_login(home)
    response = client.post(
        reverse("reschedule-propose", args=[fixture.pk]), {"starts_at": "2020-01-01T19:30"}
    )
    assert response.status_code == 400
    assert 'id="starts_at-error"' in response.content.decode()
    assert "still to come" in response.content.decode()
    assert not RescheduleProposal.objects.exists()


def test_a_stranger_gets_the_refusal_and_no_proposal(client, fixture):
    client.force_login(UserFactory())
    response = client.post(
        reverse("reschedule-propose", args=[fixture.pk]),
        {"starts_at": LOCAL_NEXT_WEEK.strftime("%Y-%m-%dT%H:%M")},
    )
    assert response.status_code == 403
    assert "Only the players" in response.content.decode()
    assert not RescheduleProposal.objects.exists()


def test_the_proposing_team_cannot_accept_through_the_page(client, fixture, home):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=LOCAL_NEXT_WEEK, by=home)
    client.force_login(team_player_user(fixture.home_team, 2))
    response = client.post(reverse("reschedule-answer", args=[proposal.pk, "accept"]), follow=True)
    assert "the other team answers it" in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == "proposed"


def test_an_anonymous_answer_goes_to_the_login(client, fixture, home):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=LOCAL_NEXT_WEEK, by=home)
    response = client.post(reverse("reschedule-answer", args=[proposal.pk, "accept"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_availability_toggles_without_javascript_and_with_htmx(client, fixture, home):
    client.force_login(home)
    url = reverse("availability-mark", args=[fixture.pk])
    response = client.post(url, {"available": "no"})
    assert response.status_code == 302
    assert "You said you cannot play." in page(client, fixture)

    response = client.post(url, {"available": "yes"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "You said you can play." in response.content.decode()
    assert Availability.objects.get().available is True

    # From the fixture's page the whole panel comes back, its list marked too.
    response = client.post(url, {"available": "no", "panel": "fixture"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith("<section") and 'class="badge mark-no"' in html


def test_a_stranger_cannot_toggle(client, fixture):
    client.force_login(UserFactory())
    url = reverse("availability-mark", args=[fixture.pk])
    response = client.post(url, {"available": "yes"}, HTTP_HX_REQUEST="true")
    assert "Only the players and reserves" in response.content.decode()
    assert not Availability.objects.exists()


def test_the_team_page_shows_who_can_play_and_a_reserve_who_could_stand_in(client, fixture, home):
    reserve = PlayerFactory(name="Rita Reserve", user=UserFactory())
    Reserve.objects.create(
        entry=Entry.objects.create(season=fixture.season, team=fixture.home_team), player=reserve
    )
    client.force_login(home)
    client.post(reverse("availability-mark", args=[fixture.pk]), {"available": "no"})
    client.force_login(reserve.user)
    team_page = reverse("team-detail", args=[fixture.home_team.slug])
    response = client.post(
        reverse("availability-mark", args=[fixture.pk]), {"available": "yes", "next": team_page}
    )
    assert response["Location"] == team_page

    html = client.get(team_page).content.decode()
    assert "Who can play" in html
    assert "Could stand in: <strong>Rita Reserve</strong>" in html
    assert "You said you can play." in html  # the reserve's own toggle


def test_a_postponed_fixture_shows_its_play_by_day_on_the_fixture_and_season_pages(client, fixture):
    admin = UserFactory(is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="Flood", by=admin)
    fixture.refresh_from_db()
    day = fixture.play_by.strftime("%A %-d %B %Y")
    assert f"To be played by {day}." in page(client, fixture)
    season = fixture.season
    html = client.get(reverse("season-detail", args=[season.league.slug, season.slug])).content
    assert f"to be played by {fixture.play_by.strftime('%a %-d %b %Y')}" in html.decode()


def test_the_teams_calendar_follows_an_accepted_date(client, fixture, home, away):
    feed = reverse("calendar-team", args=[fixture.home_team.slug])

    def starts():
        calendar = Calendar.from_ical(client.get(feed).content)
        return calendar.walk("VEVENT")[0].decoded("DTSTART")

    assert starts() == fixture.starts_at.replace(microsecond=0)
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=LOCAL_NEXT_WEEK, by=home)
    client.force_login(away)
    client.post(reverse("reschedule-answer", args=[proposal.pk, "accept"]))
    assert starts() == LOCAL_NEXT_WEEK
    assert Fixture.objects.get().starts_at == LOCAL_NEXT_WEEK


def test_an_admin_lists_the_overdue_fixtures(client):
    admin = UserFactory(is_superuser=True, is_staff=True)
    overdue = FixtureFactory(starts_at=timezone.now() - datetime.timedelta(days=60))
    in_time = FixtureFactory(starts_at=timezone.now() - datetime.timedelta(days=2))
    for postponed in (overdue, in_time):
        fixture_status_change(fixture_id=postponed.pk, status="postponed", reason="Ice", by=admin)
    client.force_login(admin)
    response = client.get(reverse("admin:leagues_fixture_changelist") + "?overdue=yes")
    assert response.status_code == 200
    shown = [fixture.pk for fixture in response.context["cl"].result_list]
    assert shown == [overdue.pk]


def test_an_unknown_answer_or_proposal_is_404(client, fixture, home, away):
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=LOCAL_NEXT_WEEK, by=home)
    client.force_login(away)
    assert client.post(reverse("reschedule-answer", args=[proposal.pk, "agree"])).status_code == 404
    assert client.post(reverse("reschedule-answer", args=[0, "accept"])).status_code == 404
    assert client.get(reverse("reschedule-answer", args=[proposal.pk, "accept"])).status_code == 405
    proposal.refresh_from_db()
    assert proposal.status == "proposed"
