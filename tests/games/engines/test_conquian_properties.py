"""Properties of random Conquian matches (moves chosen from legal_moves, some time-outs)."""

import json
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalMove
from games.engines.conquian import CARRY_OVERS, ENGINE
from tests.games.engines.conquian_situations import melding_is_legal, where_is_everything

SETTINGS = settings(max_examples=40, deadline=None)

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10**6),
        "chooser": st.integers(0, 10**6),
        "steps": st.integers(1, 250),
        "timeouts": st.sampled_from([0.0, 0.1, 0.5]),
        "options": st.fixed_dictionaries(
            {
                "target": st.integers(1, 3),
                "carry_over": st.sampled_from(CARRY_OVERS),
                "forcing": st.booleans(),
            }
        ),
    }
)


def play(game):
    """Yield (state before, seat, action, state after) along one random match; action is a
    move dict or "timeout"."""
    chooser = random.Random(game["chooser"])
    state = ENGINE.new_game(players=2, seed=game["seed"], options=game["options"])
    for _ in range(game["steps"]):
        if ENGINE.is_over(state):
            return
        seat = ENGINE.to_act(state)[0]
        if chooser.random() < game["timeouts"]:
            action, after = "timeout", ENGINE.timeout(state, seat)
        else:
            action = chooser.choice(ENGINE.legal_moves(state, seat))
            after = ENGINE.apply(state, seat, action)
        yield state, seat, action, after
        state = after


def states(game):
    return [after for _, _, _, after in play(game)] or [
        ENGINE.new_game(players=2, seed=game["seed"], options=game["options"])
    ]


@SETTINGS
@given(games)
def test_every_card_is_in_exactly_one_place(game):
    for state in states(game):
        cards = where_is_everything(state)
        assert len(cards) == 40 == len(set(cards))
        view = ENGINE.view(state, None)
        if view["phase"] != "over":  # ten cards each between turns; eleven while discarding
            melded = [sum(len(meld) for meld in melds) for melds in view["melds"]]
            sizes = [count + melded[seat] for seat, count in enumerate(view["hand_counts"])]
            owing = view["to_act"][0] if view["phase"] == "discard" else None
            assert sizes == [11 if seat == owing else 10 for seat in (0, 1)]


@SETTINGS
@given(games)
def test_apply_and_timeout_never_change_their_input(game):
    for state, seat, _, _ in play(game):
        before = json.dumps(ENGINE.dump(state))
        for move in ENGINE.legal_moves(state, seat)[:5]:
            ENGINE.apply(state, seat, move)
        ENGINE.timeout(state, seat)
        assert json.dumps(ENGINE.dump(state)) == before


@SETTINGS
@given(games)
def test_load_dump_round_trips(game):
    for state in states(game):
        data = json.loads(json.dumps(ENGINE.dump(state)))
        assert ENGINE.load(data) == state
        assert ENGINE.dump(ENGINE.load(data)) == data
        assert len(json.dumps(data)) <= 16 * 1024


@SETTINGS
@given(games)
def test_replaying_the_log_gives_the_same_state(game):
    log = [(seat, action) for _, seat, action, _ in play(game)]
    final = states(game)[-1]
    state = ENGINE.new_game(players=2, seed=game["seed"], options=game["options"])
    for seat, action in log:
        if action == "timeout":
            state = ENGINE.timeout(state, seat)
        else:
            state = ENGINE.apply(state, seat, json.loads(json.dumps(action)))
    assert ENGINE.dump(state) == ENGINE.dump(final)


def hide_differently(state, seat, rng):
    """The same state for `seat`: the cards `seat` cannot see (the other hand(s), the stock
    and the dead pile) dealt among those places again, each keeping its size."""
    data = ENGINE.dump(state)
    others = [s for s in (0, 1) if s != seat]
    hidden = [card for s in others for card in data["hands"][s]] + data["stock"] + data["dead_pile"]
    rng.shuffle(hidden)
    for s in others:
        size = len(data["hands"][s])
        data["hands"][s], hidden = hidden[:size], hidden[size:]
    size = len(data["stock"])
    data["stock"], data["dead_pile"] = hidden[:size], hidden[size:]
    return ENGINE.load(data)


@SETTINGS
@given(games, st.integers(0, 1000))
def test_a_view_does_not_depend_on_what_the_seat_cannot_see(game, salt):
    rng = random.Random(salt)
    for state in states(game)[::7]:
        for seat in (0, 1, None):
            other = hide_differently(state, seat, rng)
            assert ENGINE.view(other, seat) == ENGINE.view(state, seat)


def keys_of(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


@SETTINGS
@given(games)
def test_no_view_holds_the_deck_order_or_the_seed(game):
    for state in states(game):
        stock = ENGINE.dump(state)["stock"]
        for seat in (0, 1, None):
            view = ENGINE.view(state, seat)
            text = json.dumps(view)
            assert not {"deck", "seed"} & set(keys_of(view))
            assert json.loads(text) == view  # JSON-safe
            if len(stock) >= 3:
                assert json.dumps(stock[:3])[1:-1] not in text
            if seat is not None:
                assert not set(ENGINE.dump(state)["hands"][1 - seat]) & set(text.split('"'))


@SETTINGS
@given(games)
def test_a_timeout_is_one_of_the_legal_moves(game):
    for state, seat, _, _ in play(game):
        after = ENGINE.dump(ENGINE.timeout(state, seat))
        outcomes = [
            ENGINE.dump(ENGINE.apply(state, seat, m)) for m in ENGINE.legal_moves(state, seat)
        ]
        assert after in outcomes


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 1000))
def test_legal_moves_are_exactly_the_distinct_legal_outcomes(game, salt):
    rng = random.Random(salt)
    for state, seat, _, _ in list(play(game))[::5]:
        moves = ENGINE.legal_moves(state, seat)
        assert moves and ENGINE.legal_moves(state, 1 - seat) == []
        outcomes = [json.dumps(ENGINE.dump(ENGINE.apply(state, seat, m))) for m in moves]
        assert len(set(outcomes)) == len(moves)
        data = ENGINE.dump(state)
        hand = data["hands"][seat]
        if data["phase"] == "discard":
            candidates = [{"discard": card} for card in hand]
            candidates += [{"discard": card, "force": True} for card in hand]
        else:
            open_card, melded = data["open_card"], data["melds"][seat]
            subsets = [list(s) for n in range(len(hand) + 1) for s in combinations(hand, n)]
            melds = [s for s in subsets if melding_is_legal(open_card, s, melded)]
            assert sorted(m["meld"] for m in moves if "meld" in m) == sorted(melds)
            if melds and not data["stock"]:  # a usable last card must be melded
                assert all("meld" in move for move in moves)
            candidates = [{"reject": True}, {"pass": True}, {"pass": True, "force": True}]
            candidates += [{"meld": s} for s in rng.sample(subsets, min(len(subsets), 40))]
            elsewhere = [open_card, *melded, *data["melds"][1 - seat], *data["stock"][:2]]
            candidates += [{"meld": [*s, rng.choice(elsewhere)]} for s in subsets[:5]]
        for move in candidates:
            try:
                ENGINE.apply(state, seat, move)
            except IllegalMove as error:
                assert move not in moves
                assert_a_sentence(str(error))
            else:
                assert move in moves


def assert_a_sentence(message):
    """A refusal a player can read: words and card codes, nothing from the program's inside."""
    assert len(message.split()) >= 3, message
    assert not any(word in message for word in ("mask", "bit", "None", "0x", "Error", "<")), message


def test_a_usable_last_card_is_always_melded():
    """Over many random matches: facing a usable card with the stock empty, only meldings
    are legal and a time-out melds it the first legal way; an unusable one draws or passes."""
    met = {"must meld": 0, "drawn": 0}
    for seed in range(60):
        game = {"seed": seed, "chooser": seed, "steps": 400, "timeouts": 0.2,
                "options": {"target": 3, "carry_over": "add", "forcing": bool(seed % 2)}}  # fmt: skip
        for state, seat, _, after in play(game):
            if ENGINE.dump(state)["stock"] or ENGINE.view(state, None)["phase"] == "discard":
                continue
            moves = ENGINE.legal_moves(state, seat)
            timed_out = ENGINE.dump(ENGINE.timeout(state, seat))
            if any("meld" in move for move in moves):
                met["must meld"] += 1
                assert all("meld" in move for move in moves)
                assert timed_out == ENGINE.dump(ENGINE.apply(state, seat, moves[0]))
                for refused in ({"reject": True}, {"pass": True}):
                    with pytest.raises(IllegalMove) as error:
                        ENGINE.apply(state, seat, refused)
                    assert_a_sentence(str(error.value))
            elif ENGINE.view(state, None)["phase"] == "facing":
                assert moves == [{"reject": True}]
                met["drawn"] += (
                    ENGINE.view(after, None)["last_deal"] != ENGINE.view(state, None)["last_deal"]
                )
    assert met["must meld"] >= 20 and met["drawn"] >= 20, met
