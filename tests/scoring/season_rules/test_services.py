"""scoring.season_rules.services: points adjustments, play-offs and the rollover, on PostgreSQL,
with who may do them (league admins; never venue staff or players)."""

import datetime

import pytest
from django.core.cache import cache

from config.errors import Conflict, Forbidden, Invalid
from leagues.models import Division, Entry, Fixture, Season, TeamMember
from scoring.models import PointsAdjustment
from scoring.season_rules.selectors import season_rollover_plan
from scoring.season_rules.services import (
    COPIED_SETTINGS,
    playoff_fixtures_create,
    points_adjustment_add,
    season_rollover,
)
from scoring.standings.selectors import season_standings
from tests.factories import PlayerFactory, StaffMembershipFactory, TeamFactory, UserFactory
from tests.scoring.division_builders import result, two_divisions

pytestmark = pytest.mark.django_db
ON = datetime.date(2026, 11, 1)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def names(rows):
    return [row.team.name for row in rows]


def test_each_division_is_its_own_table_with_its_zones():
    world = two_divisions()
    premier = season_standings(season=world.season)
    second = season_standings(season=world.season, division=world.second)
    assert names(premier) == ["Top A", "Top B", "Top C"]
    assert names(second) == ["Low A", "Low B", "Low C"]
    assert [row.played for row in premier] == [4, 4, 4]
    # The top division sends nobody up, the bottom one nobody down.
    assert [row.zone for row in premier] == [None, None, "relegation"]
    assert [row.zone for row in second] == ["promotion", None, None]


def test_fixtures_are_generated_per_division():
    world = two_divisions(played=False)
    fixtures = Fixture.objects.filter(season=world.season)
    assert fixtures.count() == 12  # 3 teams: 6 fixtures a division
    for fixture in fixtures:
        division = Entry.objects.get(season=world.season, team=fixture.home_team).division
        assert fixture.division == division
        assert Entry.objects.get(season=world.season, team=fixture.away_team).division == division
        assert fixture.stage == Fixture.Stage.LEAGUE


def test_a_division_of_one_team_cannot_have_fixtures():
    world = two_divisions(played=False)
    Fixture.objects.filter(season=world.season).delete()
    Entry.objects.filter(team__in=world.second_teams[1:]).update(division=world.premier)
    from leagues.services import fixtures_generate

    with pytest.raises(Conflict, match="Division One has one team"):
        fixtures_generate(season=world.season)
    assert not Fixture.objects.filter(season=world.season).exists()


def test_a_deduction_counts_in_the_table_and_keeps_who_made_it(superuser):
    world = two_divisions()
    leader = world.top_teams[0]
    adjustment = points_adjustment_add(
        season_id=world.season.pk,
        team_id=leader.pk,
        points=-9,
        reason="Fielded an ineligible player",
        on=ON,
        by=superuser,
    )
    rows = season_standings(season=world.season)
    assert names(rows) == ["Top B", "Top A", "Top C"]  # 12 - 9 = 3 points, below B's 6
    row = rows[1]
    assert (row.points, row.adjustment) == (3, -9)
    assert [(a.points, a.reason, a.on) for a in row.adjustments] == [
        (-9, "Fielded an ineligible player", ON)
    ]
    assert adjustment.created_by == superuser
    assert adjustment.history.get().history_user == superuser


@pytest.mark.parametrize("who", ["staff", "player", "visitor"])
def test_only_league_admins_adjust_points(who):
    world = two_divisions(played=False)
    user = {
        "staff": lambda: StaffMembershipFactory(venue=world.top_teams[0].home_venue).user,
        "player": lambda: PlayerFactory(user=UserFactory()).user,
        "visitor": lambda: UserFactory(),
    }[who]()
    with pytest.raises(Forbidden):
        points_adjustment_add(
            season_id=world.season.pk,
            team_id=world.top_teams[0].pk,
            points=-3,
            reason="Late result",
            on=ON,
            by=user,
        )
    assert not PointsAdjustment.objects.exists()


def test_bad_adjustments_name_their_field_and_change_nothing(superuser):
    world = two_divisions(played=False)
    outsider = TeamFactory()
    with pytest.raises(Invalid) as refusal:
        points_adjustment_add(
            season_id=world.season.pk,
            team_id=outsider.pk,
            points=0,
            reason="  ",
            on=ON,
            by=superuser,
        )
    assert set(refusal.value.errors) == {"points", "reason", "team"}
    assert not PointsAdjustment.objects.exists()


def test_the_rollover_previews_then_creates_the_next_season_once(superuser):
    world = two_divisions()
    world.season.points_win = 2
    world.season.save()
    Entry.objects.filter(team=world.second_teams[2]).update(withdrawn_on=ON)
    plan = season_rollover_plan(season=world.season)
    assert not Season.objects.filter(slug="s-2027").exists()  # a preview writes nothing
    assert [(t.name, s.name, d.name) for t, s, d in plan.promoted] == [
        ("Low A", "Division One", "Premier")
    ]
    assert [t.name for t, _, _ in plan.relegated] == ["Top C"]
    assert [t.name for t in plan.withdrawn] == ["Low C"]

    successor = season_rollover(
        season_id=world.season.pk, name="2027", slug="s-2027", starts_on=ON, by=superuser
    )
    world.season.refresh_from_db()
    assert world.season.next_season == successor
    assert successor.points_win == 2 and successor.league == world.season.league
    divisions = list(successor.divisions.order_by("level"))
    assert [(d.name, d.level, d.promoted, d.relegated) for d in divisions] == [
        ("Premier", 1, 0, 1),
        ("Division One", 2, 1, 0),
    ]
    teams = {
        d.name: sorted(e.team.name for e in d.entries.select_related("team")) for d in divisions
    }
    assert teams == {"Premier": ["Low A", "Top A", "Top B"], "Division One": ["Low B", "Top C"]}

    with pytest.raises(Conflict, match="already rolled over"):
        season_rollover(
            season_id=world.season.pk, name="Again", slug="again", starts_on=ON, by=superuser
        )
    assert Season.objects.filter(league=world.season.league).count() == 2


def test_staff_cannot_roll_a_season_over():
    world = two_divisions()
    staff = StaffMembershipFactory(venue=world.top_teams[0].home_venue).user
    with pytest.raises(Forbidden):
        season_rollover(season_id=world.season.pk, name="2027", slug="x", starts_on=ON, by=staff)
    assert Season.objects.count() == 1


def test_a_play_off_decides_the_last_place_either_side_of_the_line(superuser):
    world = two_divisions(playoff=True)
    with pytest.raises(Conflict, match="has no result yet"):
        season_rollover_plan(season=world.season)
    (premier_playoff,) = playoff_fixtures_create(division_id=world.premier.pk, by=superuser)
    (second_playoff,) = playoff_fixtures_create(division_id=world.second.pk, by=superuser)
    assert (premier_playoff.home_team.name, premier_playoff.away_team.name) == ("Top B", "Top C")
    assert (second_playoff.home_team.name, second_playoff.away_team.name) == ("Low A", "Low B")
    assert premier_playoff.stage == second_playoff.stage == Fixture.Stage.PLAYOFF
    with pytest.raises(Conflict, match="already has its play-offs"):
        playoff_fixtures_create(division_id=world.premier.pk, by=superuser)

    result(premier_playoff, "away")  # Top C survives: Top B goes down
    result(second_playoff, "away")  # Low B goes up instead of Low A
    plan = season_rollover_plan(season=world.season)
    assert [t.name for t, _, _ in plan.promoted] == ["Low B"]
    assert [t.name for t, _, _ in plan.relegated] == ["Top B"]
    # A play-off never counts in the table.
    assert [row.played for row in season_standings(season=world.season)] == [4, 4, 4]


def test_a_division_without_play_off_refuses_to_create_one(superuser):
    world = two_divisions()
    with pytest.raises(Conflict):
        playoff_fixtures_create(division_id=world.premier.pk, by=superuser)
    assert not Division.objects.filter(fixtures__stage="playoff").exists()


def test_staff_cannot_create_play_offs():
    world = two_divisions(playoff=True)
    staff = StaffMembershipFactory(venue=world.top_teams[0].home_venue).user
    with pytest.raises(Forbidden):
        playoff_fixtures_create(division_id=world.premier.pk, by=staff)
    assert not Fixture.objects.filter(stage=Fixture.Stage.PLAYOFF).exists()


def test_the_rollover_copies_every_rule_setting_the_language_included(superuser):
    world = two_divisions()
    world.season.language = "fi"
    world.season.reserves_allowed = 4
    world.season.save()
    successor = season_rollover(
        season_id=world.season.pk, name="2027", slug="s-2027", starts_on=ON, by=superuser
    )
    assert successor.language == "fi"
    for field in COPIED_SETTINGS:
        assert getattr(successor, field) == getattr(world.season, field), field
    copied = set(COPIED_SETTINGS)
    own = {"id", "league", "name", "slug", "starts_on", "next_season"}
    rules = {f.name for f in Season._meta.concrete_fields} - own
    assert rules <= copied, rules - copied


def test_the_rollover_refuses_a_team_whose_player_joined_another_and_creates_nothing(
    superuser,
):
    world = two_divisions()
    # Since the season, Low A's player 1 has become one of Top A's two as well.
    low_a = TeamMember.objects.get(team=world.second_teams[0], position=1).player
    TeamMember.objects.filter(team=world.top_teams[0], position=2).update(player=low_a)

    with pytest.raises(Conflict) as refused:
        season_rollover(
            season_id=world.season.pk, name="2027", slug="s-2027", starts_on=ON, by=superuser
        )

    assert "already plays for" in str(refused.value.errors["season"])
    assert Season.objects.count() == 1
    world.season.refresh_from_db()
    assert world.season.next_season is None
