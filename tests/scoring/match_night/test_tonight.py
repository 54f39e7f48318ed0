"""A fixture tonight: emailed once on its day to the players of both teams and the staff of its
venue (never to someone who turned emails off, never with a result), and listed on the "What
needs you" page of those players and of that staff."""

import datetime

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from leagues.profile_services import profile_email_notices_set
from leagues.services import fixture_status_change
from scoring.match_night.selectors import needs_you
from scoring.match_night.services import notices_send
from scoring.models import NoticeSent
from tests.factories import FixtureFactory, StaffMembershipFactory, UserFactory, team_player_user
from tests.scoring.match_night.conftest import version

pytestmark = pytest.mark.django_db


def today_at(hour: int, minute: int = 0, days: int = 0) -> datetime.datetime:
    day = timezone.localdate() + datetime.timedelta(days=days)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour, minute)))


NOON = today_at(12)


@pytest.fixture
def tonight():
    return FixtureFactory(starts_at=today_at(19, 30))


@pytest.fixture
def people(tonight):
    """Everyone with an address who has to do with tonight's fixture, and some who do not."""
    return {
        "home": team_player_user(tonight.home_team, 1, email="home1@example.com"),
        "home2": team_player_user(tonight.home_team, 2, email="home2@example.com"),
        "away": team_player_user(tonight.away_team, 1, email="away1@example.com"),
        "staff": StaffMembershipFactory(venue=tonight.venue, user__email="staff@example.com").user,
        "elsewhere": StaffMembershipFactory(user__email="elsewhere@example.com").user,
        "admin": UserFactory(is_superuser=True, email="admin@example.com"),
    }


def tonight_mail() -> dict[str, list[str]]:
    boxes: dict[str, list[str]] = {}
    for message in mail.outbox:
        if "is tonight" in str(message.subject):
            boxes.setdefault(message.to[0], []).append(str(message.body))
    return boxes


def test_both_teams_players_and_the_venues_staff_are_told_once(tonight, people):
    assert notices_send(now=NOON) == 4
    assert notices_send(now=NOON + datetime.timedelta(hours=1)) == 0  # the sweep again: nothing
    assert sorted(tonight_mail()) == [
        "away1@example.com",
        "home1@example.com",
        "home2@example.com",
        "staff@example.com",
    ]
    subject = mail.outbox[0].subject
    assert subject == f"Roundel: {tonight.home_team.name} v {tonight.away_team.name} is tonight"
    body = tonight_mail()["staff@example.com"][0]
    assert "19:30" in body and tonight.venue.name in body and f"/fixtures/{tonight.pk}/" in body
    assert (
        NoticeSent.objects.filter(event__startswith=f"fixture-tonight:{tonight.pk}:").count() == 4
    )


def test_someone_who_turned_emails_off_is_not_told(tonight, people):
    profile_email_notices_set(user=people["home2"], email_notices=False)
    profile_email_notices_set(user=people["staff"], email_notices=False)
    notices_send(now=NOON)
    assert sorted(tonight_mail()) == ["away1@example.com", "home1@example.com"]


def test_not_before_the_morning_of_the_day_nor_once_the_fixture_has_begun(tonight, people):
    assert notices_send(now=today_at(7, 59)) == 0  # the small hours: it waits for 08:00
    assert notices_send(now=today_at(19, 31)) == 0  # begun: too late to be news
    assert notices_send(now=today_at(12, days=-1)) == 0  # the day before
    early = FixtureFactory(starts_at=today_at(7, 30))
    team_player_user(early.home_team, 1, email="early@example.com")
    assert notices_send(now=today_at(6)) == 1  # a fixture before 08:00 is told at once
    assert list(tonight_mail()) == ["early@example.com"]


def test_a_fixture_with_a_result_or_not_on_tonight_is_not_told(tonight, people):
    """No result, not even one awaiting confirmation, ever rides on the notice."""
    version(tonight, by=people["home"])
    postponed = FixtureFactory(starts_at=today_at(20))
    team_player_user(postponed.home_team, 1, email="postponed@example.com")
    fixture_status_change(
        fixture_id=postponed.pk, status="postponed", reason="Flooded", by=people["admin"]
    )
    notices_send(now=NOON)
    assert tonight_mail() == {}


def test_moved_to_another_day_it_is_news_again_on_that_day(tonight, people):
    notices_send(now=NOON)
    fixture_status_change(
        fixture_id=tonight.pk, status="scheduled", starts_at=today_at(19, 30, days=7),
        by=people["admin"],
    )  # fmt: skip
    mail.outbox.clear()
    assert notices_send(now=today_at(12, days=7)) == 4
    assert len(tonight_mail()["home1@example.com"]) == 1


def test_staff_see_tonights_fixtures_at_their_venue_on_their_page(client, tonight, people):
    later = FixtureFactory(starts_at=today_at(23), venue=tonight.venue)
    FixtureFactory(starts_at=today_at(20))  # at another venue
    FixtureFactory(starts_at=today_at(20, days=1), venue=tonight.venue)  # tomorrow
    assert needs_you(user=people["staff"], now=NOON).tonight == [tonight, later]
    assert needs_you(user=people["elsewhere"], now=NOON).tonight == []
    client.force_login(people["staff"])
    page = client.get(reverse("needs-you")).content.decode()
    section = page.split('id="tonight-heading"', 1)[1].split("</section>", 1)[0]
    assert f"/fixtures/{tonight.pk}/" in section and f"/fixtures/{later.pk}/" in section
    assert "Nothing waits for you now." not in page
