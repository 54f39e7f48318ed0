"""leagues.eligibility: the season's rule for a team's two, where a team is entered and where
its two change (team_players_set), on PostgreSQL. Refusals change nothing."""

import pytest

from config.errors import Invalid
from leagues.eligibility import entry_players_check, team_open_entries
from leagues.models import Division, Eligibility, Fixture, Reserve, TeamMember
from leagues.squad_services import team_players_set
from tests.factories import EntryFactory, FixtureFactory, PlayerFactory, SeasonFactory, TeamFactory

pytestmark = pytest.mark.django_db


def two_of(team):
    return [m.player for m in TeamMember.objects.filter(team=team).order_by("position")]


@pytest.fixture
def season_of_two():
    """A season (one team a season) with Roundheads entered; Last Orders not entered, sharing
    none of its players yet."""
    season = SeasonFactory()
    roundheads = TeamFactory(name="Roundheads")
    EntryFactory(season=season, team=roundheads)
    return season, roundheads


def test_a_team_whose_player_plays_for_another_team_of_the_season_is_not_entered(season_of_two):
    season, roundheads = season_of_two
    ada = two_of(roundheads)[0]
    last_orders = TeamFactory(name="Last Orders", members=[ada, PlayerFactory()])

    with pytest.raises(Invalid) as refused:
        entry_players_check(season=season, team=last_orders, division_id=None)

    assert refused.value.errors == {
        "team": [
            f"{ada.name} already plays for Roundheads this season: a player plays for one team "
            "a season."
        ]
    }


def test_a_reserve_of_another_team_counts_under_one_team_a_season(season_of_two):
    season, roundheads = season_of_two
    rita = PlayerFactory(name="Rita")
    Reserve.objects.create(entry=roundheads.entries.get(), player=rita)
    last_orders = TeamFactory(members=[rita, PlayerFactory()])
    with pytest.raises(Invalid):
        entry_players_check(season=season, team=last_orders, division_id=None)


def test_one_per_division_allows_a_player_in_another_division():
    season = SeasonFactory(eligibility=Eligibility.ONE_PER_DIVISION)
    top = season.divisions.get()
    lower = Division.objects.create(season=season, name="One", level=2)
    roundheads = TeamFactory()
    EntryFactory(season=season, team=roundheads, division=top)
    shared = TeamFactory(members=[two_of(roundheads)[0], PlayerFactory()])

    entry_players_check(season=season, team=shared, division_id=lower.pk)  # no refusal
    with pytest.raises(Invalid) as refused:
        entry_players_check(season=season, team=shared, division_id=None)  # the top one
    assert "in this division" in str(refused.value.errors["team"])


def test_limited_still_refuses_one_of_two_teams_two_but_not_a_reserve_elsewhere():
    season = SeasonFactory(eligibility=Eligibility.LIMITED)
    roundheads = TeamFactory(name="Roundheads")
    entry = EntryFactory(season=season, team=roundheads)
    rita = PlayerFactory()
    Reserve.objects.create(entry=entry, player=rita)

    entry_players_check(
        season=season, team=TeamFactory(members=[rita, PlayerFactory()]), division_id=None
    )
    regular = TeamFactory(members=[two_of(roundheads)[1], PlayerFactory()])
    with pytest.raises(Invalid) as refused:
        entry_players_check(season=season, team=regular, division_id=None)
    assert "one of Roundheads's two this season" in str(refused.value.errors["team"])


def test_a_team_of_the_season_cannot_take_another_teams_player_and_nothing_changes(
    season_of_two,
):
    season, roundheads = season_of_two
    last_orders = TeamFactory(name="Last Orders")
    EntryFactory(season=season, team=last_orders)
    before = two_of(last_orders)
    ada = two_of(roundheads)[0]

    with pytest.raises(Invalid) as refused:
        team_players_set(team=last_orders, players=[before[0], ada])

    assert "already plays for Roundheads this season" in str(refused.value.errors["players"])
    assert two_of(last_orders) == before


def test_a_new_player_who_plays_nowhere_else_joins(season_of_two):
    season, roundheads = season_of_two
    newcomer = PlayerFactory()
    team_players_set(team=roundheads, players=[two_of(roundheads)[0], newcomer])
    assert two_of(roundheads)[1] == newcomer


def test_a_finished_or_rolled_over_season_no_longer_binds_the_two(season_of_two):
    season, roundheads = season_of_two
    last_orders = TeamFactory()
    EntryFactory(season=season, team=last_orders)
    FixtureFactory(season=season, home_team=roundheads, away_team=last_orders)
    assert team_open_entries(team=last_orders)
    Fixture.objects.filter(season=season).update(status=Fixture.Status.PLAYED)
    assert team_open_entries(team=last_orders) == []

    team_players_set(team=last_orders, players=[two_of(roundheads)[0], PlayerFactory()])
