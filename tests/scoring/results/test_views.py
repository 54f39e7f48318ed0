"""Staff pages: who may open the result-entry sheets, conflicts, fixtures that take no result, the
history and the staff home. Each game's sheet has its own test_views_<game>.py."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture, TeamMember
from scoring.models import ResultVersion
from scoring.publishing.services import venue_screen_issue
from scoring.results.confirmation import result_decide, result_dispute, results_confirm_overdue
from scoring.results.services import result_submit
from tests.factories import PlayerFactory, StaffMembershipFactory, UserFactory, VenueFactory
from tests.scoring.results.match_night import match_night
from tests.scoring.results.staff_sheets import (
    FULL_GAME,
    entry_url,
    history_url,
    korova_post,
    make_fixture,
    player_ids,
    staff_of,
)

pytestmark = pytest.mark.django_db


# --- permissions -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["result-entry", "result-history"])
def test_an_anonymous_visitor_is_sent_to_log_in(client, korova, name):
    url = reverse(name, args=[korova.pk])

    response = client.get(url)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_an_anonymous_post_is_sent_to_log_in_and_saves_nothing(client, korova):
    response = client.post(entry_url(korova), korova_post(FULL_GAME))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize("who", ["other_venue_staff", "player"])
@pytest.mark.parametrize("name", ["result-entry", "result-history"])
def test_staff_of_another_venue_and_players_are_refused(client, korova, who, name):
    if who == "player":
        user = UserFactory()
        PlayerFactory(user=user)
    else:
        user = StaffMembershipFactory().user
    client.force_login(user)

    assert client.get(reverse(name, args=[korova.pk])).status_code == 403


@pytest.mark.parametrize("who", ["other_venue_staff", "player"])
def test_a_refused_post_saves_nothing(client, korova, who):
    if who == "player":
        user = UserFactory()
        PlayerFactory(user=user)
    else:
        user = StaffMembershipFactory().user
    client.force_login(user)

    response = client.post(entry_url(korova), korova_post(FULL_GAME))

    assert response.status_code == 403
    assert not ResultVersion.objects.exists()
    korova.refresh_from_db()
    assert korova.status == Fixture.Status.SCHEDULED


def test_a_superuser_may_open_any_sheet(client, korova):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))

    assert client.get(entry_url(korova)).status_code == 200
    assert client.get(history_url(korova)).status_code == 200


def test_an_unknown_fixture_is_404(staff_client):
    assert staff_client.get(reverse("result-entry", args=[999999])).status_code == 404


def test_other_methods_are_not_allowed(staff_client, korova):
    assert staff_client.put(entry_url(korova)).status_code == 405


# --- conflicts ---------------------------------------------------------------------------


def test_saving_over_a_newer_version_shows_both_and_keeps_the_input(client, korova):
    first, second = staff_of(korova), staff_of(korova)
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": player_ids(korova), "rounds": FULL_GAME},
        based_on_version=0,
        by=first,
    )
    client.force_login(second)
    mine = [[20, 5, 10, 5]] * 3 + [[20, 5, 5, 10]]

    response = client.post(entry_url(korova), korova_post(mine, based_on=0))

    assert response.status_code == 409
    html = response.content.decode()
    assert "Not saved: the result changed" in html
    assert first.username in html and "version 1" in html
    # Both typed round 4 differently (Cy and Dot): side by side, a choice each.
    clashes = html.split('id="conflict-clashes"')[1].split("</fieldset>")[0]
    assert re.search(
        r"Round 4, Cy</p>.*Keep saved: <strong>10</strong>.*Use yours: <strong>5</strong>",
        clashes,
        re.S,
    )
    # The form holds the saved version until the user chooses, now based on it.
    assert re.search(r'name="rounds\.3\.3"[^>]*value="5"', html)
    assert re.search(r'name="based_on_version" value="1"', html)
    assert ResultVersion.objects.count() == 1

    resubmitted = client.post(entry_url(korova), korova_post(mine, based_on=1))

    assert resubmitted.status_code == 302
    current = ResultVersion.objects.get(is_current=True)
    assert (current.number, current.created_by) == (2, second)
    assert current.sheet["rounds"][3] == [20, 5, 5, 10]


# --- unavailable fixtures ----------------------------------------------------------------


def test_a_void_fixture_takes_no_result(staff_client, korova):
    Fixture.objects.filter(pk=korova.pk).update(status=Fixture.Status.VOID)

    page = staff_client.get(entry_url(korova))
    posted = staff_client.post(entry_url(korova), korova_post(FULL_GAME))

    assert page.status_code == 200 and "void" in page.content.decode()
    assert posted.status_code == 200 and 'name="rounds.0.0"' not in posted.content.decode()
    assert not ResultVersion.objects.exists()


def test_a_team_without_its_two_players_cannot_be_scored(staff_client, korova):
    TeamMember.objects.filter(team=korova.away_team, position=2).delete()

    response = staff_client.get(entry_url(korova))

    assert response.status_code == 200
    assert "each team needs its two players" in response.content.decode()


# --- history -----------------------------------------------------------------------------


def test_the_history_shows_every_version_with_who_when_source_and_changes(client, korova):
    first, second = staff_of(korova), staff_of(korova)
    players = player_ids(korova)
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": players, "rounds": FULL_GAME},
        based_on_version=0,
        by=first,
    )
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": players, "rounds": FULL_GAME[:3] + [[20, 5, 5, 10]]},
        based_on_version=1,
        by=second,
        note="Cy and Dot were swapped",
    )
    client.force_login(first)

    response = client.get(history_url(korova))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Version 2" in html and "Version 1" in html
    assert first.username in html and second.username in html
    assert "Staff entry" in html
    assert "Cy and Dot were swapped" in html
    assert re.search(r"Round 4, Cy</th><td>10</td><td><strong>5</strong>", html)
    assert re.search(r"Round 4, Dot</th><td>5</td><td><strong>10</strong>", html)
    assert "The first result entered" in html


def history_version(client, fixture, number: int) -> str:
    html = client.get(history_url(fixture)).content.decode()
    return html.split(f'id="version-{number}"', 1)[1].split("</article>", 1)[0]


def test_the_history_shows_an_awaiting_then_a_disputed_version_then_staffs_decision(client):
    night = match_night()
    fixture = night.fixture
    result_submit(fixture_id=fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0])
    result_dispute(fixture_id=fixture.pk, version=1, reason="Round 1 was 30", by=night.away[0])
    result_decide(fixture_id=fixture.pk, version=2, choose=1, by=night.staff)
    client.force_login(night.staff)

    entered, disputed, decided = (history_version(client, fixture, n) for n in (1, 2, 3))

    assert 'confirmation-awaiting">Awaiting confirmation<' in entered
    assert night.home[0].username in entered and "Player of the fixture" in entered
    assert 'confirmation-disputed">Disputed<' in disputed
    assert night.away[0].username in disputed and "Round 1 was 30" in disputed
    assert 'confirmation-confirmed">Confirmed<' in decided and ">counts<" in decided
    assert "Decided by staff: version 1 stands." in decided
    assert ">counts<" not in entered + disputed


def test_the_history_says_the_window_confirmed_a_result_nobody_answered(client):
    night = match_night()
    fixture = night.fixture
    result_submit(fixture_id=fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0])
    results_confirm_overdue(now=timezone.now() + datetime.timedelta(hours=25))
    client.force_login(night.staff)

    entered, confirmed = (history_version(client, fixture, n) for n in (1, 2))

    assert 'confirmation-awaiting">Awaiting confirmation<' in entered
    assert 'confirmation-confirmed">Confirmed<' in confirmed and ">counts<" in confirmed
    assert "Confirmed automatically when the window passed</strong>" in confirmed
    assert "By <strong>" not in confirmed  # nobody confirmed it


def test_the_history_of_a_fixture_without_a_result_says_so(client, korova):
    client.force_login(staff_of(korova))

    response = client.get(history_url(korova))

    assert response.status_code == 200
    assert "No result has been saved" in response.content.decode()


# --- staff home --------------------------------------------------------------------------


def test_staff_home_lists_only_fixtures_at_the_users_venues(client, korova):
    elsewhere = make_fixture()
    user = staff_of(korova)
    client.force_login(user)

    response = client.get(reverse("staff-home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert entry_url(korova) in html
    assert entry_url(elsewhere) not in html
    assert korova.venue.name in html


def test_staff_home_shows_the_result_status(client, korova):
    user = staff_of(korova)
    Fixture.objects.filter(pk=korova.pk).update(starts_at=korova.starts_at.replace(year=2025))
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": player_ids(korova), "rounds": FULL_GAME},
        based_on_version=0,
        by=user,
    )
    client.force_login(user)

    html = client.get(reverse("staff-home")).content.decode()

    recent = html.split('id="section-recent"')[1]
    assert "v1 · 100–60" in recent


def test_staff_home_refuses_users_who_serve_no_venue(client):
    client.force_login(UserFactory())

    assert client.get(reverse("staff-home")).status_code == 403


def test_staff_home_sends_anonymous_visitors_to_log_in(client):
    response = client.get(reverse("staff-home"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_staff_home_shows_the_tv_address_of_each_venue_the_user_serves(client, korova):
    user = staff_of(korova)
    screen = venue_screen_issue(venue_id=korova.venue_id)
    other = venue_screen_issue(venue_id=make_fixture().venue_id)
    unscreened = StaffMembershipFactory(user=user, venue=VenueFactory(name="The Quiet Pub")).venue
    client.force_login(user)

    html = client.get(reverse("staff-home")).content.decode()

    tv = html.split('id="section-tv"')[1]
    address = "http://testserver" + reverse("tv-screen", args=[korova.venue.slug, screen.token])
    assert f'href="{address}"' in tv
    assert other.token not in html  # another venue's screen stays secret
    assert unscreened.name in tv and "No TV address yet" in tv


def test_staff_home_shows_no_tv_addresses_to_a_league_admin_serving_no_venue(client, korova):
    screen = venue_screen_issue(venue_id=korova.venue_id)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))

    html = client.get(reverse("staff-home")).content.decode()

    assert 'id="section-tv"' not in html and screen.token not in html
