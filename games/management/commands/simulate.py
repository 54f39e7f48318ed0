"""Play random games through the engine protocol and print what happened.

Figures that mean something for games with a long tail: medians and maxima, not means
(a Conquian match of drawn random deals doubles its deal value each time, so one long
match moves a mean by millions). An engine may count what a move finished with an
optional `milestones(before, after) -> tuple[str, ...]` (Conquian: "deals", and
"drawn deals" or "won deals"); the first name is the unit the others are shares of.
"""

import json
import random
import statistics
import time

from django.core.management.base import BaseCommand, CommandError

from games.engines import ENGINE_NAMES, get_engine


def parse_option(text: str) -> tuple[str, object]:
    """`k=v` with v read as JSON where it can be (5, true, "x"), else as a plain string."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise CommandError(f"--option takes name=value, not {text!r}")
    try:
        return name, json.loads(raw)
    except json.JSONDecodeError:
        return name, raw


def number(value: float) -> str:
    """A figure as people write it: whole numbers without a point, others to one place."""
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def spread(values: list[float]) -> str:
    return f"median {number(statistics.median(values))}, max {number(max(values))}"


class Command(BaseCommand):
    help = (
        "Play random games of GAME (moves chosen uniformly from the legal moves, seeded) and "
        "print each seat's share of wins, drawn games, game length (median and max), median "
        "scores and what the engine counts per game, such as Conquian's deals and drawn deals."
    )

    def add_arguments(self, parser):
        parser.add_argument("game", choices=ENGINE_NAMES, help="the game to play")
        parser.add_argument(
            "--players", type=int, required=True, help="number of players (seats) in each game"
        )
        parser.add_argument(
            "--games", type=int, default=100, help="how many games to play (default 100)"
        )
        parser.add_argument(
            "--seed",
            type=int,
            default=0,
            help="seed of the first game; game k uses seed+k, so a run repeats (default 0)",
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a rule option of the game, repeatable; VALUE is read as JSON where it can be "
            "(--option end_score=66 --option tactical=true)",
        )

    def handle(self, *args, game, players, games, seed, option, **kwargs):
        engine = get_engine(game)
        options = dict(parse_option(text) for text in option)
        try:
            engine.new_game(players=players, seed=seed, options=options)
        except ValueError as error:
            raise CommandError(str(error))
        if games < 1:
            raise CommandError("--games must be at least 1")
        milestones = getattr(engine, "milestones", None)

        wins = [0] * players
        draws = 0
        lengths = []
        scores = []
        counted: dict[str, list[int]] = {}
        started = time.perf_counter()
        for number_ in range(games):
            game_seed = seed + number_
            chooser = random.Random(game_seed)
            state = engine.new_game(players=players, seed=game_seed, options=options)
            moves = 0
            reached: dict[str, int] = {}
            while not engine.is_over(state):
                for seat in engine.to_act(state):
                    move = chooser.choice(engine.legal_moves(state, seat))
                    before, state = state, engine.apply(state, seat, move)
                    moves += 1
                    for name in milestones(before, state) if milestones else ():
                        reached[name] = reached.get(name, 0) + 1
            result = engine.outcome(state)
            lengths.append(moves)
            draws += result["draw"]
            for seat in result["winners"]:
                wins[seat] += 1
            scores.append(result["scores"])
            for name in reached:
                counted.setdefault(name, [0] * number_)
            for name, per_game in counted.items():
                per_game.append(reached.get(name, 0))
        elapsed = time.perf_counter() - started
        self.report(game, players, games, seed, options, wins, draws, lengths, scores, counted)
        self.stdout.write(f"  speed: {games / elapsed:.0f} games per second")

    def report(self, game, players, games, seed, options, wins, draws, lengths, scores, counted):
        self.stdout.write(f"{game}: {games} random games, {players} players, seed {seed}")
        if options:
            self.stdout.write(f"options: {json.dumps(options, sort_keys=True)}")
        for seat, won in enumerate(wins):
            self.stdout.write(f"  seat {seat}: among the winners in {won / games:6.1%}")
        self.stdout.write(f"  drawn games: {draws / games:6.1%}")
        self.stdout.write(f"  game length: {spread(lengths)} moves")
        sides = len(scores[0])
        label = "per seat" if sides == players else "per side"
        medians = ", ".join(number(statistics.median(s[i] for s in scores)) for i in range(sides))
        self.stdout.write(f"  scores ({label}): median {medians}")
        unit = next(iter(counted), None)
        for name, per_game in counted.items():
            line = f"  {name} per game: {spread(per_game)}"
            if name != unit and sum(counted[unit]):
                line += f" ({sum(per_game) / sum(counted[unit]):.1%} of all {unit})"
            self.stdout.write(line)
