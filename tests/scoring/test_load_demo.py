import datetime
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from leagues.models import (
    Availability,
    Cup,
    CupTie,
    Fixture,
    Player,
    RescheduleProposal,
    Season,
    StaffMembership,
    Team,
    Venue,
)
from scoring.models import PointsAdjustment, ResultVersion


@pytest.fixture(autouse=True)
def _development(settings):
    """The demo is for development (`make run` sets DEBUG=1); pytest runs with DEBUG off."""
    settings.DEBUG = True


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_demo_league_has_two_venues_eight_teams_a_season_per_game_and_half_played(client):
    output = load_demo()

    assert Venue.objects.count() == 2
    assert Team.objects.count() == 8
    assert sorted(Season.objects.values_list("league__game", flat=True)) == [
        "conquian",
        "convoy",
        "korova",
    ]
    for season in Season.objects.exclude(league__game="conquian"):
        league = season.fixtures.filter(stage=Fixture.Stage.LEAGUE)
        fixtures = league.count()
        assert fixtures == 8 * 7  # double round robin
        # Корова's has two more: the captains' results of match night, awaiting and disputed.
        captains = 2 if season.league.game == "korova" else 0
        assert league.filter(status=Fixture.Status.PLAYED).count() == fixtures // 2 + captains
        assert season.divisions.count() == 1
    assert StaffMembership.objects.values("venue").distinct().count() == 2
    assert "admin / roundel-admin" in output
    assert "crown / crown-staff-pass" in output and "lion / lion-staff-pass" in output
    assert client.login(username="crown", password="crown-staff-pass")


@pytest.mark.django_db
def test_demo_load_is_idempotent():
    load_demo()
    counts = (Team.objects.count(), Fixture.objects.count(), ResultVersion.objects.count())
    load_demo()
    assert (Team.objects.count(), Fixture.objects.count(), ResultVersion.objects.count()) == counts


@pytest.mark.django_db
def test_every_demo_player_gets_a_login_printed_like_the_staff_logins(client):
    output = load_demo()
    printed = re.findall(r"^  ([A-Z][a-z]+ [A-Z][a-z]+): (\S+) / (\S+)$", output, re.MULTILINE)
    # The players of the teams; the demo's reserve (scoring.demo.squads) has no login.
    team_players = Player.objects.filter(memberships__isnull=False)
    assert len(printed) == team_players.count() == 16
    for name, username, _password in printed:
        assert Player.objects.get(name=name).user.username == username
    name, username, password = printed[0]
    assert client.login(username=username, password=password)
    load_demo()
    assert team_players.filter(user__isnull=True).count() == 0


@pytest.mark.django_db
def test_demo_refuses_to_load_with_debug_off_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="published passwords"):
        load_demo()
    assert not Venue.objects.exists()
    call_command("load_demo", "--force", stdout=StringIO())
    assert Venue.objects.count() == 2


@pytest.mark.django_db
def test_demo_prints_each_pubs_tv_screen_and_keeps_it_across_loads(client):
    first = load_demo()
    screens = [line.split()[-1] for line in first.splitlines() if "/tv/" in line]
    assert len(screens) == Venue.objects.count() == 2
    assert all(client.get(url.split("8000", 1)[1]).status_code == 200 for url in screens)
    assert [line.split()[-1] for line in load_demo().splitlines() if "/tv/" in line] == screens


@pytest.mark.django_db
def test_every_venue_has_a_fixture_tonight_without_a_result(client):
    output = load_demo()

    today = timezone.localdate()
    for venue in Venue.objects.all():
        tonight = Fixture.objects.filter(
            venue=venue, status=Fixture.Status.SCHEDULED, result_versions__isnull=True
        ).filter(starts_at__date=today)
        assert tonight.exists(), venue.name
        assert all(timezone.localtime(fixture.starts_at).hour >= 18 for fixture in tonight)
        assert any(reverse("fixture-detail", args=[fixture.pk]) in output for fixture in tonight)
    assert "Fixtures tonight" in output


@pytest.mark.django_db
def test_a_demo_loaded_again_on_a_later_day_still_has_a_fixture_tonight_at_each_venue():
    load_demo()
    # Three days later, as the calendar sees it: every fixture three days further back.
    Fixture.objects.update(starts_at=F("starts_at") - datetime.timedelta(days=3))
    load_demo()

    today = timezone.localdate()
    for venue in Venue.objects.all():
        assert Fixture.objects.filter(
            venue=venue, result_versions__isnull=True, starts_at__date=today
        ).exists(), venue.name


@pytest.mark.django_db
def test_the_conquian_season_is_played_in_two_divisions_with_zones_and_a_deduction(client):
    output = load_demo()
    season = Season.objects.get(league__game="conquian")
    premier, second = season.divisions.order_by("level")
    assert (premier.name, premier.relegated, second.name, second.promoted) == (
        "Premier",
        1,
        "Division One",
        1,
    )
    assert season.fixtures.filter(division=premier).count() == 12  # four teams, twice over
    assert season.fixtures.filter(status=Fixture.Status.PLAYED).count() == 24
    adjustment = PointsAdjustment.objects.get(season=season)
    assert adjustment.points == -2 and "late" in adjustment.reason
    line = next(line for line in output.splitlines() if line.startswith("Divisions"))
    season_url = line.split(": ", 1)[1].split()[0]
    page = client.get(season_url.split("8000", 1)[1]).content.decode()
    assert "zone-promotion" in page and "zone-relegation" in page and adjustment.reason in page


@pytest.mark.django_db
def test_the_demo_cup_is_in_its_second_round_with_a_bye_and_a_plate(client):
    output = load_demo()
    cup = Cup.objects.get(slug="knockout-cup")
    first = CupTie.objects.filter(round__cup=cup, round__number=1)
    assert first.filter(bye=True).exists()
    assert not first.filter(winner__isnull=True).exists()
    assert CupTie.objects.filter(round__cup=cup, round__number=2, fixture__isnull=False).exists()
    plate = Cup.objects.get(plate_of=cup)
    assert plate.drawn_at is not None
    bracket = reverse("cup-bracket", args=[cup.season.league.slug, cup.season.slug, cup.slug])
    assert f"A cup in its semi-finals, with byes and a plate: http://127.0.0.1:8000{bracket}" in (
        output
    )
    assert client.get(bracket).status_code == 200


@pytest.mark.django_db
def test_the_demo_has_a_proposed_date_and_marked_availability_and_says_where_to_look():
    output = load_demo()
    proposal = RescheduleProposal.objects.get()
    assert proposal.status == "proposed" and proposal.proposed_by.username == "ada-finch"
    assert Availability.objects.filter(fixture=proposal.fixture).count() == 3
    assert "log in as cal-reyes / cal-reyes-plays" in output and "/needs-you/" in output
    load_demo()  # again: nothing more
    assert RescheduleProposal.objects.count() == 1
    assert Availability.objects.count() == 3


@pytest.mark.django_db
def test_demo_has_a_captains_result_awaiting_confirmation_and_a_disputed_one(client):
    output = load_demo()
    unconfirmed = ResultVersion.objects.filter(is_current=True).exclude(confirmation="confirmed")
    assert sorted(unconfirmed.values_list("confirmation", flat=True)) == ["awaiting", "disputed"]
    awaiting = unconfirmed.get(confirmation="awaiting")
    line = next(line for line in output.splitlines() if "awaits" in line)
    username, password = re.search(r"log in as (\S+) / (\S+) at", line).groups()
    # The printed captain is a player of the team that did not enter it: they may confirm it.
    assert client.login(username=username, password=password)
    page = client.get(reverse("fixture-detail", args=[awaiting.fixture_id])).content.decode()
    assert 'id="confirm-result"' in page
    assert "is disputed: staff of" in output
    load_demo()
    assert unconfirmed.count() == 2
