"""The Conquian engine and the protocol (docs/engines.md): time-outs, player counts, options,
seeds and decks, malformed moves, views, dump and load. Moves: see test_conquian_melds.py."""

import json

import pytest

from games.engines import IllegalMove, get_engine
from games.engines.conquian import ENGINE, OPTIONS
from games.engines.conquian_melds import BIT_OF, CODES, codes_of
from games.engines.options import resolve_options
from tests.games.engines.conquian_situations import (
    OUT_HAND,
    OUT_MELDS,
    QUIET,
    QUIET_1,
    make_deck,
    position,
)

# -- time-outs ----------------------------------------------------------------------------------


def test_the_engine_declares_its_options_and_not_the_tables_clock():
    assert "turn_seconds" not in resolve_options(OPTIONS, None)
    assert ENGINE.options is OPTIONS


def test_timeout_facing_an_offered_card_rejects_it():
    state = position([["KD", "KH", 8], 10], "KC", stock=["2H", "3H"])
    assert ENGINE.dump(ENGINE.timeout(state, 0)) == ENGINE.dump(
        ENGINE.apply(state, 0, {"reject": True})
    )


def test_timeout_facing_a_card_you_turned_leaves_it_open():
    state = ENGINE.new_game(players=2, seed=None, deck=make_deck(QUIET, QUIET_1, ["KC"]))
    assert ENGINE.dump(ENGINE.timeout(state, 0)) == ENGINE.dump(
        ENGINE.apply(state, 0, {"pass": True})
    )


def test_timeout_owing_a_discard_discards_the_first_card_in_sort_order():
    state = position([["KD", "2H", "AC", "QS"], 10], None, phase="discard")
    after = ENGINE.timeout(state, 0)
    assert ENGINE.view(after, 1)["open_card"] == "QS"  # sort order: S H D C, then A to K


def test_timeout_when_forced_adds_the_card_to_the_melds():
    state = position([7, 7], "6D", phase="forced",
                     melds=(["3D", "4D", "5D"], ["7H", "7C", "7S"]))  # fmt: skip
    after = ENGINE.timeout(state, 0)
    assert ENGINE.dump(after) == ENGINE.dump(ENGINE.apply(state, 0, {"meld": []}))
    assert ENGINE.legal_moves(state, 0)[0] == {"meld": []}


def test_timeout_of_a_seat_not_to_act_is_refused():
    state = position([10, 10], "KC")
    with pytest.raises(IllegalMove, match="It is not your turn"):
        ENGINE.timeout(state, 1)


# -- protocol ---------------------------------------------------------------------------------


def test_get_engine_finds_conquian():
    assert get_engine("conquian") is ENGINE


@pytest.mark.parametrize("players", [1, 3, 4, True, "2"])
def test_conquian_is_for_exactly_two_players(players):
    with pytest.raises(ValueError, match="2 players"):
        ENGINE.new_game(players=players, seed=1)


@pytest.mark.parametrize(("options", "name"), [
    ({"target": 0}, "target"), ({"target": "5"}, "target"), ({"carry_over": "triple"}, "carry_over"),
    ({"forcing": 1}, "forcing"), ({"jokers": 2}, "jokers"),
])  # fmt: skip
def test_bad_options_name_the_option(options, name):
    with pytest.raises(ValueError, match=name):
        ENGINE.new_game(players=2, seed=1, options=options)


def test_seed_may_be_none_only_with_a_deck():
    with pytest.raises(ValueError, match="seed"):
        ENGINE.new_game(players=2, seed=None)
    state = ENGINE.new_game(players=2, seed=None, deck=list(CODES))
    assert ENGINE.view(state, 0)["hand"] == list(CODES[0:20:2])


@pytest.mark.parametrize("deck", [CODES[:39], [*CODES[:39], "AS"], [*CODES[:39], "8S"], "AS"])
def test_a_bad_deck_is_refused(deck):
    with pytest.raises(ValueError, match="deck"):
        ENGINE.new_game(players=2, seed=None, deck=list(deck) if deck != "AS" else deck)


def test_same_seed_and_options_give_the_same_game():
    assert ENGINE.dump(ENGINE.new_game(players=2, seed=9)) == ENGINE.dump(
        ENGINE.new_game(players=2, seed=9)
    )
    assert ENGINE.dump(ENGINE.new_game(players=2, seed=9)) != ENGINE.dump(
        ENGINE.new_game(players=2, seed=10)
    )


@pytest.mark.parametrize("move", [
    "reject", None, [], {}, {"reject": False}, {"reject": 1}, {"meld": "7D"}, {"meld": [7]},
    {"meld": ["8D"]}, {"discard": 5}, {"reject": True, "meld": []}, {"take": "KC"},
    {"pass": True, "force": "yes"}, {1: True},
])  # fmt: skip
def test_malformed_moves_are_illegal_moves(move):
    state = position([["7D", "7C", 8], 10], "7H")
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, 0, move)


def test_a_seat_out_of_turn_is_told_so():
    state = ENGINE.new_game(players=2, seed=1)
    for seat in (1, 2, -1, "0", None, True):
        with pytest.raises(IllegalMove, match="It is not your turn"):
            ENGINE.apply(state, seat, {"pass": True})


def test_apply_does_not_change_its_input():
    state = position([["7D", "7C", 8], 10], "7H")
    before = ENGINE.dump(state)
    ENGINE.apply(state, 0, {"meld": ["7D", "7C"]})
    ENGINE.timeout(state, 0)
    assert ENGINE.dump(state) == before


def test_view_holds_what_the_seat_may_see():
    state = ENGINE.new_game(players=2, seed=4)
    view = ENGINE.view(state, 0)
    assert {
        "hand", "stock", "open_card", "melds", "scores", "deal_value", "deal_number", "dealer",
        "to_act", "phase", "hand_counts", "dead_pile",
    } <= set(view)  # fmt: skip
    assert view["hand_counts"] == [10, 10] and view["stock"] == 19 and view["dead_pile"] == 0
    assert view["melds"] == [[], []] and view["scores"] == [0, 0] and view["deal_value"] == 1
    spectator = ENGINE.view(state, None)
    assert "hand" not in spectator
    text = json.dumps([view, spectator, ENGINE.view(state, 1)])
    assert '"deck"' not in text and '"seed"' not in text
    assert not set(ENGINE.view(state, 1)["hand"]) & set(view["hand"])


def test_dump_is_json_and_load_restores_the_state():
    state = ENGINE.new_game(players=2, seed=8)
    for _ in range(15):
        seat = ENGINE.to_act(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[-1])
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state and ENGINE.dump(ENGINE.load(data)) == data
    assert len(json.dumps(data)) < 16 * 1024


def test_load_refuses_a_state_that_loses_a_card():
    data = ENGINE.dump(ENGINE.new_game(players=2, seed=8))
    data["stock"] = data["stock"][1:]
    with pytest.raises(ValueError, match="40 cards"):
        ENGINE.load(data)


def test_melds_are_shown_laid_out_and_stored_as_cards():
    state = position([4, 4], None, phase="discard",
                     melds=(["3S", "4S", "5S", "6S", "7H", "7D", "7C"], []))  # fmt: skip
    assert ENGINE.view(state, 1)["melds"][0] == [["3S", "4S", "5S", "6S"], ["7H", "7D", "7C"]]
    assert codes_of(sum(BIT_OF[c] for c in ["7C", "3S"])) == ["3S", "7C"]


def test_the_documented_example_plays_as_described():
    seat0 = ["AS", "3H", "5D", "7C", "QS", "2D", "4C", "6S", "JH", "QD"]
    seat1 = ["KH", "KD", "2S", "4H", "6D", "JC", "AD", "3C", "5S", "7H"]
    state = ENGINE.new_game(players=2, seed=None, deck=make_deck(seat0, seat1, ["KC", "KS"]))
    steps = [
        (0, {"pass": True}, "facing"),
        (1, {"meld": ["KH", "KD"]}, "discard"),
        (1, {"discard": "2S"}, "facing"),
        (0, {"reject": True}, "turned"),
        (0, {"pass": True, "force": True}, "forced"),
        (1, {"meld": []}, "discard"),
    ]
    for seat, move, phase in steps:
        state = ENGINE.apply(state, seat, move)
        assert ENGINE.view(state, None)["phase"] == phase
    assert ENGINE.view(state, None)["melds"] == [[], [["KS", "KH", "KD", "KC"]]]


def test_milestones_count_finished_deals_for_statistics():
    state = position([10, 10], "KC", stock=[])
    drawn = ENGINE.apply(state, 0, {"reject": True})
    assert ENGINE.milestones(state, drawn) == ("deals", "drawn deals")
    assert ENGINE.milestones(drawn, drawn) == ()
    state = position([OUT_HAND, 10], "6D", melds=(OUT_MELDS, []))
    assert ENGINE.milestones(state, ENGINE.apply(state, 0, {"meld": OUT_HAND})) == (
        "deals",
        "won deals",
    )
