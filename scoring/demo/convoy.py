"""Convoy's demo: one game per fixture, both pairs playing at random."""

import random

from scoring.kinds import FinishedTable, get_kind

from .base import DemoLeague

LEAGUE = DemoLeague("Convoy Pub League", {}, {"games": 1})
SHOWS = frozenset({"walkover"})  # a walkover
PLAYERS = 4


def demo_sheet(
    *,
    home_player_ids: list[int],
    away_player_ids: list[int],
    rule_options: dict,
    fixture_format: dict,
    seed: int,
) -> dict:
    kind = get_kind("convoy")
    engine = kind.engine
    tables = []
    home, away = home_player_ids[:2], away_player_ids[:2]
    for plan in kind.fixture_table_plans(
        fixture_format=fixture_format, home_player_ids=home, away_player_ids=away
    ):
        chooser = random.Random(seed * 10 + plan.number)
        state = engine.new_game(PLAYERS, seed=seed * 10 + plan.number, options=rule_options)
        while not engine.is_over(state):
            for seat in engine.to_act(state):
                move = chooser.choice(engine.legal_moves(state, seat))
                state = engine.apply(state, seat, move)
        seats = (home[0], away[0], home[1], away[1])  # partners sit opposite
        tables.append(FinishedTable(plan.number, seats, state))
    sheet = kind.sheet_from_final_state(
        tables=tables,
        fixture_format=fixture_format,
        rule_options=rule_options,
        home_player_ids=home,
        away_player_ids=away,
    )
    assert sheet is not None, "every table was played to its end"
    return sheet
