"""Корова's demo: the fixture's four players at one table, playing at random."""

import random

from scoring.kinds import FinishedTable, get_kind

from .base import DemoLeague

LEAGUE = DemoLeague("Корова Pub League", {"end_score": 66}, {})
SHOWS = frozenset(
    {"cup", "reserve", "match night"}
)  # the cup, a reserve who played and the results awaiting an answer
SEATS = 4


def demo_sheet(
    *,
    home_player_ids: list[int],
    away_player_ids: list[int],
    rule_options: dict,
    fixture_format: dict,
    seed: int,
) -> dict:
    kind = get_kind("korova")
    engine = kind.engine
    chooser = random.Random(seed)
    state = engine.new_game(players=SEATS, seed=seed, options=rule_options)
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            state = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
    players = (*home_player_ids[:2], *away_player_ids[:2])
    sheet = kind.sheet_from_final_state(
        tables=[FinishedTable(1, players, state)],
        fixture_format=fixture_format,
        rule_options=rule_options,
        home_player_ids=home_player_ids,
        away_player_ids=away_player_ids,
    )
    assert sheet is not None, "the table was played to its end"
    return sheet
