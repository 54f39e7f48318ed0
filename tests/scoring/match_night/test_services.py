"""Notices by email (scoring.match_night.services.notices_send): who gets which, once per
event per person, never to someone who turned them off, and never with a score or a card."""

import datetime
import re

import pytest
from django.core import mail
from django.utils import timezone, translation

from leagues.profile_services import profile_email_notices_set
from leagues.schedule_services import reschedule_accept, reschedule_decline, reschedule_propose
from scoring.match_night.services import notices_send
from scoring.models import NoticeSent
from tests.factories import StaffMembershipFactory, UserFactory, team_player_user
from tests.scoring.match_night.conftest import version

pytestmark = pytest.mark.django_db


def inboxes() -> dict[str, list[str]]:
    boxes: dict[str, list[str]] = {}
    for message in mail.outbox:
        for address in message.to:
            boxes.setdefault(address, []).append(str(message.subject))
    return boxes


def test_a_result_awaiting_confirmation_is_emailed_to_the_other_team_once(fixture, home, away):
    team_player_user(fixture.away_team, 2, email="away2@example.com")
    version(fixture, by=home)

    assert notices_send() == 2
    assert notices_send() == 0  # sent already: nothing more

    assert set(inboxes()) == {"away@example.com", "away2@example.com"}
    message = mail.outbox[0]
    assert "confirm the result" in message.subject
    # The notice names the fixture and links to its page; it carries no score and no sheet.
    assert f"/fixtures/{fixture.pk}/" in message.body
    # No 17–4 (a bare "17" may be the fixture's id in the link or in a team's name).
    assert not re.search(r"\b17\s*(?:–|-|:|to)\s*4\b", f"{message.subject}\n{message.body}")
    assert NoticeSent.objects.count() == 2


def test_a_dispute_is_emailed_to_the_venues_staff_and_the_admins(fixture, home):
    staff = StaffMembershipFactory(venue=fixture.venue, user__email="staff@example.com").user
    StaffMembershipFactory(user__email="elsewhere@example.com")
    UserFactory(is_superuser=True, email="admin@example.com")
    version(fixture, by=home, confirmation="disputed")
    notices_send()
    assert set(inboxes()) == {staff.email, "admin@example.com"}
    assert all("disputed" in subjects[0] for subjects in inboxes().values())


def test_a_dispute_email_names_the_fixture_and_its_venue_but_not_the_reason_or_score(fixture, home):
    staff = StaffMembershipFactory(venue=fixture.venue, user__email="staff@example.com").user
    version(fixture, by=home, confirmation="disputed", note="Round 3 was 30, not 10")
    notices_send()

    (message,) = mail.outbox
    assert message.to == [staff.email]
    said = f"{message.subject}\n{message.body}"
    names = f"{fixture.home_team.name} v {fixture.away_team.name}"
    assert names in message.subject and "needs deciding" in message.subject
    assert f"{names} at {fixture.venue.name} is disputed" in message.body
    assert f"/fixtures/{fixture.pk}/" in message.body and "/needs-you/" in message.body
    # The reason and the score are for the pages, which check who may see them.
    assert "Round 3" not in said and "was 30" not in said
    assert not re.search(r"\b17\s*(?:–|-|:|to)\s*4\b", said)


def test_a_dispute_is_not_emailed_to_a_superuser_whose_account_is_closed(fixture, home):
    UserFactory(is_superuser=True, is_active=False, email="gone@example.com")
    UserFactory(is_superuser=True, email="admin@example.com")
    version(fixture, by=home, confirmation="disputed")
    notices_send()
    assert "gone@example.com" not in inboxes() and "admin@example.com" in inboxes()


def test_a_proposal_and_its_answer_go_to_the_other_team_then_back_to_the_proposer(
    fixture, home, away
):
    fixture.starts_at = timezone.now() + datetime.timedelta(days=1)
    fixture.save()
    in_a_week = timezone.now() + datetime.timedelta(days=7)
    proposal = reschedule_propose(fixture_id=fixture.pk, starts_at=in_a_week, by=home)
    notices_send()
    assert list(inboxes()) == ["away@example.com"]

    reschedule_accept(proposal_id=proposal.pk, by=away)
    notices_send()
    assert inboxes()["home@example.com"] == [
        f"Roundel: {fixture.home_team.name} v {fixture.away_team.name} moves to your date"
    ]
    second = reschedule_propose(
        fixture_id=fixture.pk, starts_at=in_a_week + datetime.timedelta(days=1), by=away
    )
    reschedule_decline(proposal_id=second.pk, by=home)
    notices_send()
    assert "was declined" in inboxes()["away@example.com"][-1]
    assert notices_send() == 0


def test_no_email_to_someone_who_turned_them_off_or_has_no_address(fixture, home, away):
    profile_email_notices_set(user=away, email_notices=False)
    team_player_user(fixture.away_team, 2)  # no address
    version(fixture, by=home)
    assert notices_send() == 0
    assert mail.outbox == []


def test_each_notice_is_written_in_its_recipients_language(fixture, home, away):
    """A Russian-speaking captain gets a Russian email and a Finnish one a Finnish email,
    whatever language the sender runs in."""
    from leagues.models import Profile

    Profile.objects.update_or_create(user=away, defaults={"language": "ru"})
    finn = team_player_user(fixture.away_team, 2, email="finn@example.com")
    Profile.objects.update_or_create(user=finn, defaults={"language": "fi"})
    version(fixture, by=home)

    with translation.override("fi"):  # the sender's own language plays no part
        assert notices_send() == 2

    by_address = {message.to[0]: message for message in mail.outbox}
    russian = by_address["away@example.com"]
    assert "подтвердите результат" in russian.subject
    assert "Другая команда" in russian.body and "Всё, что ждёт вас" in russian.body
    finnish = by_address["finn@example.com"]
    assert "vahvista" in finnish.subject
    assert "Kaikki, mikä odottaa sinua" in finnish.body


def test_a_notice_to_someone_who_never_chose_a_language_is_in_the_sites(fixture, home, away):
    version(fixture, by=home)
    with translation.override("ru"):
        notices_send()
    assert "confirm the result" in mail.outbox[0].subject
    assert "Everything that waits for you" in mail.outbox[0].body


def test_a_proposed_date_is_written_in_words_of_the_recipients_language(fixture, home, away):
    from leagues.models import Profile

    Profile.objects.update_or_create(user=away, defaults={"language": "ru"})
    fixture.starts_at = timezone.now() + datetime.timedelta(days=1)
    fixture.save()
    when = timezone.now() + datetime.timedelta(days=7)
    reschedule_propose(fixture_id=fixture.pk, starts_at=when, by=home)
    notices_send()
    body = mail.outbox[0].body
    months = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
              "сентября", "октября", "ноября", "декабря"]  # fmt: skip
    assert months[timezone.localtime(when).month - 1] in body
    assert "предлагает" in body
