"""The protocol contract: malformed, spoilt and misplaced moves are illegal moves, for every engine."""

import json
import math
from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from games.engines import IllegalMove, get_engine
from tests.games.engines.protocol_games import (
    CONQUIAN_CARDS,
    PACK,
    SETTINGS,
    each_game,
    playing_positions,
    positions,
)

# -- malformed moves ----------------------------------------------------------------------------

REAL_KEYS = ["card", "square", "remove", "exchange", "pass", "row", "meld", "discard"]
REAL_KEYS += ["reject", "force"]
ODD_STRINGS = ["", "AS", "X", "JS", "JH", "JC", "QH", "8D", "TS", "ROUNDEL", "as", "1S"]
ODD_STRINGS += ["AS ", "55", "true", "pass", "\x00", "КОРОВА", "0", "NaN"]
odd_numbers = st.sampled_from(
    [0, 1, -1, 3, 4, 9, 10, 11, 55, 104, 105, 2**31, 2**63, -(2**63), 10**100, 0.0, 1.0, 2.5]
    + [-0.0, 55.0, math.nan, math.inf, -math.inf, 1e308]
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | odd_numbers
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5)
    | st.sampled_from(ODD_STRINGS)
)
squares = st.lists(st.integers(-2, 11) | odd_numbers | st.booleans() | st.none(), max_size=3)
any_keys = st.sampled_from(REAL_KEYS) | st.text(max_size=5) | st.integers(-1, 2) | st.none()
values = st.recursive(
    scalars | squares,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(any_keys, inner, max_size=3)
    ),
    max_leaves=8,
)
moves_with_real_keys = st.dictionaries(st.sampled_from(REAL_KEYS), values, min_size=1, max_size=3)
# values close to legal ones: any card of any of the games, a number near the board or a row
near_misses = (
    st.sampled_from(PACK + ["X"] + CONQUIAN_CARDS)
    | st.integers(-1, 105)
    | st.lists(st.integers(-1, 10), min_size=2, max_size=2)
    | st.lists(st.sampled_from(CONQUIAN_CARDS), max_size=4)
)


def mutations(move):
    """Strategy: `move` (a legal move) spoiled in one or two places."""
    keys = sorted(move)
    replace = st.builds(
        lambda key, value: {**move, key: value}, st.sampled_from(keys), values | near_misses
    )
    add = st.builds(lambda key, value: {**move, key: value}, any_keys, values)
    drop = st.sampled_from(keys).map(lambda key: {k: v for k, v in move.items() if k != key})
    retype = st.sampled_from(keys).flatmap(
        lambda key: st.sampled_from(retyped(move[key])).map(lambda value: {**move, key: value})
    )
    inner = [key for key in keys if isinstance(move[key], list)]
    spoil_inner = st.nothing()
    if inner:
        spoil_inner = st.sampled_from(inner).flatmap(
            lambda key: spoiled_list(move[key]).map(lambda value: {**move, key: value})
        )
    one = replace | add | drop | retype | spoil_inner
    return one | one.flatmap(lambda spoilt: mutations_once(spoilt))


def mutations_once(move):
    if not move:
        return st.just(move)
    keys = sorted(move, key=str)
    return st.builds(lambda key, value: {**move, key: value}, st.sampled_from(keys), values)


def retyped(value):
    """Values equal or similar to `value` but of another type: True for 1, 1.0 for 1, ..."""
    out = [None, str(value), [value], {"value": value}]
    if value is True:
        out += [1, 1.0, "true", "True", False]
    elif isinstance(value, int):
        out += [float(value), bool(value), -value - 1, value + 10**20, str(value)]
    elif isinstance(value, str):
        out += [value.lower(), value + value, value[:1], ord(value[0]) if value else 0, True]
    elif isinstance(value, list):
        out += [tuple(value), value * 2, [], [value], "".join(map(str, value)), True, 0]
    return out


def spoiled_list(items):
    """Strategy: a list like `items` with an element replaced, added, retyped or dropped."""
    if not items:
        return st.lists(values, min_size=1, max_size=3)
    index = st.integers(0, len(items) - 1)
    swap = st.builds(
        lambda i, v: [*items[:i], v, *items[i + 1 :]], index, values | squares | near_misses
    )
    dropped = index.map(lambda i: items[:i] + items[i + 1 :])
    added = st.builds(lambda v: [*items, v], values | near_misses | st.sampled_from(items))
    deeper = st.nothing()
    if isinstance(items[0], list):  # a list of squares: spoil one square
        deeper = st.builds(
            lambda i, square: [*items[:i], square, *items[i + 1 :]],
            index,
            spoiled_list(items[0]) | squares,
        )
    retype = st.builds(
        lambda i, data: [*items[:i], data, *items[i + 1 :]],
        index,
        st.sampled_from(retyped(items[0])),
    )
    return swap | dropped | added | deeper | retype


@cache
def legal_outcomes(name, players, index, seat):
    """The dumps reached by the legal moves of `seat` at positions()[index]."""
    eng = get_engine(name)
    state = positions(name, players)[index][1]
    return [eng.dump(eng.apply(state, seat, move)) for move in eng.legal_moves(state, seat)]


def check_refused_or_same_as_a_legal_move(name, players, index, seat, move):
    eng = get_engine(name)
    state = positions(name, players)[index][1]
    before = eng.dump(state)
    try:
        after = eng.apply(state, seat, move)
    except IllegalMove as error:
        assert isinstance(error.args[0], str) and error.args[0]
    else:
        # only a legal move, perhaps written differently (squares in another order), is taken
        assert eng.dump(after) in legal_outcomes(name, players, index, seat), move
    assert eng.dump(state) == before


def draw_position(data, name, players):
    choices = positions(name, players)
    index = data.draw(st.integers(0, len(choices) - 1), label="position")
    state = choices[index][1]
    to_act = get_engine(name).to_act(state)
    seat = data.draw(st.sampled_from(to_act), label="seat") if to_act else 0
    return index, seat


@each_game
@SETTINGS
@given(data=st.data())
def test_an_arbitrary_value_as_a_move_is_an_illegal_move(name, players, data):
    index, seat = draw_position(data, name, players)
    move = data.draw(values | moves_with_real_keys, label="move")
    check_refused_or_same_as_a_legal_move(name, players, index, seat, move)


@each_game
@SETTINGS
@given(data=st.data())
def test_a_spoilt_legal_move_is_refused_or_means_a_legal_move(name, players, data):
    eng = get_engine(name)
    index, seat = draw_position(data, name, players)
    state = positions(name, players)[index][1]
    moves = eng.legal_moves(state, seat) or [{"pass": True}, {"card": 1}, {"meld": []}]
    move = data.draw(st.sampled_from(moves).flatmap(mutations), label="move")
    check_refused_or_same_as_a_legal_move(name, players, index, seat, move)


def well_formed_moves(name, state, seat):
    """Strategy: moves of the right shape (docs/engines.md, docs/engines/) with plausible values:
    cards of the hand or any card, squares on the board (free, covered, roundels), rows."""
    eng = get_engine(name)
    view = eng.view(state, seat)
    hand = st.sampled_from(view["hand"] or [None])
    if name == "convoy":
        cards = hand | st.sampled_from(PACK + ["X"])
        board = view["board"]
        covered = [
            [r, c] for r in range(10) for c in range(10) if board[r][c]["counter"] is not None
        ]
        square = st.lists(st.integers(0, 9), min_size=2, max_size=2)
        if covered:
            square |= st.sampled_from(covered)
        return (
            st.fixed_dictionaries({"card": cards, "square": square})
            | st.fixed_dictionaries({"card": cards, "remove": st.lists(square, max_size=3)})
            | st.fixed_dictionaries({"card": cards, "exchange": st.just(True)})
            | st.just({"pass": True})
        )
    if name == "korova":
        return st.fixed_dictionaries({"card": hand | st.integers(0, 105)}) | st.fixed_dictionaries(
            {"row": st.integers(-1, 4)}
        )
    cards = hand | st.sampled_from(CONQUIAN_CARDS)
    force = st.fixed_dictionaries({}, optional={"force": st.just(True)})
    return (
        st.fixed_dictionaries({"meld": st.lists(cards, max_size=5)})
        | st.builds(lambda card, extra: {"discard": card, **extra}, cards, force)
        | st.builds(lambda extra: {"pass": True, **extra}, force)
        | st.just({"reject": True})
    )


@each_game
@SETTINGS
@given(data=st.data())
def test_a_well_formed_move_is_taken_only_when_it_is_a_legal_move(name, players, data):
    index, seat = draw_position(data, name, players)
    state = positions(name, players)[index][1]
    if get_engine(name).is_over(state):
        return
    move = data.draw(well_formed_moves(name, state, seat), label="move")
    check_refused_or_same_as_a_legal_move(name, players, index, seat, move)


@each_game
def test_a_legal_move_for_the_wrong_seat_or_the_wrong_moment_is_illegal(name, players):
    eng = get_engine(name)
    sample = playing_positions(name, players)
    for index, (_, state) in enumerate(positions(name, players)):
        for seat in eng.to_act(state):
            legal = {json.dumps(m, sort_keys=True) for m in eng.legal_moves(state, seat)}
            for _, other in sample:
                for other_seat in eng.to_act(other):
                    for move in eng.legal_moves(other, other_seat)[:8]:
                        if json.dumps(move, sort_keys=True) not in legal:
                            check_refused_or_same_as_a_legal_move(name, players, index, seat, move)
