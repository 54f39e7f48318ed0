"""The "what needs you" page: what it lists for a player, the answer buttons that bring them
back to it, and the switch for emails."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Profile, RescheduleProposal
from leagues.schedule_services import reschedule_propose
from tests.factories import FixtureFactory
from tests.scoring.match_night.conftest import version

pytestmark = pytest.mark.django_db


def test_a_visitor_is_sent_to_log_in(client):
    response = client.get(reverse("needs-you"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_page_lists_a_result_to_confirm_and_a_date_to_answer_from_the_other_team(
    client, fixture, home, away
):
    version(fixture, by=home)
    upcoming = FixtureFactory(
        home_team=fixture.home_team,
        away_team=fixture.away_team,
        stage="cup",
        starts_at=timezone.now() + datetime.timedelta(days=2),
    )
    reschedule_propose(
        fixture_id=upcoming.pk,
        starts_at=timezone.now() + datetime.timedelta(days=9),
        message="Cup semi at ours?",
        by=home,
    )
    client.force_login(away)
    html = client.get(reverse("needs-you")).content.decode()
    assert "Results to confirm" in html
    assert reverse("fixture-detail", args=[fixture.pk]) in html
    assert "Cup semi at ours?" in html
    assert "Can you play?" in html  # the upcoming fixture, not marked yet
    # No score on this page: the 17–4 of the result is nowhere in the text a reader sees (not
    # a bare "17", which a fixture's id in a link or a team's name may hold).
    visible = re.sub(r"<[^>]*>", " ", html.split("<main")[1])
    assert not re.search(r"\b17\s*(?:–|-|:|to)\s*4\b", visible)

    proposal = RescheduleProposal.objects.get()
    response = client.post(
        reverse("reschedule-answer", args=[proposal.pk, "decline"]),
        {"next": reverse("needs-you")},
    )
    assert response["Location"] == reverse("needs-you")
    assert "Cup semi at ours?" not in client.get(reverse("needs-you")).content.decode()


def test_the_enterer_sees_nothing_to_confirm(client, fixture, home):
    version(fixture, by=home)
    client.force_login(home)
    assert "Results to confirm" not in client.get(reverse("needs-you")).content.decode()


def test_a_person_turns_emails_off_and_on_again(client, home):
    client.force_login(home)
    client.post(reverse("needs-you-notices"), {"email_notices": "off"})
    assert Profile.objects.get(user=home).email_notices is False
    assert "Turn emails on" in client.get(reverse("needs-you")).content.decode()
    client.post(reverse("needs-you-notices"), {"email_notices": "on"})
    assert Profile.objects.get(user=home).email_notices is True


def test_the_header_links_to_the_page_when_logged_in(client, home):
    assert reverse("needs-you") not in client.get(reverse("home")).content.decode()
    client.force_login(home)
    assert reverse("needs-you") in client.get(reverse("home")).content.decode()


def test_a_visitor_cannot_turn_anyones_emails_off(client, home):
    response = client.post(reverse("needs-you-notices"), {"email_notices": "off"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Profile.objects.exists()
