"""Conquian's demo: the fixture's two singles, each player melding what they can."""

import random

from scoring.kinds import FinishedTable, get_kind

from .base import DemoLeague

LEAGUE = DemoLeague("Conquian Pub League", {"target": 5}, {})
SHOWS = frozenset({"divisions"})  # a season in two divisions, with zones and a deduction


def demo_sheet(
    *,
    home_player_ids: list[int],
    away_player_ids: list[int],
    rule_options: dict,
    fixture_format: dict,
    seed: int,
) -> dict:
    kind = get_kind("conquian")
    engine = kind.engine
    tables = []
    for plan in kind.fixture_table_plans(
        fixture_format=fixture_format,
        home_player_ids=home_player_ids,
        away_player_ids=away_player_ids,
    ):
        chooser = random.Random(seed * 10 + plan.number)
        state = engine.new_game(players=2, seed=seed * 10 + plan.number, options=rule_options)
        while not engine.is_over(state):
            for seat in engine.to_act(state):
                state = engine.apply(state, seat, _meld_first(engine, state, seat, chooser))
        seats = tuple(pk for (pk,) in plan.sides)
        tables.append(FinishedTable(plan.number, seats, state))
    sheet = kind.sheet_from_final_state(
        tables=tables,
        fixture_format=fixture_format,
        rule_options=rule_options,
        home_player_ids=home_player_ids,
        away_player_ids=away_player_ids,
    )
    assert sheet is not None, "every single was played to its end"
    return sheet


def _meld_first(engine, state, seat: int, chooser: random.Random) -> dict:
    """Demo players meld what they can: random play leaves most deals drawn (about 5 in 6),
    and with doubling carry-over that makes deal values no pub sheet would show."""
    moves = engine.legal_moves(state, seat)
    melds = [move for move in moves if "meld" in move]
    return max(melds, key=lambda move: len(move["meld"])) if melds else chooser.choice(moves)
