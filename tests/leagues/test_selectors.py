"""Reads of the leagues app."""

import pytest

from leagues.models import TeamMember
from leagues.selectors import team_player_ids
from tests.factories import PlayerFactory, TeamFactory

pytestmark = pytest.mark.django_db


def test_team_player_ids_lists_each_teams_players_by_position_in_one_query(
    django_assert_num_queries,
):
    first, second, third, fourth = PlayerFactory.create_batch(4)
    swapped = TeamFactory(members=[first, second])
    TeamMember.objects.filter(team=swapped).delete()  # position 1 now second, 2 now first
    TeamMember.objects.create(team=swapped, player=second, position=1)
    TeamMember.objects.create(team=swapped, player=first, position=2)
    other = TeamFactory(members=[third, fourth])
    empty = TeamFactory(members=[])
    TeamMember.objects.filter(team=empty).delete()

    with django_assert_num_queries(1):
        players = team_player_ids(team_ids=[swapped.pk, other.pk, empty.pk])

    assert players == {
        swapped.pk: [second.pk, first.pk],
        other.pk: [third.pk, fourth.pk],
        empty.pk: [],
    }
