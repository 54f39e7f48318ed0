"""The Convoy engine and the protocol (docs/engines.md): malformed moves, pure apply and timeout,
views, dump and load, seeds."""

import json

import pytest

from games.engines import IllegalMove
from tests.games.engines.convoy_situations import ENGINE, position

# -- protocol --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        None,
        "QH",
        ["QH", [2, 4]],
        {},
        {"card": "QH"},
        {"square": [2, 4]},
        {"card": "QH", "square": [2, 4], "pass": True},
        {"card": "QH", "spot": [2, 4]},
        {"card": "ZZ", "square": [2, 4]},
        {"card": ["QH"], "square": [2, 4]},
        {"card": "QH", "square": [10, 4]},
        {"card": "QH", "square": [2, -1]},
        {"card": "QH", "square": [2]},
        {"card": "QH", "square": [2, 4, 0]},
        {"card": "QH", "square": [True, 4]},
        {"card": "QH", "square": [2.0, 4]},
        {"card": "QH", "square": "2,4"},
        {"card": "QH", "square": None},
        {"card": "JS", "remove": "2,4"},
        {"card": "JS", "remove": [[2]]},
        {"card": "JS", "remove": [None]},
        {"card": "JS", "remove": {"2": 4}},
        {"card": "QH", "exchange": "yes"},
        {"card": "QH", "exchange": False},
        {"pass": False},
        {"pass": "true"},
        {1: 2},
    ],
)
def test_a_malformed_move_is_an_illegal_move_with_a_sentence(move):
    state = position(hands=[["QH", "JS"], ["AS"]], counters={(3, 3): 1}, stock=["KH"])
    with pytest.raises(IllegalMove) as refused:
        ENGINE.apply(state, 0, move)
    assert str(refused.value)


def test_apply_and_timeout_leave_their_input_unchanged():
    state = position(hands=[["QH", "JS"], ["AS"]], counters={(3, 3): 1}, stock=["KH"])
    before = json.dumps(ENGINE.dump(state))
    ENGINE.apply(state, 0, {"card": "QH", "square": [2, 4]})
    ENGINE.apply(state, 0, {"card": "JS", "remove": [[3, 3]]})
    ENGINE.timeout(state, 0)
    assert json.dumps(ENGINE.dump(state)) == before


def _keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def test_a_view_shows_only_what_the_seat_may_see():
    state = ENGINE.new_game(players=4, seed=9)
    player = ENGINE.view(state, 1)
    spectator = ENGINE.view(state, None)
    json.dumps(player)
    json.dumps(spectator)
    for key in ("hand", "stock", "board", "convoys", "to_act", "sides", "counters_left"):
        assert key in player
    assert player["hand"] == list(ENGINE.dump(state)["hands"][1])
    assert "hand" not in spectator
    assert not {"deck", "seed", "hands"} & set(_keys(player))
    assert not {"deck", "seed", "hands"} & set(_keys(spectator))


def test_dump_is_json_and_load_restores_the_state():
    state = ENGINE.new_game(players=3, seed=11)
    for _ in range(20):
        (seat,) = ENGINE.to_act(state)
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[-1])
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state
    assert ENGINE.dump(ENGINE.load(data)) == data


def test_the_outcome_of_a_game_in_progress_names_no_winner():
    state = ENGINE.new_game(players=2, seed=1)
    assert ENGINE.outcome(state) == {"winners": [], "draw": False, "scores": [0, 0]}


def test_the_same_seed_deals_the_same_game():
    one, two = ENGINE.new_game(players=4, seed=8), ENGINE.new_game(players=4, seed=8)
    assert one == two
    assert ENGINE.new_game(players=4, seed=9) != one
