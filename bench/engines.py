"""Random complete games through the engine protocol, one process.

    .venv/bin/python bench/engines.py [--runs 5] [--seconds 2] [GAME ...]

For each game: complete games (Корова to the end score, Convoy to a win or
stalemate, Conquian deals) per second over a fixed wall-clock slice, the
median of --runs runs; and the size of a dumped state in the middle of a game.
Only protocol calls are used: to_act, legal_moves, apply, is_over, dump.
"""

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engines import get_engine  # noqa: E402

SETUPS = {
    "korova": {"players": 4, "options": {}},
    "convoy": {"players": 4, "options": {}},
    "conquian": {"players": 2, "options": {}},  # whole matches to 5; the rate counts deals
}


def play(engine, players, options, seed, on_move=None):
    """Play one random game; returns (moves, final state)."""
    chooser = random.Random(seed)
    state = engine.new_game(players=players, seed=seed, options=options)
    moves = 0
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
            moves += 1
            if on_move:
                on_move(state, moves)
    return moves, state


def games_per_second(name, seconds):
    engine = get_engine(name)
    setup = SETUPS[name]
    seed = units = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, state = play(engine, setup["players"], setup["options"], seed)
        units += engine.view(state, None)["deal_number"] if name == "conquian" else 1
        seed += 1
    return units / (time.perf_counter() - start)


def mid_game_dump_size(name, samples=20):
    engine = get_engine(name)
    setup = SETUPS[name]
    sizes = []
    for seed in range(samples):
        total, _ = play(engine, setup["players"], setup["options"], seed)
        snapshot = {}

        def keep(state, moves, total=total, snapshot=snapshot):
            if moves == total // 2:
                snapshot["size"] = len(json.dumps(engine.dump(state)))

        play(engine, setup["players"], setup["options"], seed, keep)
        sizes.append(snapshot["size"])
    return statistics.median(sizes), max(sizes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "games",
        nargs="*",
        default=list(SETUPS),
        metavar="GAME",
        help=f"games to measure: {', '.join(SETUPS)} (default all)",
    )
    parser.add_argument(
        "--runs", type=int, default=5, help="timed slices per game; the median is printed (5)"
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="wall-clock length of each slice (2.0)"
    )
    args = parser.parse_args()
    for name in args.games:
        rates = [games_per_second(name, args.seconds) for _ in range(args.runs)]
        median_size, max_size = mid_game_dump_size(name)
        unit = "deals" if name == "conquian" else "games"
        print(
            f"{name:9s} {statistics.median(rates):8.0f} {unit}/s median of {args.runs} "
            f"(runs: {', '.join(f'{r:.0f}' for r in rates)}); mid-game dump "
            f"{median_size / 1024:.1f} KB median, {max_size / 1024:.1f} KB max"
        )


if __name__ == "__main__":
    main()
