"""A reserve at a fixture's live tables: seated in the place of a player who cannot play, and
recorded as the substitute in the result the tables write."""

import random

import pytest

from games.models import Seat
from leagues.models import Availability, Entry, Game, Reserve
from scoring.models import ResultVersion
from tests.factories import PlayerFactory, UserFactory
from tests.games.conftest import client_for
from tests.games.live.test_fixture_tables import (
    fixture_players,
    league_fixture,
    play_to_the_end,
    start,
    start_and_join,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("moves_unthrottled")]


def with_reserve_for_away_player_1(fixture):
    reserve = PlayerFactory(name="Rita Reserve", user=UserFactory(username="rita"))
    entry = Entry.objects.get(season=fixture.season, team=fixture.away_team)
    Reserve.objects.create(entry=entry, player=reserve)
    away_1 = fixture_players(fixture)[2]
    Availability.objects.create(fixture=fixture, player=away_1, available=False)
    Availability.objects.create(fixture=fixture, player=reserve, available=True)
    return reserve, away_1


def test_the_reserve_takes_the_seat_of_the_player_who_cannot_play():
    fixture = league_fixture(Game.CONQUIAN)
    reserve, absent = with_reserve_for_away_player_1(fixture)

    tables = start(fixture, client_for(reserve.user)).json()

    seated = set(Seat.objects.filter(table__fixture=fixture).values_list("player_id", flat=True))
    assert reserve.pk in seated and absent.pk not in seated
    # Conquian: the reserve plays the absent player's single, against the home player 1.
    home_1 = fixture_players(fixture)[0]
    first = next(table for table in tables if reserve.name in [s["name"] for s in table["seats"]])
    assert {seat["name"] for seat in first["seats"]} == {home_1.name, reserve.name}


def test_a_reserve_who_did_not_say_they_can_play_is_not_seated():
    fixture = league_fixture(Game.CONQUIAN)
    reserve, absent = with_reserve_for_away_player_1(fixture)
    Availability.objects.filter(player=reserve).delete()

    start(fixture, client_for(fixture_players(fixture)[0].user))

    seated = set(Seat.objects.filter(table__fixture=fixture).values_list("player_id", flat=True))
    assert absent.pk in seated and reserve.pk not in seated


def test_the_tables_result_records_the_reserve_as_the_substitute():
    fixture = league_fixture(Game.CONQUIAN, rule_options={"target": 2})
    reserve, absent = with_reserve_for_away_player_1(fixture)
    home_1, home_2, _, away_2 = fixture_players(fixture)
    players = [home_1, home_2, reserve, away_2]
    clients = {player.pk: client_for(player.user) for player in players}
    tables = start_and_join(fixture, clients)
    rng = random.Random(3)
    for table in tables:
        play_to_the_end(table["id"], clients, rng, lose_one_turn=False)

    version = ResultVersion.objects.get(fixture=fixture, is_current=True)
    assert version.lineup == {
        "home": [home_1.pk, home_2.pk],
        "away": [reserve.pk, away_2.pk],
        "substitutes": [reserve.pk],
    }
