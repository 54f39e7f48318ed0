"""Practice bots against random play: win rates and time per game, one process.

    .venv/bin/python bench/bots.py [--games 1000] [--runs 3] [SETUP ...]

Setups: korova (one bot and three random players, the bot's seat rotating game by
game), convoy-2 (a bot against a random player, seats alternating), convoy-4 (a side of two bots
against a side of two random players; the bots' side alternates), conquian (a bot
against a random player, matches to 5, seats alternating). Game k uses seed k, so
the win rates are the same in every run; the times are the median of --runs runs.
For each setup it prints the bots' win rate with a 95% Wilson interval, the rate
the same seats win when they play at random too (the baseline), the drawn share,
the bots' win rate by their (first) seat, the time per game and the bots' time per
move (mean and 99th percentile). Times are CPU time of this process
(`time.process_time`): on a shared machine wall time mostly measures the others'
load; on an idle core the two agree.
"""

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import bot_move  # noqa: E402
from games.engines import get_engine  # noqa: E402

# name -> (game, players, the bot seats of game k)
SETUPS = {
    "korova": ("korova", 4, lambda k: {k % 4}),
    "convoy-2": ("convoy", 2, lambda k: {k % 2}),
    "convoy-4": ("convoy", 4, lambda k: {k % 2, k % 2 + 2}),
    "conquian": ("conquian", 2, lambda k: {k % 2}),
}


def play(game, players, seed, bot_seats, use_bots, move_times):
    """One game with seed `seed`; returns its outcome."""
    engine = get_engine(game)
    chooser = random.Random(seed)
    bot_rng = random.Random(-seed - 1)
    state = engine.new_game(players=players, seed=seed)
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            if use_bots and seat in bot_seats:
                start = time.process_time()
                move = bot_move(game=game, state=state, seat=seat, rng=bot_rng)
                move_times.append(time.process_time() - start)
            else:
                move = chooser.choice(engine.legal_moves(state, seat))
            state = engine.apply(state, seat, move)
    return engine.outcome(state)


def wilson(wins, n, z=1.96):
    """The 95% Wilson score interval of a proportion."""
    share = wins / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(name, games, use_bots):
    """(wins, wins and games by the bots' first seat, draws, seconds per game, bot move
    times) over `games` games."""
    game, players, bot_seats_of = SETUPS[name]
    wins = draws = 0
    by_seat = {}
    move_times = []
    start = time.process_time()
    for seed in range(games):
        bot_seats = bot_seats_of(seed)
        outcome = play(game, players, seed, bot_seats, use_bots, move_times)
        won = bool(set(outcome["winners"]) & bot_seats)
        wins += won
        seat_wins, seat_games = by_seat.get(min(bot_seats), (0, 0))
        by_seat[min(bot_seats)] = (seat_wins + won, seat_games + 1)
        draws += outcome["draw"]
    return wins, by_seat, draws, (time.process_time() - start) / games, move_times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "setups", nargs="*", default=list(SETUPS), help=f"{', '.join(SETUPS)} (default all)"
    )
    parser.add_argument(
        "--games", type=int, default=1000, help="games per setup, game k with seed k (default 1000)"
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        help="timed runs per setup; the median time is printed (default 3)",
    )
    args = parser.parse_args()
    unknown = [name for name in args.setups if name not in SETUPS]
    if unknown:
        parser.error(f"unknown setup {unknown[0]!r}; known: {', '.join(SETUPS)}")
    for name in args.setups:
        base_wins, _, _, base_time, _ = run(name, args.games, use_bots=False)
        per_game, means, p99s = [], [], []
        for _ in range(args.runs):
            wins, by_seat, draws, seconds, move_times = run(name, args.games, use_bots=True)
            per_game.append(seconds * 1000)
            means.append(statistics.fmean(move_times) * 1e6)
            p99s.append(statistics.quantiles(move_times, n=100)[98] * 1e6)
        low, high = wilson(wins, args.games)
        base_low, base_high = wilson(base_wins, args.games)
        print(
            f"{name:9s} bots win {wins / args.games:6.1%} (95% CI {low:.1%}-{high:.1%}) of "
            f"{args.games}; random in the same seats {base_wins / args.games:.1%} "
            f"({base_low:.1%}-{base_high:.1%}); drawn {draws / args.games:.1%}"
        )
        seats = ", ".join(
            f"{seat}: {seat_wins / seat_games:.1%}"
            for seat, (seat_wins, seat_games) in sorted(by_seat.items())
        )
        print(f"{'':9s} bots win by their (first) seat: {seats}")
        print(
            f"{'':9s} {statistics.median(per_game):.2f} ms/game with bots "
            f"({base_time * 1000:.2f} all random); bot move mean "
            f"{statistics.median(means):.0f} us, p99 {statistics.median(p99s):.0f} us; "
            f"median of {args.runs} runs (ms/game: {', '.join(f'{t:.2f}' for t in per_game)})"
        )


if __name__ == "__main__":
    main()
