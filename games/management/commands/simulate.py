"""Play random games through the engine protocol and print what happened."""

import json
import random
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


class Command(BaseCommand):
    help = "Play random games of GAME and print win share per seat, game length, scores, speed."

    def add_arguments(self, parser):
        parser.add_argument("game", choices=ENGINE_NAMES)
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")

    def handle(self, *args, game, players, games, seed, option, **kwargs):
        engine = get_engine(game)
        options = dict(parse_option(text) for text in option)
        try:
            engine.new_game(players=players, seed=seed, options=options)
        except ValueError as error:
            raise CommandError(str(error))
        if games < 1:
            raise CommandError("--games must be at least 1")

        wins = [0] * players
        draws = 0
        lengths = []
        score_totals = None
        started = time.perf_counter()
        for number in range(games):
            game_seed = seed + number
            chooser = random.Random(game_seed)
            state = engine.new_game(players=players, seed=game_seed, options=options)
            moves = 0
            while not engine.is_over(state):
                for seat in engine.to_act(state):
                    move = chooser.choice(engine.legal_moves(state, seat))
                    state = engine.apply(state, seat, move)
                    moves += 1
            result = engine.outcome(state)
            lengths.append(moves)
            draws += result["draw"]
            for seat in result["winners"]:
                wins[seat] += 1
            scores = result["scores"]
            score_totals = (
                list(scores)
                if score_totals is None
                else [a + b for a, b in zip(score_totals, scores)]
            )
        elapsed = time.perf_counter() - started

        self.stdout.write(f"{game}: {games} random games, {players} players, seed {seed}")
        if options:
            self.stdout.write(f"options: {json.dumps(options, sort_keys=True)}")
        for seat, won in enumerate(wins):
            self.stdout.write(f"  seat {seat}: among the winners in {won / games:6.1%}")
        self.stdout.write(f"  drawn: {draws / games:6.1%}")
        self.stdout.write(f"  mean game length: {sum(lengths) / games:.1f} moves")
        means = ", ".join(f"{total / games:.1f}" for total in score_totals)
        self.stdout.write(
            f"  mean scores ({'per side' if game == 'convoy' else 'per seat'}): {means}"
        )
        self.stdout.write(f"  speed: {games / elapsed:.0f} games per second")
