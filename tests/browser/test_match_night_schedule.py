"""Match night on two captains' phones (390 × 844): captain A proposes a new date on the
fixture's page, captain B finds it on their "what needs you" page and accepts it, then says
on the fixture's page that they cannot play (htmx: the toggle changes in place)."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from leagues.models import Availability, Fixture, RescheduleProposal
from leagues.schedule_services import availability_set, reschedule_propose
from tests.browser.axe import axe_violations, describe
from tests.browser.conftest import PHONE
from tests.browser.play import check_no_sideways_scroll, keep_screenshot
from tests.factories import FixtureFactory, team_player_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_captain_a_proposes_captain_b_accepts_on_their_phone_and_marks_availability(
    phones, live_server
):
    fixture = FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=2))
    captain_a = team_player_user(fixture.home_team, 1, username="captain-a")
    captain_b = team_player_user(fixture.away_team, 1, username="captain-b")
    new_date = (timezone.localtime() + datetime.timedelta(days=9)).replace(
        hour=20, minute=0, second=0, microsecond=0
    )
    fixture_page = live_server.url + reverse("fixture-detail", args=[fixture.pk])

    a = phones(captain_a)
    a.goto(fixture_page)
    a.get_by_role("button", name="Propose a new date").click()
    a.get_by_label("New date and time").fill(new_date.strftime("%Y-%m-%dT%H:%M"))
    a.get_by_label("Message to the other team").fill("Our quiz night clashes: a week later?")

    check_no_sideways_scroll(a)
    a.get_by_role("button", name="Propose this date").click()
    a.wait_for_url(fixture_page)
    assert "Waiting for the other team's answer." in a.content()
    check_no_sideways_scroll(a)

    b = phones(captain_b)
    b.goto(live_server.url + reverse("home"))
    b.get_by_role("link", name="Needs you").click()
    assert b.get_by_role("heading", name="New dates to answer").is_visible()
    assert "Our quiz night clashes" in b.content()
    assert b.get_by_role("heading", name="Can you play?").is_visible()
    check_no_sideways_scroll(b)
    keep_screenshot(b, "needs-you-390")
    b.get_by_role("button", name="Accept", exact=True).click()
    b.wait_for_url("**" + reverse("needs-you"))
    assert "Accepted: the fixture has moved." in b.content()
    assert "Our quiz night clashes" not in b.content()

    fixture.refresh_from_db()
    assert fixture.starts_at == new_date
    assert RescheduleProposal.objects.get().status == "accepted"

    b.goto(fixture_page)
    assert new_date.strftime("%A %-d %B %Y, %H:%M") in b.content()
    toggle = b.locator(f"#availability-{fixture.pk}")
    toggle.get_by_role("button", name="I can't play").click()
    expect(b.locator(f"#availability-{fixture.pk} [role=status]")).to_have_text(
        "You said you cannot play."
    )
    # The panel came back whole: the away team's list marks captain B too.
    expect(b.locator("#schedule .mark-no")).to_have_text("cannot play")
    check_no_sideways_scroll(b)
    keep_screenshot(b, "fixture-schedule-390")
    assert Availability.objects.get(player=captain_b.player).available is False
    assert Fixture.objects.get().status == "scheduled"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_match_night_pages_have_no_axe_violation(chromium, live_server, scheme):
    fixture = FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=2))
    captain_a = team_player_user(fixture.home_team, 1)
    captain_b = team_player_user(fixture.away_team, 1)
    reschedule_propose(
        fixture_id=fixture.pk,
        starts_at=timezone.now() + datetime.timedelta(days=9),
        message="A week later?",
        by=captain_a,
    )
    availability_set(fixture_id=fixture.pk, available=False, by=captain_a)
    availability_set(fixture_id=fixture.pk, available=True, by=captain_b)
    context = chromium.new_context(viewport=PHONE, is_mobile=True, color_scheme=scheme)
    client = Client()
    client.force_login(captain_b)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    found = {}
    try:
        page = context.new_page()
        for name, url in {
            "needs you": reverse("needs-you"),
            "fixture with a proposal": reverse("fixture-detail", args=[fixture.pk]),
            "team with availability": reverse("team-detail", args=[fixture.away_team.slug]),
            "propose form": reverse("reschedule-propose", args=[fixture.pk]),
        }.items():
            page.goto(live_server.url + url)
            found[name] = axe_violations(page)
    finally:
        context.close()
    assert not any(found.values()), {name: describe(v) for name, v in found.items() if v}
