"""The cup's public pages (the bracket, the calendar), the fixture page's cup box with the
decider's form, the venue's TV screen, through the test client."""

import datetime
import random

import pytest
from django.utils import timezone, translation
from icalendar import Calendar

from leagues.models import CupTie
from scoring.cups.services import cup_draw
from scoring.publishing.services import venue_screen_issue
from scoring.results.walkovers import result_walkover_award
from tests.factories import StaffMembershipFactory, UserFactory

from .cups import HOME_WINS, LEVEL_EVERY_ROUND, admin_user, first_round_at, make_cup, play

pytestmark = pytest.mark.django_db


def bracket_url(cup):
    season = cup.season
    return f"/leagues/{season.league.slug}/{season.slug}/cups/{cup.slug}/"


@pytest.fixture
def drawn_cup():
    cup = make_cup(3, with_plate=True)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at(), rng=random.Random(5))
    return cup


def test_the_bracket_shows_rounds_byes_and_winners_to_anyone(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    play(tie.fixture, HOME_WINS, by=admin_user())
    page = client.get(bracket_url(drawn_cup)).content.decode()
    assert "Semi-finals" in page and "Final" in page
    assert "bye" in page and "Through without playing" in page
    assert f'{tie.home.name}</a><span class="visually-hidden"> (through)' in page
    assert 'class="bracket"' in page  # the rounds scroll inside their own box
    assert "fewer heads in the last round" in page


def test_the_bracket_marks_a_tie_won_by_walkover(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    page = client.get(bracket_url(drawn_cup)).content.decode()
    assert 'class="walkover"' not in page

    result_walkover_award(fixture_id=tie.fixture_id, team="away", by=admin_user())

    page = client.get(bracket_url(drawn_cup)).content.decode()
    tie_html = page.split(f'href="/fixtures/{tie.fixture_id}/"', 1)[1].split("</li>", 1)[0]
    assert '<abbr class="walkover" title="Walkover: the other team did not turn up">w/o</abbr>' in (
        tie_html
    )
    assert f'{tie.away.name}</a><span class="visually-hidden"> (through)' in page


def test_the_season_pages_link_the_cup(client, drawn_cup):
    season = drawn_cup.season
    page = client.get(f"/leagues/{season.league.slug}/{season.slug}/").content.decode()
    assert bracket_url(drawn_cup) in page


def test_a_cup_before_its_draw_says_so_and_an_unknown_cup_is_404(client):
    cup = make_cup(2)
    assert "has not been made yet" in client.get(bracket_url(cup)).content.decode()
    assert client.get(bracket_url(cup).replace(cup.slug, "nothing")).status_code == 404


def test_the_cup_calendar_holds_its_ties_named_by_cup_and_round(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    season = drawn_cup.season
    response = client.get(f"/calendars/cups/{season.league.slug}/{season.slug}/knockout.ics")
    assert response["Content-Type"].startswith("text/calendar")
    events = Calendar.from_ical(response.content).walk("VEVENT")
    assert [str(event["uid"]).split("@")[0] for event in events] == [f"fixture-{tie.fixture_id}"]
    assert str(events[0]["summary"]).endswith("· Knockout Cup")
    assert "Knockout Cup, Semi-finals." in str(events[0]["description"])


def test_a_tie_page_names_its_cup_and_staff_of_its_venue_record_the_decider(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    play(tie.fixture, LEVEL_EVERY_ROUND, by=admin_user())
    page = client.get(f"/fixtures/{tie.fixture_id}/").content.decode()
    assert "Knockout Cup" in page and "one more round is played" in page
    assert 'name="side"' not in page  # a visitor sees no form

    outsider = StaffMembershipFactory().user
    client.force_login(outsider)
    assert 'name="side"' not in client.get(f"/fixtures/{tie.fixture_id}/").content.decode()
    decider = f"/staff/cups/ties/{tie.pk}/decider/"
    assert client.post(decider, {"side": "home"}).status_code == 403

    client.force_login(StaffMembershipFactory(venue=tie.fixture.venue).user)
    assert 'name="side"' in client.get(f"/fixtures/{tie.fixture_id}/").content.decode()
    response = client.post(decider, {"side": "sideways"}, follow=True)
    assert "Choose the team that won the decider." in response.content.decode()
    tie.refresh_from_db()
    assert tie.winner_id is None
    response = client.post(decider, {"side": "away", "note": "Extra round 8 v 30"}, follow=True)
    assert f"{tie.away.name} go through" in response.content.decode()
    tie.refresh_from_db()
    assert tie.winner_id == tie.away_id


def test_an_anonymous_decider_post_goes_to_the_login(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    response = client.post(f"/staff/cups/ties/{tie.pk}/decider/", {"side": "home"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_venue_tv_shows_this_weeks_cup_round(client):
    cup = make_cup(4)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=timezone.now() + datetime.timedelta(days=2))
    tie = CupTie.objects.filter(round__cup=cup, round__number=1).first()
    screen = venue_screen_issue(venue_id=tie.fixture.venue_id)
    venue = tie.fixture.venue
    page = client.get(f"/tv/{venue.slug}/{screen.token}/board/").content.decode()
    assert "Cup this week" in page and "Knockout Cup · Semi-finals" in page
    assert page.count('<li class="tv-cup-tie') == 2 and page.count("tv-cup-tie here") == 1


def test_a_league_admin_sees_the_same_form_a_user_without_a_venue_none(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    play(tie.fixture, LEVEL_EVERY_ROUND, by=admin_user())
    client.force_login(UserFactory())
    assert 'name="side"' not in client.get(f"/fixtures/{tie.fixture_id}/").content.decode()
    client.force_login(admin_user())
    assert 'name="side"' in client.get(f"/fixtures/{tie.fixture_id}/").content.decode()


def test_the_seasons_rounds_leave_cup_ties_to_the_bracket_and_a_teams_page_lists_them(
    client, drawn_cup
):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    season = drawn_cup.season
    page = client.get(f"/leagues/{season.league.slug}/{season.slug}/fixtures/").content.decode()
    assert f"/fixtures/{tie.fixture_id}/" not in page
    team_page = client.get(f"/teams/{tie.home.slug}/").content.decode()
    assert f"/fixtures/{tie.fixture_id}/" in team_page


def test_the_draws_round_names_read_in_the_readers_language_and_an_admins_own_name_stays(
    client, drawn_cup
):
    """The draw stores its round names in English; a page shows them in its reader's language
    (a draw made while an admin read Russian would otherwise name the rounds in Russian for all)."""
    semi = drawn_cup.rounds.get(number=1)
    assert (semi.name, drawn_cup.rounds.get(number=2).name) == ("Semi-finals", "Final")
    semi.name = "The Big Night"
    semi.save(update_fields=["name"])
    with translation.override("en-gb"):  # the page's Russian stays with the page
        page = client.get(bracket_url(drawn_cup), headers={"accept-language": "ru"})
    page = page.content.decode()
    assert "Финал" in page and ">Final " not in page
    assert "The Big Night" in page
