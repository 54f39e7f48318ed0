"""Test helpers: whole games with bots in some seats and random legal moves in the others."""

import random

from games.bots import bot_move
from games.engines import get_engine


def play_game(game, *, players, seed, bot_seats, options=None, timeout_rate=0.0):
    """Play one game to the end; every bot move is checked against `legal_moves` first.

    Returns (final state, number of bot moves). The other seats pick uniformly among
    their legal moves, or time out with `timeout_rate` (to reach unusual positions).
    """
    engine = get_engine(game)
    chooser = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    state = engine.new_game(players=players, seed=seed, options=options or {})
    bot_moves = 0
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if seat in bot_seats:
                move = bot_move(game=game, state=state, seat=seat, rng=bot_rng)
                assert move in engine.legal_moves(state, seat), (game, seat, move)
                bot_moves += 1
                state = engine.apply(state, seat, move)
            elif chooser.random() < timeout_rate:
                state = engine.timeout(state, seat)
            else:
                state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
    return state, bot_moves


def bot_wins(game, *, players, seeds, bot_seats, options=None):
    """How many of the games played from `seeds` the bots' side won (shared wins count)."""
    engine = get_engine(game)
    wins = 0
    for seed in seeds:
        state, _ = play_game(game, players=players, seed=seed, bot_seats=bot_seats, options=options)
        wins += bool(set(engine.outcome(state)["winners"]) & set(bot_seats))
    return wins


def positions(game, *, players, seeds, options=None, chooser_seed=0):
    """Every position of random games from `seeds` (random legal moves, some time-outs)."""
    engine = get_engine(game)
    chooser = random.Random(chooser_seed)
    for seed in seeds:
        state = engine.new_game(players=players, seed=seed, options=options or {})
        while not engine.is_over(state):
            yield state
            seat = chooser.choice(engine.to_act(state))
            if chooser.random() < 0.1:
                state = engine.timeout(state, seat)
            else:
                state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
