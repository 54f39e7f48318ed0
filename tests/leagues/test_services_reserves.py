"""leagues.squad_services.reserve_register: the squad's limit and the season's eligibility rule."""

import pytest

from config.errors import Forbidden, Invalid
from leagues.models import Division, Eligibility, Reserve, TeamMember
from leagues.squad_services import reserve_register
from tests.factories import PlayerFactory, StaffMembershipFactory
from tests.scoring.squads import make_squads

pytestmark = pytest.mark.django_db


def _refusal(entry, player, by=None) -> str:
    with pytest.raises(Invalid) as refused:
        reserve_register(entry_id=entry.pk, player_id=player.pk, by=by)
    assert list(refused.value.errors) == ["player"]
    return refused.value.errors["player"][0]


def test_a_reserve_is_registered_on_the_teams_entry():
    squads = make_squads()
    player = PlayerFactory()

    reserve = reserve_register(entry_id=squads.entries[0].pk, player_id=player.pk, by=None)

    assert (reserve.entry, reserve.player) == (squads.entries[0], player)


def test_no_more_than_the_seasons_reserves():
    squads = make_squads(reserves_allowed=1)
    reserve_register(entry_id=squads.entries[0].pk, player_id=PlayerFactory().pk, by=None)

    message = _refusal(squads.entries[0], PlayerFactory())

    assert "allows 1" in message
    assert Reserve.objects.count() == 1


def test_one_of_the_teams_two_is_not_its_reserve():
    squads = make_squads()
    own = TeamMember.objects.get(team=squads.teams[0], position=1).player

    assert "two players already" in _refusal(squads.entries[0], own)


def test_one_team_a_reserve_already_in_another_team_is_refused_and_nothing_changes():
    squads = make_squads(eligibility=Eligibility.ONE_TEAM, teams=3)
    other_teams_player = TeamMember.objects.get(team=squads.teams[1], position=1).player
    reserve_elsewhere = PlayerFactory()
    reserve_register(entry_id=squads.entries[2].pk, player_id=reserve_elsewhere.pk, by=None)

    assert "already plays for" in _refusal(squads.entries[0], other_teams_player)
    assert squads.teams[2].name in _refusal(squads.entries[0], reserve_elsewhere)
    assert Reserve.objects.count() == 1


def test_one_per_division_a_player_of_a_team_in_another_division_may_be_registered():
    squads = make_squads(eligibility=Eligibility.ONE_PER_DIVISION, teams=3)
    top = squads.season.divisions.get(level=1)  # every season has its top division
    lower = Division.objects.create(season=squads.season, name="One", level=2)
    for index, division in enumerate([top, top, lower]):
        squads.entries[index].division = division
        squads.entries[index].save()
    same_division = TeamMember.objects.get(team=squads.teams[1], position=1).player
    other_division = TeamMember.objects.get(team=squads.teams[2], position=1).player

    assert "in each division" in _refusal(squads.entries[0], same_division)
    reserve_register(entry_id=squads.entries[0].pk, player_id=other_division.pk, by=None)


def test_limited_a_player_of_another_team_may_be_registered():
    squads = make_squads(eligibility=Eligibility.LIMITED)
    other_teams_player = TeamMember.objects.get(team=squads.teams[1], position=1).player

    reserve_register(entry_id=squads.entries[0].pk, player_id=other_teams_player.pk, by=None)

    assert Reserve.objects.filter(player=other_teams_player).exists()


def test_staff_cannot_register_reserves():
    squads = make_squads()
    staff = StaffMembershipFactory(venue=squads.venue).user

    with pytest.raises(Forbidden):
        reserve_register(entry_id=squads.entries[0].pk, player_id=PlayerFactory().pk, by=staff)
