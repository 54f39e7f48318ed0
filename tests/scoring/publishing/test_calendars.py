"""Calendar feeds: parsed back with icalendar, as a calendar app would read them."""

import datetime
import zoneinfo

import pytest
from icalendar import Calendar

from leagues.models import Fixture
from leagues.services import fixture_status_change
from tests.factories import FixtureFactory, SeasonFactory, TeamFactory, UserFactory, VenueFactory

pytestmark = pytest.mark.django_db
LONDON = zoneinfo.ZoneInfo("Europe/London")


@pytest.fixture
def admin():
    return UserFactory(is_superuser=True, is_staff=True)


@pytest.fixture
def season():
    return SeasonFactory(league__name="Crown League", league__slug="crown-league", slug="autumn")


@pytest.fixture
def venue():
    return VenueFactory(name="The Crown", slug="the-crown", address="1 High Street, Bristol")


@pytest.fixture
def fixtures(season, venue):
    home = TeamFactory(name="Crown Heads", home_venue=venue)
    away = TeamFactory(name="Anchor Rats")
    # 19:30 in London on 20 October (summer time) and on 3 November (winter time).
    return [
        FixtureFactory(
            season=season,
            round=number,
            home_team=home if number == 1 else away,
            away_team=away if number == 1 else home,
            venue=venue,
            starts_at=datetime.datetime(2026, month, day, 19, 30, tzinfo=LONDON),
        )
        for number, (month, day) in enumerate([(10, 20), (11, 3)], 1)
    ]


def _events(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    return calendar, {str(event["uid"]): event for event in calendar.walk("VEVENT")}


def test_a_team_feed_has_each_fixture_with_a_stable_uid_and_the_venue(client, fixtures):
    calendar, events = _events(client, "/calendars/teams/" + fixtures[0].home_team.slug + ".ics")
    assert sorted(events) == sorted(f"fixture-{f.pk}@roundel" for f in fixtures)
    event = events[f"fixture-{fixtures[0].pk}@roundel"]
    assert str(event["summary"]) == "Crown Heads v Anchor Rats · Crown League"
    assert str(event["location"]) == "The Crown, 1 High Street, Bristol"
    assert str(event["status"]) == "CONFIRMED"
    assert str(event["url"]).endswith(f"/fixtures/{fixtures[0].pk}/")
    again = _events(client, "/calendars/teams/" + fixtures[0].home_team.slug + ".ics")[1]
    assert sorted(again) == sorted(events)


def test_start_times_carry_the_time_zone_through_the_clock_change(client, fixtures):
    calendar, events = _events(client, "/calendars/venues/the-crown.ics")
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == ["Europe/London"]
    for fixture in fixtures:
        start = events[f"fixture-{fixture.pk}@roundel"].decoded("dtstart")
        assert start.tzinfo is not None and str(start.tzinfo) == "Europe/London"
        assert (start.hour, start.minute) == (19, 30)
        assert start == fixture.starts_at
    raw = client.get("/calendars/venues/the-crown.ics").content.decode()
    assert "DTSTART;TZID=Europe/London:20261020T193000" in raw
    assert "DTSTART;TZID=Europe/London:20261103T193000" in raw


def test_a_postponed_fixture_then_its_new_date_under_the_same_uid(client, fixtures, admin):
    fixture = fixtures[0]
    uid = f"fixture-{fixture.pk}@roundel"
    url = "/calendars/seasons/crown-league/autumn.ics"
    first = _events(client, url)[1][uid]

    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="Pub flooded", by=admin)
    postponed = _events(client, url)[1][uid]
    assert str(postponed["status"]) == "TENTATIVE"
    assert str(postponed["summary"]).startswith("Postponed: Crown Heads v Anchor Rats")
    assert "Pub flooded" in str(postponed["description"])
    assert postponed["sequence"] > first["sequence"]

    new_date = datetime.datetime(2026, 12, 1, 20, 0, tzinfo=LONDON)
    fixture_status_change(fixture_id=fixture.pk, status="scheduled", starts_at=new_date, by=admin)
    rearranged = _events(client, url)[1][uid]
    assert rearranged.decoded("dtstart") == new_date
    assert rearranged.decoded("dtend") == new_date + datetime.timedelta(hours=3)
    assert str(rearranged["status"]) == "CONFIRMED"
    assert rearranged["sequence"] > postponed["sequence"]
    assert len(_events(client, url)[1]) == 2


def test_a_void_fixture_is_cancelled(client, fixtures, admin):
    fixture_status_change(
        fixture_id=fixtures[1].pk, status="void", reason="Team withdrew", by=admin
    )
    event = _events(client, "/calendars/venues/the-crown.ics")[1][
        f"fixture-{fixtures[1].pk}@roundel"
    ]
    assert str(event["status"]) == "CANCELLED"
    assert Fixture.objects.get(pk=fixtures[1].pk).status == Fixture.Status.VOID


def test_unknown_feeds_are_404(client):
    assert client.get("/calendars/teams/nobody.ics").status_code == 404
    assert client.get("/calendars/seasons/none/none.ics").status_code == 404
