"""The protocol contract: the shape of an outcome, passes, stalemates and shared wins."""

import pytest

from games.engines import IllegalMove, get_engine
from tests.games.engines.protocol_games import QUICK_OPTIONS, each_game, play, roundtrip, sides_of

# -- outcome ------------------------------------------------------------------------------------


def check_outcome_shape(eng, name, players, state):
    outcome = eng.outcome(state)
    assert roundtrip(outcome) == outcome
    assert set(outcome) == {"winners", "draw", "scores"}
    winners, draw, scores = outcome["winners"], outcome["draw"], outcome["scores"]
    assert type(draw) is bool
    assert all(type(seat) is int and 0 <= seat < players for seat in winners)
    assert winners == sorted(set(winners))
    assert len(scores) == sides_of(name, players)
    assert all(type(score) is int for score in scores)
    if not eng.is_over(state):
        assert (winners, draw) == ([], False)
    return outcome


@each_game
def test_outcome_has_the_shape_of_the_protocol_all_game_long(name, players):
    eng = get_engine(name)
    for seed in range(6):
        states, _ = play(eng, name, players, seed, chooser_seed=seed, timeout_rate=0.2)
        for state in states:
            check_outcome_shape(eng, name, players, state)
        assert eng.is_over(states[-1])
        outcome = check_outcome_shape(eng, name, players, states[-1])
        scores = outcome["scores"]
        if name == "convoy":
            sides = sides_of(name, players)
            if outcome["draw"]:
                assert outcome["winners"] == []
                assert scores.count(max(scores)) > 1
            else:
                side = outcome["winners"][0] % sides
                assert outcome["winners"] == list(range(side, players, sides))
                assert scores[side] == max(scores) and scores.count(max(scores)) == 1
        elif name == "korova":
            assert not outcome["draw"]
            assert max(scores) >= QUICK_OPTIONS["korova"]["end_score"]
            assert outcome["winners"] == [s for s in range(players) if scores[s] == min(scores)]
        else:
            assert not outcome["draw"]
            assert outcome["winners"] == [scores.index(max(scores))]
            assert max(scores) >= QUICK_OPTIONS["conquian"]["target"] > min(scores)


def convoy_table(players, hands, turn=0, convoys=()):
    """A Convoy dump: every card square covered (sides in turn), the deck used up."""
    eng = get_engine("convoy")
    data = eng.dump(eng.new_game(players=players, seed=1))
    sides = sides_of("convoy", players)
    rows = []
    for r in range(10):
        row = ""
        for c in range(10):
            corner = r in (0, 9) and c in (0, 9)
            row += "." if corner else str((r * 10 + c) % sides)
        rows.append(row)
    for convoy in convoys:
        for r, c in convoy["cells"]:
            rows[r] = rows[r][:c] + str(convoy["side"]) + rows[r][c + 1 :]
    data.update(board=rows, convoys=list(convoys), hands=hands, drawn=108, turn=turn)
    return data


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_convoy_a_seat_that_cannot_play_passes_and_the_game_goes_on(players):
    eng = get_engine("convoy")
    hands = [["AS", "7H"]] + [["JS"]] * (players - 1)  # every square is covered
    state = eng.load(convoy_table(players, hands))
    assert eng.legal_moves(state, 0) == [{"pass": True}]
    for move in ({"card": "AS", "square": [0, 1]}, {"card": "AS", "exchange": True}):
        with pytest.raises(IllegalMove):
            eng.apply(state, 0, move)
    for value in (False, 1, "true", None):
        with pytest.raises(IllegalMove):
            eng.apply(state, 0, {"pass": value})
    state = eng.apply(state, 0, {"pass": True})
    assert eng.to_act(state) == [1] and not eng.is_over(state)
    assert any("remove" in move for move in eng.legal_moves(state, 1))
    # a seat that can still play may not pass
    with pytest.raises(IllegalMove):
        eng.apply(state, 1, {"pass": True})


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_convoy_stalemate_is_a_draw_and_a_single_leader_wins(players):
    eng = get_engine("convoy")
    hands = [["AS"]] * players
    state = eng.apply(eng.load(convoy_table(players, hands)), 0, {"pass": True})
    assert eng.is_over(state)
    sides = sides_of("convoy", players)
    assert eng.outcome(state) == {"winners": [], "draw": True, "scores": [0] * sides}
    convoy = {"side": 1, "cells": [[1, 0], [1, 1], [1, 2], [1, 3]]}
    state = eng.apply(eng.load(convoy_table(players, hands, convoys=[convoy])), 0, {"pass": True})
    assert eng.is_over(state)
    scores = [0] * sides
    scores[1] = 1
    winners = list(range(1, players, sides))
    assert eng.outcome(state) == {"winners": winners, "draw": False, "scores": scores}


@pytest.mark.parametrize("players", [2, 3, 4, 10])
def test_korova_players_level_on_the_lowest_total_all_win(players):
    eng = get_engine("korova")
    data = eng.dump(eng.new_game(players=players, seed=1))
    data["sheet"] = [[10] * (players - 1) + [70]]
    data["over"] = True
    outcome = eng.outcome(eng.load(data))
    assert outcome == {
        "winners": list(range(players - 1)),
        "draw": False,
        "scores": [10] * (players - 1) + [70],
    }
