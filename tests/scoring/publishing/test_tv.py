"""The pub's TV screen through the test client: the token, tonight's fixtures, the tables."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Game, TeamMember
from leagues.services import fixture_status_change
from scoring.models import VenueScreen
from scoring.publishing.services import venue_screen_issue
from scoring.publishing.tv import pub_evening
from scoring.results.services import result_submit
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def pub():
    venue = VenueFactory(name="The Black Cow", slug="black-cow")
    season = SeasonFactory(league=LeagueFactory(name="Cow League", game=Game.KOROVA))
    teams = [TeamFactory(name=name, home_venue=venue) for name in ("Red Lions", "Night Owls")]
    teams += [TeamFactory(name=name) for name in ("Blue Boars", "Grey Geese")]
    for team in teams:
        EntryFactory(season=season, team=team)
    now = timezone.now()
    tonight = [
        FixtureFactory(
            season=season, home_team=teams[0], away_team=teams[2], venue=venue, starts_at=now
        ),
        FixtureFactory(
            season=season, home_team=teams[1], away_team=teams[3], venue=venue, starts_at=now
        ),
    ]
    FixtureFactory(
        season=season,
        home_team=teams[2],
        away_team=teams[0],
        venue=venue,
        starts_at=now + datetime.timedelta(days=3),
    )
    screen = venue_screen_issue(venue_id=venue.pk)
    return venue, screen, tonight


def _url(venue, token, board=False):
    return f"/tv/{venue.slug}/{token}/" + ("board/" if board else "")


def test_a_wrong_token_or_venue_is_404(client, pub):
    venue, screen, _ = pub
    assert client.get(_url(venue, "not-the-token")).status_code == 404
    assert client.get(_url(venue, "not-the-token", board=True)).status_code == 404
    assert client.get(_url(venue, screen.token[:-1])).status_code == 404
    other = VenueFactory()
    assert client.get(_url(other, screen.token)).status_code == 404


def test_a_new_token_retires_the_old_address(client, pub):
    venue, screen, _ = pub
    old = screen.token
    new = venue_screen_issue(venue_id=venue.pk).token
    assert new != old
    assert client.get(_url(venue, old)).status_code == 404
    assert client.get(_url(venue, new)).status_code == 200


def test_the_screen_shows_tonights_fixtures_results_and_the_table(client, pub):
    venue, screen, tonight = pub
    admin = UserFactory(is_superuser=True)
    fixture = tonight[0]
    players = [
        m.player_id
        for team in (fixture.home_team, fixture.away_team)
        for m in TeamMember.objects.filter(team=team).order_by("position")
    ]
    sheet = {"players": players, "rounds": [[20, 5, 10, 5]] * 4}
    result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=0, by=admin)
    fixture_status_change(fixture_id=tonight[1].pk, status="postponed", reason="Snow", by=admin)

    page = client.get(_url(venue, screen.token)).content.decode()
    assert "The Black Cow" in page
    assert "100–60" in page  # Red Lions took 100 heads, Blue Boars 60
    assert "Postponed" in page
    assert "Cow League" in page and "Grey Geese" in page  # the table, every team
    assert 'hx-trigger="every 15s"' in page
    board = client.get(_url(venue, screen.token, board=True)).content.decode()
    assert 'id="board"' in board
    assert "<html" not in board


def test_the_evening_runs_from_six_to_six():
    late = timezone.make_aware(datetime.datetime(2026, 12, 5, 1, 30))
    starts, ends = pub_evening(late)
    assert timezone.localtime(starts).date() == datetime.date(2026, 12, 4)
    assert (timezone.localtime(starts).hour, ends - starts) == (6, datetime.timedelta(days=1))


def test_a_league_admin_issues_a_screen_in_the_admin_and_sees_its_address(client):
    venue = VenueFactory(name="The Swan", slug="the-swan")
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    response = client.post("/admin/scoring/venuescreen/add/", {"venue": venue.pk})
    assert response.status_code == 302
    screen = VenueScreen.objects.get(venue=venue)
    assert len(screen.token) >= 32
    page = client.get(f"/admin/scoring/venuescreen/{screen.pk}/change/").content.decode()
    assert f"/tv/the-swan/{screen.token}/" in page
    client.post(
        "/admin/scoring/venuescreen/",
        {"action": "issue_new_address", "_selected_action": [screen.pk]},
    )
    assert VenueScreen.objects.get(venue=venue).token != screen.token
