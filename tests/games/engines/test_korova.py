"""Корова 006 rules engine: a test per rule (docs/rules.md) and per point of docs/engines.md."""

import json
from unittest import mock

import pytest

from games.engines import IllegalMove, get_engine, korova
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

ALL_CARDS = list(range(1, 105))


def deck_for(hands, rows, cards=ALL_CARDS):
    """A fixed deck that deals `hands` (10 cards each) and starts the rows with `rows`."""
    n = len(hands)
    deck = [hands[seat][k] for k in range(10) for seat in range(n)] + list(rows)
    used = set(deck)
    return deck + [card for card in cards if card not in used]


def arrange(hands, rows, options=None):
    """A first-round state with these hands and rows (rows may hold several cards).

    Built through the protocol (a fixed deck), then the extra row cards are moved
    from the set-aside cards into the rows by editing the dump.
    """
    state = ENGINE.new_game(
        len(hands), seed=1, options=options, deck=deck_for(hands, [r[0] for r in rows])
    )
    data = ENGINE.dump(state)
    extra = {card for row in rows for card in row[1:]}
    assert extra <= set(data["aside"]), "row cards must come from the set-aside cards"
    data["rows"] = [list(row) for row in rows]
    data["aside"] = [card for card in data["aside"] if card not in extra]
    return ENGINE.load(data)


LOW_ROWS = [[12], [20], [30], [40]]  # above every card of hand(1)


def hand(first, step=1):
    return [first + step * k for k in range(10)]


def play_turn(state, cards):
    """Every seat picks its card (seat order); returns the state after the reveal."""
    for seat, card in enumerate(cards):
        state = ENGINE.apply(state, seat, {"card": card})
    return state


def card_places(state):
    """Every card in play, by where it is; each must be in exactly one place."""
    places = [card for h in state.hands for card in h]
    places += [card for row in state.rows for card in row]
    places += [card for card, _ in state.picks]
    if state.pending is not None:
        places += [card for card, _ in state.reveal[state.pending :]]
    places += [card for pile in state.piles for card in pile]
    places += list(state.aside)
    return places


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


def finish_round(state):
    """Play time-outs until the round ends (or the game)."""
    round_no = state.round
    while not ENGINE.is_over(state) and state.round == round_no:
        state = ENGINE.timeout(state, ENGINE.to_act(state)[0])
    return state


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


# --- A turn: simultaneous hidden picks ------------------------------------------------------


def test_everyone_picks_at_once_to_act_is_every_seat_that_has_not_picked():
    state = ENGINE.new_game(4, seed=1)
    assert ENGINE.to_act(state) == [0, 1, 2, 3]
    state = ENGINE.apply(state, 2, ENGINE.legal_moves(state, 2)[0])
    assert ENGINE.to_act(state) == [0, 1, 3]
    state = ENGINE.apply(state, 0, ENGINE.legal_moves(state, 0)[0])
    assert ENGINE.to_act(state) == [1, 3]


def test_a_seat_that_picked_leaves_to_act_and_cannot_change_its_pick():
    state = ENGINE.new_game(4, seed=1)
    first, second = state.hands[1][:2]
    state = ENGINE.apply(state, 1, {"card": first})
    assert ENGINE.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="you have already picked a card this turn"):
        ENGINE.apply(state, 1, {"card": second})
    with pytest.raises(IllegalMove, match="it is not your turn"):
        ENGINE.timeout(state, 1)
    assert ENGINE.view(state, 1)["my_pick"] == first


def test_nobody_sees_a_pick_until_all_have_chosen():
    state = ENGINE.new_game(3, seed=4)
    before = {seat: ENGINE.view(state, seat) for seat in (0, 2, None)}
    picked = state.hands[1][3]
    state = ENGINE.apply(state, 1, {"card": picked})
    for seat in (0, 2, None):
        view = ENGINE.view(state, seat)
        assert view["picked"] == [False, True, False]
        assert view["to_act"] == [0, 2]
        # Only "picked" and "to_act" changed: nothing shows which card it is.
        assert {k: v for k, v in view.items() if k not in ("picked", "to_act")} == {
            k: v for k, v in before[seat].items() if k not in ("picked", "to_act")
        }
    assert ENGINE.view(state, 1)["my_pick"] == picked
    assert ENGINE.view(state, 0)["my_pick"] is None
    assert "my_pick" not in ENGINE.view(state, None)


def test_card_goes_on_the_row_whose_last_card_is_the_highest_below_it():
    state = arrange([hand(61), hand(41)], [[10], [40], [25], [60]])
    state = play_turn(state, [61, 41])  # 41: rows end 10, 40, 25, 60 -> 40; 61 -> 60
    assert ENGINE.view(state, None)["rows"] == [[10], [40, 41], [25], [60, 61]]


def test_revealed_cards_are_placed_in_ascending_order():
    # Both cards fit only on row 1; the lower one goes first, whoever picked first.
    state = arrange([hand(45, 2), hand(44, 2)], [[10], [40], [25], [90]])
    state = ENGINE.apply(state, 0, {"card": 45})
    state = ENGINE.apply(state, 1, {"card": 44})
    assert state.rows[1] == (40, 44, 45)
    assert ENGINE.view(state, 0)["last_turn"] == [{"seat": 1, "card": 44}, {"seat": 0, "card": 45}]


def test_sixth_card_takes_the_row():
    state = arrange([hand(15), hand(85)], [[10, 11, 12, 13, 14], [30], [50], [70]])
    state = play_turn(state, [15, 85])
    view = ENGINE.view(state, 0)
    assert view["rows"] == [[15], [30], [50], [70, 85]]
    assert state.piles[0] == (10, 11, 12, 13, 14)
    assert view["taken"] == [3 + 5 + 1 + 1 + 1, 0]


def test_fifth_card_does_not_take_the_row():
    state = arrange([hand(14), hand(85)], [[10, 11, 12, 13], [30], [50], [70]])
    state = play_turn(state, [14, 85])
    assert state.rows[0] == (10, 11, 12, 13, 14)
    assert ENGINE.view(state, 0)["taken"] == [0, 0]


def test_a_card_lower_than_every_row_pauses_placement_for_its_players_row_choice():
    state = arrange([hand(1), hand(41)], LOW_ROWS)
    state = play_turn(state, [5, 45])
    assert ENGINE.to_act(state) == [0]
    assert ENGINE.legal_moves(state, 0) == [{"row": 0}, {"row": 1}, {"row": 2}, {"row": 3}]
    assert ENGINE.legal_moves(state, 1) == []
    assert state.rows == ((12,), (20,), (30,), (40,))  # nothing placed yet


def test_the_choosing_player_sees_all_revealed_cards():
    state = arrange([hand(1), hand(41), hand(61)], LOW_ROWS)
    state = play_turn(state, [5, 45, 62])
    for seat in (0, 1, 2, None):
        view = ENGINE.view(state, seat)
        assert view["pending_row_choice"] == 0
        assert view["revealed"] == [
            {"seat": 0, "card": 5},
            {"seat": 1, "card": 45},
            {"seat": 2, "card": 62},
        ]
        assert view["picked"] == [True, True, True]
        assert view["to_act"] == [0]


def test_the_chosen_row_is_taken_and_the_card_starts_it_then_placement_goes_on():
    state = arrange([hand(1), [*range(23, 30), 31, 32, 33]], [[12], [20, 21], [30], [40]])
    state = play_turn(state, [5, 25])
    state = ENGINE.apply(state, 0, {"row": 1})
    view = ENGINE.view(state, 0)
    assert state.piles[0] == (20, 21)
    assert view["taken"] == [3 + 1, 0]
    assert view["rows"] == [[12, 25], [5], [30], [40]]  # 25 then went after 12
    assert view["pending_row_choice"] is None and view["revealed"] == []
    assert view["turn"] == 2 and ENGINE.to_act(state) == [0, 1]


def test_only_the_choosing_player_may_act_during_a_row_choice():
    state = play_turn(arrange([hand(1), hand(41)], LOW_ROWS), [5, 45])
    with pytest.raises(IllegalMove, match="it is not your turn"):
        ENGINE.apply(state, 1, {"row": 0})
    with pytest.raises(IllegalMove, match="it is not your turn"):
        ENGINE.apply(state, 1, {"card": 46})


def test_a_row_choice_needs_a_row_not_a_card():
    state = play_turn(arrange([hand(1), hand(41)], LOW_ROWS), [5, 45])
    with pytest.raises(IllegalMove, match="you must choose a row to take, not play a card"):
        ENGINE.apply(state, 0, {"card": 6})
    for bad in (4, -1, "1", 1.0, True, None):
        with pytest.raises(IllegalMove, match="choose a row from 0 to 3"):
            ENGINE.apply(state, 0, {"row": bad})


def test_a_row_cannot_be_taken_while_picking():
    state = ENGINE.new_game(4, seed=1)
    with pytest.raises(IllegalMove, match="lower than the last card of every row"):
        ENGINE.apply(state, 0, {"row": 0})


# --- Scoring and the end of the game --------------------------------------------------------


def test_scores_include_heads_taken_in_the_current_round():
    state = arrange([hand(15), hand(85)], [[10, 11, 12, 13, 14], [30], [50], [70]])
    state = play_turn(state, [15, 85])
    assert ENGINE.view(state, 1)["scores"] == [11, 0]
    assert state.totals == (0, 0)


def test_after_ten_turns_each_player_adds_the_heads_taken():
    ended = []
    original = korova._end_round

    def spy(finished):
        ended.append(finished)
        return original(finished)

    state = ENGINE.new_game(4, seed=21, options={"end_score": 500})
    with mock.patch.object(korova, "_end_round", spy):
        for round_no in (1, 2):
            turns = []
            while state.round == round_no:
                turns.append(state.turn)
                state = ENGINE.timeout(state, ENGINE.to_act(state)[0])
            assert max(turns) == 10
    first, second = ended
    taken = [[sum(heads(card) for card in pile) for pile in f.piles] for f in ended]
    assert all(h == () for h in first.hands)
    assert [list(r) for r in state.sheet] == taken
    assert list(state.totals) == [a + b for a, b in zip(*taken, strict=True)]
    assert ENGINE.view(state, 0)["sheet"] == taken
    assert state.round == 3 and state.turn == 1 and state.piles == ((),) * 4


def test_rounds_repeat_until_someone_has_the_end_score_at_the_end_of_a_round():
    state = ENGINE.new_game(4, seed=8)
    round_end_totals = []
    while not ENGINE.is_over(state):
        before = state
        state = ENGINE.timeout(state, ENGINE.to_act(state)[0])
        if state.round != before.round or ENGINE.is_over(state):
            round_end_totals.append(list(state.totals))
    assert len(round_end_totals) == len(state.sheet) == state.round > 1
    assert all(max(totals) < 66 for totals in round_end_totals[:-1])
    assert max(round_end_totals[-1]) >= 66
    assert ENGINE.to_act(state) == [] and ENGINE.legal_moves(state, 0) == []


def test_the_game_does_not_end_mid_round_even_past_the_end_score():
    state = arrange(
        [hand(15), hand(85)], [[10, 11, 12, 13, 14], [30], [50], [70]], {"end_score": 5}
    )
    state = play_turn(state, [15, 85])
    assert ENGINE.view(state, 0)["scores"][0] >= 5
    assert not ENGINE.is_over(state)
    state = finish_round(state)
    assert ENGINE.is_over(state)
    assert len(state.sheet) == 1


def test_end_score_option_sets_the_end():
    for end_score in (1, 30):
        state = ENGINE.new_game(3, seed=2, options={"end_score": end_score})
        while not ENGINE.is_over(state):
            state = ENGINE.timeout(state, ENGINE.to_act(state)[0])
        assert max(state.totals) >= end_score
        assert all(max(map(sum, zip(*state.sheet[:k], strict=True))) < end_score
                   for k in range(1, len(state.sheet)))  # fmt: skip


def test_lowest_total_wins_and_players_level_on_it_share_the_win():
    data = ENGINE.dump(ENGINE.new_game(3, seed=1))
    data["sheet"], data["over"] = [[30, 12, 40], [10, 28, 30]], True
    state = ENGINE.load(data)
    assert ENGINE.outcome(state) == {"winners": [0, 1], "draw": False, "scores": [40, 40, 70]}
    assert ENGINE.view(state, None)["scores"] == [40, 40, 70]


def test_outcome_of_a_played_game():
    state = ENGINE.new_game(5, seed=13)
    while not ENGINE.is_over(state):
        state = ENGINE.timeout(state, ENGINE.to_act(state)[0])
    outcome = ENGINE.outcome(state)
    assert outcome["draw"] is False
    assert outcome["scores"] == list(state.totals)
    assert outcome["winners"] == winners(outcome["scores"])
    json.dumps(outcome)


def test_classic_edition_scores_55_as_seven():
    state = arrange(
        [hand(56), hand(85)], [[51, 52, 53, 54, 55], [30], [10], [70]], {"edition": "classic"}
    )
    state = play_turn(state, [56, 85])
    assert ENGINE.view(state, 0)["taken"] == [1 + 1 + 1 + 1 + 7, 0]
    assert ENGINE.view(state, 0)["edition"] == "classic"


# --- Timer ----------------------------------------------------------------------------------


def test_timeout_plays_the_lowest_card_in_hand():
    state = ENGINE.new_game(4, seed=3)
    lowest = min(state.hands[2])
    timed_out = ENGINE.timeout(state, 2)
    assert timed_out == ENGINE.apply(state, 2, {"card": lowest})
    assert ENGINE.view(timed_out, 2)["my_pick"] == lowest


def test_timeout_on_a_row_choice_takes_the_row_with_fewest_heads():
    state = play_turn(arrange([hand(1), hand(61)], [[11], [12], [13], [55]]), [5, 61])
    state = ENGINE.timeout(state, 0)  # rows hold 5, 1, 1, 6 heads: row 1, the lower index
    assert state.piles[0] == (12,)
    assert ENGINE.view(state, 0)["rows"] == [[11], [5], [13], [55, 61]]


def test_timeout_on_a_row_choice_takes_the_lowest_index_when_heads_tie():
    state = play_turn(arrange([hand(1), hand(61)], [[20], [50], [30], [40]]), [5, 61])
    state = ENGINE.timeout(state, 0)  # every row holds 3 heads
    assert state.piles[0] == (20,)


def test_timeout_for_a_seat_that_need_not_act_is_refused():
    state = play_turn(arrange([hand(1), hand(41)], LOW_ROWS), [5, 45])
    for seat in (1, 2, -1, "0", None):
        with pytest.raises(IllegalMove, match="it is not your turn"):
            ENGINE.timeout(state, seat)


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
