"""Convoy rules (docs/rules.md): sides and colours, the deck and the board, the deal and the turn
order.

Board rows used in the test_convoy_*.py tests (games/engines/convoy_board.json, row 0 at the top):

    0: ROUNDEL AS 2S 3S 4S 5S 6S 7S 8S ROUNDEL
    1: 9S TS QS KS AH 2H 3H 4H 5H 6H
    2: 7H 8H 9H TH QH KH AD 2D 3D 4D
    3: 5D 6D 7D 8D 9D TD QD KD AC 2C
    4: 3C 4C 5C 6C 7C 8C 9C TC QC KC
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.engines import convoy_board
from games.engines.convoy import FULL_DECK, OPTIONS
from tests.games.engines.convoy_situations import (
    ENGINE,
    convoy_counts,
    make_deck,
    place,
    position,
    row,
    side_counters,
)

# -- sides -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "sides"), [(2, 2), (3, 3), (4, 2), (6, 3)])
def test_sides_two_for_two_and_four_players_three_for_three_and_six(players, sides):
    view = ENGINE.view(ENGINE.new_game(players=players, seed=1), 0)
    assert view["sides"] == sides
    assert len(view["convoys"]) == sides and len(view["counters_left"]) == sides


def test_team_seats_alternate_colours_and_share_a_convoy_count():
    # 4 players: seats 0 and 2 are side 0; seat 2 completes a convoy that seat 0 began.
    state = position(
        players=4,
        hands=[[], [], ["TH"], []],
        counters=side_counters(0, row(2, 0, 1, 2)),
        turn=2,
    )
    assert ENGINE.view(state, 2)["side"] == 0 and ENGINE.view(state, 3)["side"] == 1
    state = place(state, 2, "TH", (2, 3))
    assert convoy_counts(state) == [1, 0]


def test_six_players_alternate_three_colours():
    state = ENGINE.new_game(players=6, seed=3)
    assert [ENGINE.view(state, seat)["side"] for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert ENGINE.view(state, 0)["side_colours"] == ["red", "black", "blue"]


@pytest.mark.parametrize("players", [0, 1, 5, 7, "4", 4.0, True, None])
def test_only_two_three_four_or_six_players(players):
    with pytest.raises(ValueError, match="2, 3, 4 or 6"):
        ENGINE.new_game(players=players, seed=1)


# -- cards and board -------------------------------------------------------------------------


def test_deck_is_two_packs_and_four_jokers():
    state = ENGINE.new_game(players=2, seed=5)
    data = ENGINE.dump(state)
    assert len(data["deck"]) == 108
    counts = Counter(data["deck"])
    assert counts["X"] == 4
    assert all(count == 2 for card, count in counts.items() if card != "X")
    assert len(counts) == 53


def test_a_deck_that_is_not_the_convoy_deck_is_rejected():
    with pytest.raises(ValueError, match="108 cards"):
        ENGINE.new_game(players=2, seed=None, deck=list(FULL_DECK)[:-1])


def test_a_new_game_needs_a_seed_or_a_deck():
    with pytest.raises(ValueError, match="seed or a deck"):
        ENGINE.new_game(players=2, seed=None)


def test_board_shows_each_non_jack_card_twice_and_roundels_on_the_corners():
    view = ENGINE.view(ENGINE.new_game(players=2, seed=1), None)
    labels = [square["card"] for board_row in view["board"] for square in board_row]
    assert len(view["board"]) == 10 and all(len(r) == 10 for r in view["board"])
    assert [labels[i] for i in (0, 9, 90, 99)] == ["ROUNDEL"] * 4
    counts = Counter(label for label in labels if label != "ROUNDEL")
    assert len(counts) == 48 and set(counts.values()) == {2}
    assert not any(label.startswith("J") for label in counts)


def test_the_two_copies_of_a_card_never_share_a_window():
    for card, (a, b) in convoy_board.CARD_CELLS.items():
        assert not any(a in cells and b in cells for _, _, cells in convoy_board.WINDOWS), card


def test_a_layout_is_checked_when_loaded():
    rows = json.loads(Path(convoy_board.__file__).with_name("convoy_board.json").read_text())[
        "rows"
    ]
    assert convoy_board.check_layout(rows) == convoy_board.CELL_CARDS
    moved_roundel = [list(r) for r in rows]
    moved_roundel[0][0], moved_roundel[0][1] = moved_roundel[0][1], moved_roundel[0][0]
    with pytest.raises(ValueError, match="corners"):
        convoy_board.check_layout(moved_roundel)
    three_copies = [list(r) for r in rows]
    three_copies[1][0] = three_copies[1][1]
    with pytest.raises(ValueError, match="exactly twice"):
        convoy_board.check_layout(three_copies)


# -- deal and turn order ---------------------------------------------------------------------


def test_cards_are_dealt_one_at_a_time_from_the_top_of_a_fixed_deck():
    deck = make_deck([["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]], ["6D"])
    state = ENGINE.new_game(players=2, seed=None, deck=deck)
    assert ENGINE.view(state, 0)["hand"] == ["AS", "2S", "3S", "4S", "5S"]
    assert ENGINE.view(state, 1)["hand"] == ["AH", "2H", "3H", "4H", "5H"]
    assert ENGINE.view(state, 0)["stock"] == 108 - 10


def test_hand_size_defaults_to_five():
    state = ENGINE.new_game(players=4, seed=2)
    assert ENGINE.view(state, None)["hand_sizes"] == [5, 5, 5, 5]


def test_hand_size_option_allows_the_box_sheets_four():
    state = ENGINE.new_game(players=3, seed=2, options={"hand_size": 4})
    assert ENGINE.view(state, None)["hand_sizes"] == [4, 4, 4]
    assert ENGINE.view(state, None)["stock"] == 108 - 12


@pytest.mark.parametrize("value", [2, 8, "5", 5.0, True])
def test_a_bad_hand_size_names_the_option(value):
    with pytest.raises(ValueError, match="hand_size"):
        ENGINE.new_game(players=2, seed=1, options={"hand_size": value})


def test_an_unknown_option_is_named():
    with pytest.raises(ValueError, match="jokers_wild"):
        ENGINE.new_game(players=2, seed=1, options={"jokers_wild": True})


def test_options_and_their_defaults():
    assert {option.name: option.default for option in OPTIONS} == {
        "hand_size": 5,
        "dead_card_exchange": True,
    }
    assert ENGINE.options == OPTIONS
    with pytest.raises(ValueError, match="dead_card_exchange"):
        ENGINE.new_game(players=2, seed=1, options={"dead_card_exchange": "no"})


def test_seat_zero_starts_and_play_goes_in_seat_order():
    state = ENGINE.new_game(players=3, seed=4)
    seen = []
    for _ in range(6):
        (seat,) = ENGINE.to_act(state)
        seen.append(seat)
        state = ENGINE.apply(state, seat, ENGINE.legal_moves(state, seat)[0])
    assert seen == [0, 1, 2, 0, 1, 2]
