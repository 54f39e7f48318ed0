"""bot_move, the one entry point live play uses for every game's bot."""

import random

import pytest

from games.bots import bot_move
from games.engines import ENGINE_NAMES, get_engine

PLAYERS = {"convoy": 4, "korova": 5, "conquian": 2}


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_the_same_position_and_rng_seed_give_the_same_move(game):
    engine = get_engine(game)
    state = engine.new_game(players=PLAYERS[game], seed=11)
    seat = engine.to_act(state)[0]
    moves = [bot_move(game=game, state=state, seat=seat, rng=random.Random(4)) for _ in range(3)]
    assert moves[0] in engine.legal_moves(state, seat)
    assert moves == [moves[0]] * 3


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_a_seat_with_nothing_to_do_is_refused(game):
    engine = get_engine(game)
    state = engine.new_game(players=PLAYERS[game], seed=11)
    first = engine.to_act(state)[0]
    state = engine.apply(state, first, engine.legal_moves(state, first)[0])  # Корова: seat 0 picked
    idle = next(seat for seat in range(PLAYERS[game]) if seat not in engine.to_act(state))
    with pytest.raises(ValueError, match="nothing to do"):
        bot_move(game=game, state=state, seat=idle, rng=random.Random(4))


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        bot_move(game="chess", state=None, seat=0, rng=random.Random(4))
