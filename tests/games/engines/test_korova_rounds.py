"""Корова 006 rules engine, a test per rule (docs/rules.md): a turn of simultaneous hidden picks,
row choices, scoring and the end of the game, the turn timer."""

import json
from unittest import mock

import pytest

from games.engines import IllegalMove, korova
from games.engines.korova import ENGINE, heads, winners
from tests.games.engines.korova_situations import LOW_ROWS, arrange, finish_round, hand, play_turn

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
