"""The protocol contract: what a view holds, and that it never shows hidden cards."""

import json
import random
from collections import Counter

import pytest

from games.engines import get_engine
from tests.games.engines.protocol_games import (
    CONQUIAN_CARDS,
    PACK,
    each_game,
    keys_at_any_depth,
    positions,
    roundtrip,
    rules_heads,
    sides_of,
)

# -- views --------------------------------------------------------------------------------------


def check_view(eng, name, players, state, seat):
    view = eng.view(state, seat)
    assert roundtrip(view) == view
    assert ("hand" in view) is (seat is not None)
    keys = set(keys_at_any_depth(view))
    assert "deck" not in keys and "seed" not in keys
    assert type(view["stock"]) is int and view["stock"] >= 0
    data = eng.dump(state)
    if seat is not None:
        assert Counter(view["hand"]) == Counter(data["hands"][seat])
    if name == "convoy":
        board = view["board"]
        assert len(board) == 10 and all(len(row) == 10 for row in board)
        for row in board:
            for cell in row:
                assert set(cell) == {"card", "counter", "locked"}
                assert cell["card"] == "ROUNDEL" or cell["card"] in PACK
                assert cell["counter"] is None or cell["counter"] in range(sides_of(name, players))
                assert type(cell["locked"]) is bool
                assert not cell["locked"] or cell["counter"] is not None
        corners = [board[0][0], board[0][9], board[9][0], board[9][9]]
        assert all(cell["card"] == "ROUNDEL" and cell["counter"] is None for cell in corners)
        assert len(view["convoys"]) == sides_of(name, players)
        assert view["convoys"] == eng.outcome(state)["scores"]
        assert view["stock"] == 108 - data["drawn"]
    elif name == "korova":
        assert len(view["rows"]) == 4 and all(1 <= len(row) <= 5 for row in view["rows"])
        assert len(view["scores"]) == players
        assert view["stock"] == len(data["aside"])
        if not eng.is_over(state):  # running totals include the heads taken this round
            edition = data["options"]["edition"]
            for s in range(players):
                taken = sum(rules_heads(card, edition) for card in data["piles"][s])
                assert view["scores"][s] == sum(r[s] for r in data["sheet"]) + taken
        if data["pending"] is None:
            assert view["revealed"] == []
        else:
            still = data["reveal"][data["pending"] :]
            assert [(r["card"], r["seat"]) for r in view["revealed"]] == [tuple(p) for p in still]
            assert eng.to_act(state) == [still[0][1]]
    else:
        assert view["open_card"] is None or view["open_card"] in CONQUIAN_CARDS
        assert len(view["melds"]) == 2
        for s, melds in enumerate(view["melds"]):
            assert sorted(card for meld in melds for card in meld) == sorted(data["melds"][s])
            assert all(len(meld) >= 3 for meld in melds)
        assert len(view["scores"]) == 2
        assert type(view["deal_value"]) is int and view["deal_value"] >= 1
        assert view["stock"] == len(data["stock"])
    return view


@each_game
def test_views_hold_the_keys_of_the_protocol_and_nothing_secret(name, players):
    eng = get_engine(name)
    for _, state in positions(name, players):
        for seat in [None, *range(players)]:
            check_view(eng, name, players, state, seat)


@each_game
def test_a_view_for_a_seat_not_at_the_table_is_a_value_error(name, players):
    eng = get_engine(name)
    state = eng.new_game(players=players, seed=1)
    for seat in (-1, players, 10**30, "0", 0.0, True, [0]):
        with pytest.raises(ValueError):
            eng.view(state, seat)


def scramble_hidden_cards(name, data, viewer, rng):
    """`data` (a dump) with the cards that `viewer` may not see dealt out again at random."""
    data = json.loads(json.dumps(data))
    others = [seat for seat in range(len(data["hands"])) if seat != viewer]
    if name == "convoy":
        rest = data["deck"][data["drawn"] :]
        pool = [card for seat in others for card in data["hands"][seat]] + rest
        rng.shuffle(pool)
        for seat in others:
            size = len(data["hands"][seat])
            data["hands"][seat], pool = pool[:size], pool[size:]
        data["deck"] = data["deck"][: data["drawn"]] + pool
    elif name == "korova":
        hidden_picks = [i for i, (_, seat) in enumerate(data["picks"]) if seat != viewer]
        pool = [card for seat in others for card in data["hands"][seat]] + data["aside"]
        pool += [data["picks"][i][0] for i in hidden_picks]
        rng.shuffle(pool)
        for seat in others:
            size = len(data["hands"][seat])
            data["hands"][seat], pool = sorted(pool[:size]), pool[size:]
        for i in hidden_picks:
            data["picks"][i][0] = pool.pop()
        data["aside"] = pool
    else:
        # (container, key) of each list of hidden cards
        places = [(data["hands"], seat) for seat in others] + [(data, "stock"), (data, "dead_pile")]
        pool = [card for where, key in places for card in where[key]]
        rng.shuffle(pool)
        for where, key in places:
            size = len(where[key])
            where[key], pool = pool[:size], pool[size:]
        for seat in others:
            data["hands"][seat] = sorted(data["hands"][seat], key=CONQUIAN_CARDS.index)
    return data


@each_game
def test_a_view_never_shows_another_seats_hand_or_the_cards_to_come(name, players):
    eng = get_engine(name)
    rng = random.Random(players)
    changed = 0
    for _, state in positions(name, players):
        data = eng.dump(state)
        for viewer in [None, *range(players)]:
            for _ in range(2):
                other = scramble_hidden_cards(name, data, viewer, rng)
                changed += other != data
                assert eng.view(eng.load(other), viewer) == eng.view(state, viewer)
    assert changed
