"""Корова 006 rules engine: a test per rule (docs/rules.md) and per point of docs/engines.md: the
rule functions the scoring app uses, options and set-up, the protocol. Turns, scoring and the
timer are in test_korova_rounds.py."""

import json

import pytest

from games.engines import IllegalMove, get_engine
from games.engines.korova import (
    DEFAULT_END_SCORE,
    EDITIONS,
    ENGINE,
    OPTIONS,
    deck_heads,
    game_over,
    heads,
    winners,
)
from games.engines.rng import shuffled
from tests.games.engines.korova_situations import (
    ALL_CARDS,
    LOW_ROWS,
    arrange,
    card_places,
    finish_round,
    hand,
    play_turn,
)

# --- The rule functions used by the scoring app -------------------------------------------


def test_heads_korova_006_edition():
    expected = {1: 1, 2: 1, 5: 2, 15: 2, 95: 2, 10: 3, 50: 3, 100: 3, 11: 5, 22: 5, 44: 5,
                66: 5, 77: 5, 88: 5, 99: 5, 55: 6, 104: 1}  # fmt: skip
    for card, count in expected.items():
        assert heads(card) == heads(card, "korova-006") == count, card


def test_heads_classic_edition_gives_55_seven_heads():
    assert heads(55, "classic") == 7
    assert [heads(card, "classic") for card in ALL_CARDS if card != 55] == [
        heads(card) for card in ALL_CARDS if card != 55
    ]


def test_deck_heads_totals_170_and_171():
    assert deck_heads() == deck_heads("korova-006") == 170
    assert deck_heads("classic") == 171
    assert deck_heads("korova-006", [10, 11, 55]) == 14
    assert deck_heads("classic", cards=range(1, 35)) == sum(
        heads(c, "classic") for c in range(1, 35)
    )


def test_heads_rejects_a_card_outside_1_to_104_and_an_unknown_edition():
    for bad in (0, 105, "5", 5.0, True, None):
        with pytest.raises(ValueError, match="card"):
            heads(bad)
    with pytest.raises(ValueError, match="edition"):
        heads(5, "deluxe")
    with pytest.raises(ValueError, match="edition"):
        deck_heads("deluxe")


def test_game_over_when_someone_reaches_the_end_score():
    assert not game_over([0, 65, 12], 66)
    assert game_over([0, 66, 12], 66)
    assert game_over([80, 3], 66)
    assert not game_over([], 66)


def test_winners_are_the_seats_level_on_the_lowest_total():
    assert winners([20, 7, 70, 30]) == [1]
    assert winners([20, 7, 70, 7]) == [1, 3]
    assert winners([5, 5]) == [0, 1]
    assert winners([]) == []


def test_module_exports_the_names_the_scoring_app_imports():
    assert EDITIONS == ("korova-006", "classic")
    assert DEFAULT_END_SCORE == 66
    assert get_engine("korova") is ENGINE
    assert ENGINE.options is OPTIONS


# --- Options and set-up ---------------------------------------------------------------------


def test_options_and_their_defaults():
    defaults = {option.name: option.default for option in OPTIONS}
    assert defaults == {
        "edition": "korova-006",
        "end_score": 66,
        "tactical": False,
    }
    data = ENGINE.dump(ENGINE.new_game(4, seed=3))
    assert data["options"] == defaults


def test_unknown_option_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="hand_size"):
        ENGINE.new_game(4, seed=1, options={"hand_size": 8})


@pytest.mark.parametrize(
    ("name", "value"),
    [("edition", "deluxe"), ("end_score", "66"), ("end_score", 0), ("tactical", 1)],
)  # fmt: skip
def test_bad_option_value_raises_value_error_naming_it(name, value):
    with pytest.raises(ValueError, match=name):
        ENGINE.new_game(4, seed=1, options={name: value})


@pytest.mark.parametrize("players", [1, 11, 0, "4", 4.0, True, None])
def test_two_to_ten_players(players):
    with pytest.raises(ValueError, match="players"):
        ENGINE.new_game(players, seed=1)


def test_two_and_ten_players_can_play():
    for players in (2, 10):
        state = ENGINE.new_game(players, seed=9)
        assert ENGINE.to_act(state) == list(range(players))
        assert all(len(h) == 10 for h in state.hands)


def test_round_deals_ten_each_four_rows_and_sets_the_rest_aside():
    state = ENGINE.new_game(4, seed=11)
    view = ENGINE.view(state, 0)
    assert len(view["hand"]) == 10
    assert [len(row) for row in view["rows"]] == [1, 1, 1, 1]
    assert view["stock"] == 104 - 40 - 4
    assert sorted(card_places(state)) == ALL_CARDS


def test_deck_is_dealt_one_at_a_time_then_starts_rows_0_to_3():
    deck = list(range(104, 0, -1))  # 104 on top
    state = ENGINE.new_game(3, seed=None, deck=deck)
    assert ENGINE.view(state, 0)["hand"] == sorted(deck[0:30:3])
    assert ENGINE.view(state, 1)["hand"] == sorted(deck[1:30:3])
    assert ENGINE.view(state, 2)["hand"] == sorted(deck[2:30:3])
    assert ENGINE.view(state, None)["rows"] == [[deck[30]], [deck[31]], [deck[32]], [deck[33]]]
    assert sorted(state.aside) == sorted(deck[34:])


def test_seed_alone_shuffles_reproducibly():
    assert ENGINE.new_game(4, seed=5) == ENGINE.new_game(4, seed=5)
    assert ENGINE.new_game(4, seed=5).hands != ENGINE.new_game(4, seed=6).hands
    order = shuffled(ALL_CARDS, 5, "round", 1)
    assert ENGINE.new_game(4, seed=5).rows == tuple((card,) for card in order[40:44])


def test_seed_may_be_left_out_only_with_a_deck():
    with pytest.raises(ValueError, match="seed"):
        ENGINE.new_game(4, seed=None)
    with pytest.raises(ValueError, match="seed"):
        ENGINE.new_game(4, seed="7")


@pytest.mark.parametrize(
    "deck",
    [ALL_CARDS[:-1], ALL_CARDS[:-1] + [1], ALL_CARDS + [105], "1,2,3", [str(c) for c in ALL_CARDS]],
)
def test_deck_must_hold_every_card_in_play_once(deck):
    with pytest.raises(ValueError, match="deck"):
        ENGINE.new_game(4, seed=1, deck=deck)


def test_deck_fixes_the_first_round_only_later_rounds_come_from_the_seed():
    deck = list(range(104, 0, -1))
    for seed, expected_seed in ((5, 5), (None, 0)):
        state = finish_round(ENGINE.new_game(4, seed=seed, deck=deck))
        assert state.round == 2
        order = shuffled(ALL_CARDS, expected_seed, "round", 2)
        assert state.hands[1] == tuple(sorted(order[1:40:4]))
        assert state.rows == tuple((card,) for card in order[40:44])


def test_tactical_uses_only_cards_up_to_ten_per_player_plus_four():
    state = ENGINE.new_game(3, seed=2, options={"tactical": True})
    assert sorted(card_places(state)) == list(range(1, 35))
    assert ENGINE.view(state, 0)["stock"] == 0
    later = finish_round(state)
    assert sorted(card_places(later)) == list(range(1, 35))


def test_tactical_deck_lists_only_the_cards_in_play():
    deck = list(range(34, 0, -1))
    state = ENGINE.new_game(3, seed=None, options={"tactical": True}, deck=deck)
    assert state.rows == ((4,), (3,), (2,), (1,))
    with pytest.raises(ValueError, match="deck"):
        ENGINE.new_game(3, seed=None, options={"tactical": True}, deck=ALL_CARDS)


# --- Protocol -------------------------------------------------------------------------------


def test_legal_moves_are_the_hand_for_a_seat_to_act_and_empty_for_others():
    state = ENGINE.new_game(4, seed=1)
    assert ENGINE.legal_moves(state, 0) == [{"card": card} for card in sorted(state.hands[0])]
    state = ENGINE.apply(state, 0, {"card": state.hands[0][0]})
    assert ENGINE.legal_moves(state, 0) == []
    assert ENGINE.legal_moves(state, 7) == [] and ENGINE.legal_moves(state, "1") == []
    for seat in ENGINE.to_act(state):
        assert ENGINE.legal_moves(state, seat)
        json.dumps(ENGINE.legal_moves(state, seat))


def test_a_card_not_in_hand_is_refused():
    state = arrange([hand(1), hand(41)], [[90], [91], [92], [93]])
    with pytest.raises(IllegalMove, match="^55 is not in your hand$"):
        ENGINE.apply(state, 0, {"card": 55})
    with pytest.raises(IllegalMove, match="41 is not in your hand"):
        ENGINE.apply(state, 0, {"card": 41})
    with pytest.raises(IllegalMove, match="999 is not in your hand"):
        ENGINE.apply(state, 0, {"card": 999})


@pytest.mark.parametrize(
    "move",
    [None, 5, "card", [5], {}, {"cards": 5}, {"card": 5, "row": 0}, {"card": "5"},
     {"card": 5.0}, {"card": True}, {"card": None}, {"card": [5]}],
)  # fmt: skip
def test_malformed_moves_raise_illegal_move(move):
    state = arrange([hand(1), hand(41)], [[90], [91], [92], [93]])
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, 0, move)


@pytest.mark.parametrize("seat", [2, -1, "0", 0.0, None, True])
def test_a_seat_not_to_act_is_told_it_is_not_its_turn(seat):
    state = ENGINE.new_game(2, seed=1)
    with pytest.raises(IllegalMove, match="it is not your turn"):
        ENGINE.apply(state, seat, {"card": state.hands[0][0]})


def test_moves_after_the_game_are_refused():
    data = ENGINE.dump(ENGINE.new_game(2, seed=1))
    data["sheet"], data["over"] = [[70, 3]], True
    state = ENGINE.load(data)
    assert ENGINE.is_over(state) and ENGINE.to_act(state) == []
    with pytest.raises(IllegalMove, match="the game is over"):
        ENGINE.apply(state, 0, {"card": state.hands[0][0]})
    with pytest.raises(IllegalMove, match="the game is over"):
        ENGINE.timeout(state, 0)


def test_apply_and_timeout_do_not_change_their_input():
    state = ENGINE.new_game(4, seed=1)
    before = json.dumps(ENGINE.dump(state))
    ENGINE.apply(state, 0, {"card": state.hands[0][0]})
    ENGINE.timeout(state, 1)
    assert json.dumps(ENGINE.dump(state)) == before


def test_view_holds_the_contract_keys_and_a_hand_only_for_a_seat():
    state = ENGINE.new_game(4, seed=1)
    view = ENGINE.view(state, 2)
    for key in ("hand", "stock", "rows", "scores", "revealed", "pending_row_choice", "picked",
                "round", "turn", "to_act", "end_score", "edition", "my_pick", "taken"):  # fmt: skip
        assert key in view, key
    assert view["hand"] == sorted(state.hands[2])
    spectator = ENGINE.view(state, None)
    assert "hand" not in spectator and "my_pick" not in spectator
    json.dumps(view)
    with pytest.raises(ValueError, match="seat"):
        ENGINE.view(state, 4)


def test_view_never_names_a_deck_or_a_seed():
    state = ENGINE.new_game(4, seed=123456789)
    text = json.dumps([ENGINE.view(state, seat) for seat in (0, 1, 2, 3, None)])
    assert '"deck"' not in text and '"seed"' not in text and "123456789" not in text


def test_dump_is_json_and_load_rebuilds_the_exact_state():
    state = play_turn(arrange([hand(1), hand(41)], LOW_ROWS), [5, 45])
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert ENGINE.load(data) == state
    assert ENGINE.dump(ENGINE.load(data)) == data
    assert len(json.dumps(data)) <= 16 * 1024
