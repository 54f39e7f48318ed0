"""The engine protocol (docs/engines.md), checked the same way for every engine.

Every test here runs over all three games (and several player counts) through the protocol
only: get_engine, new_game, to_act, legal_moves, apply, timeout, view, is_over, outcome,
dump and load. Cards and decks are built from docs/rules.md, not from the engines' constants.
The few places that edit a dumped state (to hide cards elsewhere, to set up a pass or a
stalemate) use the dump formats documented in docs/engines/<game>.md.
"""

import inspect
import json
import math
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import FORFEIT, IllegalMove, get_engine

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

GAMES = [("convoy", 2), ("convoy", 3), ("convoy", 4), ("convoy", 6)]
GAMES += [("korova", 2), ("korova", 5), ("korova", 10), ("conquian", 2)]
GAME_IDS = [f"{name}-{players}" for name, players in GAMES]
each_game = pytest.mark.parametrize(("name", "players"), GAMES, ids=GAME_IDS)

PLAYER_COUNTS = {"convoy": (2, 3, 4, 6), "korova": tuple(range(2, 11)), "conquian": (2,)}
DEFAULT_OPTIONS = {  # docs/rules.md, with the names of docs/engines.md ("The protocol in full")
    "convoy": {"hand_size": 5, "dead_card_exchange": True},
    "korova": {"edition": "korova-006", "end_score": 66, "tactical": False},
    "conquian": {"target": 5, "carry_over": "double", "forcing": True},
}
CHOICES = {"edition": ("korova-006", "classic"), "carry_over": ("double", "add", "none")}
# Small games, so that random play reaches the end (and Корова's row choices) quickly.
QUICK_OPTIONS = {"convoy": {}, "korova": {"end_score": 20}, "conquian": {"target": 2}}
DEAL_NUMBER = {"korova": "round", "conquian": "deal_number"}  # view key of the deal in play

RANKS, SUITS = "A23456789TJQK", "SHDC"
PACK = [rank + suit for suit in SUITS for rank in RANKS]
CONQUIAN_CARDS = [rank + suit for suit in SUITS for rank in "A234567JQK"]


def full_deck(name, players, options=None):
    """Every card in play for a game, from docs/rules.md."""
    if name == "convoy":
        return PACK * 2 + ["X"] * 4
    if name == "korova":
        tactical = (options or {}).get("tactical", False)
        return list(range(1, 10 * players + 5 if tactical else 105))
    return list(CONQUIAN_CARDS)


def rules_heads(card, edition):
    """Корова penalty heads, as docs/rules.md lists them."""
    if card == 55:
        return 6 if edition == "korova-006" else 7
    if card % 11 == 0:
        return 5
    return 3 if card % 10 == 0 else 2 if card % 5 == 0 else 1


def sides_of(name, players):
    if name != "convoy":
        return players
    return 3 if players % 3 == 0 else 2


def roundtrip(value):
    return json.loads(json.dumps(value, allow_nan=False))


def keys_at_any_depth(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_at_any_depth(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_at_any_depth(inner)


# -- random play and a stock of positions ----------------------------------------------------


def play(eng, name, players, seed, chooser_seed, timeout_rate=0.1, options=None, prefer=None):
    """One random game from legal moves and time-outs: the states met and the log. Moves with
    the key `prefer` are chosen nine times out of ten when there are some."""
    chooser = random.Random(chooser_seed)
    options = QUICK_OPTIONS[name] if options is None else options
    state = eng.new_game(players=players, seed=seed, options=options)
    states, log = [state], []
    while not eng.is_over(state):
        seat = chooser.choice(eng.to_act(state))
        if chooser.random() < timeout_rate:
            state, move = eng.timeout(state, seat), None
        else:
            moves = eng.legal_moves(state, seat)
            preferred = [move for move in moves if prefer in move]
            if preferred and chooser.random() < 0.9:
                moves = preferred
            move = chooser.choice(moves)
            state = eng.apply(state, seat, move)
        states.append(state)
        log.append((seat, move))
    return states, log


def kinds_of(eng, name, state):
    """Labels of the situations a position shows, read through the protocol."""
    if eng.is_over(state):
        return {"over"}
    view = eng.view(state, None)
    moves = [m for seat in eng.to_act(state) for m in eng.legal_moves(state, seat)]
    kinds = set()
    if name == "convoy":
        kinds |= {key for move in moves for key in move if key in ("remove", "exchange", "pass")}
        if view["stock"] == 0:
            kinds.add("deck used up")
        if any(move.get("card") == "X" for move in moves):
            kinds.add("joker")
    elif name == "korova":
        if view["pending_row_choice"] is not None:
            kinds.add("row choice")
        elif len(eng.to_act(state)) < view["players"]:
            kinds.add("some picked")
    else:
        kinds.add(view["phase"])
        if any("force" in move for move in moves):
            kinds.add("may force")
    return kinds


@cache
def positions(name, players):
    """(label, state) pairs at several points of random games: the start, mid-game, every
    kind of decision the game has (a row choice, a discard, a forced card, a remover...) and
    the end. Deterministic."""
    eng = get_engine(name)
    found: dict[str, list] = {}
    for seed in range(40):
        # every other game prefers removals (so that a Convoy deck runs out) or forcing
        prefer = {"convoy": "remove", "conquian": "force"}.get(name) if seed % 2 else None
        states, _ = play(eng, name, players, seed, seed, timeout_rate=0.05, prefer=prefer)
        found.setdefault("start", []).append(states[0])
        found.setdefault("mid-game", []).append(states[len(states) // 2])
        for state in states[1:]:
            for kind in kinds_of(eng, name, state):
                if len(found.setdefault(kind, [])) < 3:
                    found[kind].append(state)
        if seed >= 6 and all(len(v) >= 3 for v in found.values()):
            break
    return [(label, state) for label, states in found.items() for state in states[:3]]


def playing_positions(name, players):
    return [(label, s) for label, s in positions(name, players) if label != "over"]


def test_random_play_reaches_every_kind_of_decision():
    expected = {
        ("convoy", 3): {"remove", "exchange", "deck used up", "joker", "over"},
        ("convoy", 4): {"remove", "exchange", "joker", "over"},
        ("convoy", 6): {"remove", "exchange", "deck used up", "joker", "over"},
        ("korova", 5): {"row choice", "some picked", "over"},
        ("conquian", 2): {"turned", "facing", "discard", "forced", "may force", "over"},
    }
    for (name, players), kinds in expected.items():
        labels = {label for label, _ in positions(name, players)}
        assert kinds <= labels, (name, players, kinds - labels)


# -- get_engine and new_game -------------------------------------------------------------------

PROTOCOL = ("new_game", "to_act", "legal_moves", "apply", "timeout_move", "timeout", "view",
            "is_over", "outcome", "dump", "load")  # fmt: skip


@pytest.mark.parametrize("name", ["convoy", "korova", "conquian"])
def test_get_engine_gives_the_engine_with_the_whole_protocol(name):
    eng = get_engine(name)
    assert eng is get_engine(name)
    for method in PROTOCOL:
        assert callable(getattr(eng, method)), method
    parameters = inspect.signature(eng.new_game).parameters
    assert list(parameters)[:4] == ["players", "seed", "options", "deck"]
    assert parameters["options"].default is None
    assert parameters["deck"].default is None


@pytest.mark.parametrize("name", ["chess", "Convoy", "", None, 1])
def test_get_engine_refuses_an_unknown_game(name):
    with pytest.raises(ValueError):
        get_engine(name)


@each_game
def test_new_game_takes_keywords_and_is_fully_determined_by_its_arguments(name, players):
    eng = get_engine(name)
    options = dict(QUICK_OPTIONS[name])
    first = eng.new_game(players=players, seed=7, options=options, deck=None)
    options["tactical" if name == "korova" else "forcing"] = True  # the caller's dict is not kept
    again = eng.new_game(players=players, seed=7, options=dict(QUICK_OPTIONS[name]))
    assert first == again
    assert eng.dump(first) == eng.dump(again)
    others = [eng.dump(eng.new_game(players=players, seed=seed)) for seed in (8, 9, 10)]
    assert any(other["hands"] != eng.dump(first)["hands"] for other in others)
    deck = full_deck(name, players)
    random.Random(3).shuffle(deck)
    with_deck = eng.new_game(players=players, deck=deck)  # no seed: the deck decides
    assert eng.dump(with_deck) == eng.dump(eng.new_game(players=players, deck=list(deck)))
    with pytest.raises(ValueError):
        eng.new_game(players=players)  # neither seed nor deck


@each_game
def test_seat_0_acts_first(name, players):
    eng = get_engine(name)
    for seed in range(5):
        to_act = eng.to_act(eng.new_game(players=players, seed=seed))
        assert to_act == (list(range(players)) if name == "korova" else [0])


# -- a fixed deck -------------------------------------------------------------------------------


def dealt_hands(deck, players, size):
    return [Counter(deck[seat : players * size : players]) for seat in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("hand_size", [3, 5, 7])
def test_convoy_deck_is_dealt_one_at_a_time_then_drawn_from_the_top(players, hand_size):
    eng = get_engine("convoy")
    deck = full_deck("convoy", players)
    random.Random(players * 10 + hand_size).shuffle(deck)
    state = eng.new_game(players=players, seed=None, options={"hand_size": hand_size}, deck=deck)
    hands = dealt_hands(deck, players, hand_size)
    for seat in range(players):
        assert Counter(eng.view(state, seat)["hand"]) == hands[seat]
    assert eng.view(state, None)["stock"] == 108 - players * hand_size
    top = players * hand_size
    for _ in range(2 * players):  # every card played or exchanged is replaced by the top card
        (seat,) = eng.to_act(state)
        move = next(m for m in eng.legal_moves(state, seat) if "pass" not in m)
        before = Counter(eng.view(state, seat)["hand"])
        state = eng.apply(state, seat, move)
        assert Counter(eng.view(state, seat)["hand"]) == before - Counter([move["card"]]) + Counter(
            [deck[top]]
        )
        top += 1
        assert eng.view(state, None)["stock"] == 108 - top


@pytest.mark.parametrize("players", [2, 4, 7, 10])
@pytest.mark.parametrize("tactical", [False, True])
def test_korova_deck_is_dealt_one_at_a_time_then_starts_the_rows(players, tactical):
    eng = get_engine("korova")
    options = {"tactical": tactical}
    deck = full_deck("korova", players, options)
    random.Random(players).shuffle(deck)
    state = eng.new_game(players=players, seed=None, options=options, deck=deck)
    hands = dealt_hands(deck, players, 10)
    for seat in range(players):
        assert Counter(eng.view(state, seat)["hand"]) == hands[seat]
    view = eng.view(state, None)
    assert view["rows"] == [[card] for card in deck[10 * players : 10 * players + 4]]
    assert view["stock"] == len(deck) - 10 * players - 4
    if tactical:
        assert view["stock"] == 0
    if players < 10:  # with 10 players the tactical game uses all 104 cards
        other = list(range(1, 105)) if tactical else list(range(1, 10 * players + 5))
        with pytest.raises(ValueError):  # a deck lists exactly the cards in play
            eng.new_game(players=players, seed=1, options=options, deck=other)


def test_conquian_deck_deals_seat_0_as_non_dealer_and_opens_deck_20():
    eng = get_engine("conquian")
    for shuffle_seed in range(5):
        deck = full_deck("conquian", 2)
        random.Random(shuffle_seed).shuffle(deck)
        state = eng.new_game(players=2, seed=None, deck=deck)
        hands = dealt_hands(deck, 2, 10)
        for seat in (0, 1):
            assert Counter(eng.view(state, seat)["hand"]) == hands[seat]
        view = eng.view(state, 0)
        assert view["open_card"] == deck[20]
        assert view["stock"] == 19
        assert view["dealer"] == 1
        assert eng.to_act(state) == [0]
        # seat 0 leaves the first card open; the dealer rejects it and turns the stock's top
        state = eng.apply(state, 0, {"pass": True})
        assert eng.view(state, 1)["open_card"] == deck[20]
        state = eng.apply(state, 1, {"reject": True})
        assert eng.view(state, 1)["open_card"] == deck[21]
        assert eng.view(state, None)["stock"] == 18


def play_on_with_timeouts(eng, state, stop):
    while not stop(state):
        state = eng.timeout(state, eng.to_act(state)[0])
    return state


@pytest.mark.parametrize(("name", "players"), [("korova", 3), ("korova", 6), ("conquian", 2)])
def test_a_deck_fixes_the_first_deal_only_and_later_deals_come_from_the_seed(name, players):
    eng = get_engine(name)
    key = DEAL_NUMBER[name]
    options = {"end_score": 1000} if name == "korova" else {"target": 1000}
    deck = full_deck(name, players)
    random.Random(11).shuffle(deck)

    def second_deal(seed, deck):
        state = eng.new_game(players=players, seed=seed, options=options, deck=deck)
        state = play_on_with_timeouts(eng, state, lambda s: eng.view(s, None)[key] == 2)
        return [eng.view(state, seat)["hand"] for seat in range(players)]

    with_deck, seed_only = second_deal(5, deck), second_deal(5, None)
    assert with_deck == seed_only
    assert second_deal(6, deck) != with_deck
    first = eng.new_game(players=players, seed=5, options=options, deck=deck)
    assert eng.view(first, 0)["hand"] != eng.view(eng.new_game(players=players, seed=5), 0)["hand"]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_convoy_with_a_deck_does_not_depend_on_the_seed(players):
    eng = get_engine("convoy")
    deck = full_deck("convoy", players)
    random.Random(players).shuffle(deck)
    a = eng.new_game(players=players, seed=1, deck=deck)
    b = eng.new_game(players=players, seed=2, deck=deck)
    chooser = random.Random(players)
    for _ in range(30):
        if eng.is_over(a):
            break
        assert [eng.view(a, s) for s in range(players)] == [eng.view(b, s) for s in range(players)]
        (seat,) = eng.to_act(a)
        move = chooser.choice(eng.legal_moves(a, seat))
        a, b = eng.apply(a, seat, move), eng.apply(b, seat, move)


# -- to_act, legal_moves, apply, timeout --------------------------------------------------------


def check_turn_structure(eng, state, players):
    to_act = eng.to_act(state)
    assert to_act == roundtrip(to_act)
    assert all(type(seat) is int for seat in to_act)
    assert eng.is_over(state) is (to_act == [])
    for seat in range(players):
        moves = eng.legal_moves(state, seat)
        if seat in to_act:
            assert moves
            assert roundtrip(moves) == moves
            assert all(type(move) is dict for move in moves)
            assert len({json.dumps(m, sort_keys=True) for m in moves}) == len(moves)
        else:
            assert moves == []


@each_game
def test_legal_moves_are_listed_for_the_seats_to_act_and_only_for_them(name, players):
    eng = get_engine(name)
    for seed in range(4):
        states, _ = play(eng, name, players, seed, chooser_seed=100 + seed)
        for state in states:
            check_turn_structure(eng, state, players)


@each_game
def test_every_listed_move_is_accepted_by_apply_which_leaves_its_input_alone(name, players):
    eng = get_engine(name)
    for _, state in playing_positions(name, players):
        before = eng.dump(state)
        for seat in eng.to_act(state):
            for move in eng.legal_moves(state, seat):
                sent = roundtrip(move)  # as the API would pass it on
                after = eng.apply(state, seat, sent)
                assert sent == move
                check_turn_structure(eng, after, players)
            assert eng.dump(state) == before


@each_game
def test_timeout_is_pure_and_play_goes_on_legally(name, players):
    eng = get_engine(name)
    for _, state in playing_positions(name, players):
        before = eng.dump(state)
        for seat in eng.to_act(state):
            after = eng.timeout(state, seat)
            assert eng.dump(state) == before
            check_turn_structure(eng, after, players)
            assert eng.dump(after) != before


@each_game
def test_a_time_out_plays_the_first_legal_move_that_does_what_it_does_or_forfeits(name, players):
    """The move the clock plays is the one the log shows and a replay applies: a legal move
    (the first with the time-out's result), or FORFEIT only where no legal move does that."""
    eng = get_engine(name)
    for _, state in playing_positions(name, players):
        for seat in eng.to_act(state):
            move = eng.timeout_move(state, seat)
            timed_out = eng.dump(eng.timeout(state, seat))
            same = [
                m
                for m in eng.legal_moves(state, seat)
                if eng.dump(eng.apply(state, seat, m)) == timed_out
            ]
            assert move == (same[0] if same else FORFEIT)
            assert (move == FORFEIT) == (name == "convoy")
        for seat in [s for s in range(players) if s not in eng.to_act(state)]:
            with pytest.raises(IllegalMove):
                eng.timeout_move(state, seat)


def not_seats(players):
    return [-1, players, players + 1, 10**30, None, "0", 0.0, 1.0, True, False, [0], {"seat": 0}]


@each_game
def test_a_seat_not_to_act_gets_illegal_move_and_no_moves(name, players):
    eng = get_engine(name)
    for _, state in positions(name, players):
        before = eng.dump(state)
        to_act = eng.to_act(state)
        some_move = eng.legal_moves(state, to_act[0])[0] if to_act else {"pass": True}
        outsiders = [seat for seat in range(players) if seat not in to_act]
        for seat in outsiders + not_seats(players):
            assert eng.legal_moves(state, seat) == [], seat
            with pytest.raises(IllegalMove):
                eng.apply(state, seat, some_move)
            with pytest.raises(IllegalMove):
                eng.timeout(state, seat)
        assert eng.dump(state) == before


def test_a_korova_seat_that_has_picked_cannot_pick_again():
    eng = get_engine("korova")
    state = eng.new_game(players=4, seed=3)
    hand = eng.view(state, 2)["hand"]
    state = eng.apply(state, 2, {"card": hand[0]})
    assert 2 not in eng.to_act(state)
    assert eng.legal_moves(state, 2) == []
    with pytest.raises(IllegalMove):
        eng.apply(state, 2, {"card": hand[1]})
    assert eng.view(state, 2)["hand"] == hand[1:]


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


# -- options, players, seed, deck ---------------------------------------------------------------


@each_game
def test_every_option_exists_with_its_default_from_the_rules(name, players):
    eng = get_engine(name)
    defaults = DEFAULT_OPTIONS[name]
    state = eng.new_game(players=players, seed=1)
    assert eng.dump(state)["options"] == defaults
    explicit = eng.new_game(players=players, seed=1, options=dict(defaults))
    assert eng.dump(explicit) == eng.dump(state)
    for option, default in defaults.items():
        other = [c for c in CHOICES.get(option, ()) if c != default]
        value = other[0] if other else (not default if type(default) is bool else default + 1)
        changed = eng.new_game(players=players, seed=1, options={option: value})
        assert eng.dump(changed)["options"] == {**defaults, option: value}


def bad_values(default):
    out = [None, [], {}, "", [default]]
    if type(default) is bool:
        return out + [1, 0, "true", "True", 1.0]
    if type(default) is int:
        return out + [str(default), float(default), 2.5, True, False, -1, 0, 10**9, -(10**9)]
    return out + [default.upper(), default + " ", 1, True, "nonsense"]


@each_game
def test_a_bad_option_value_is_a_value_error_naming_the_option(name, players):
    eng = get_engine(name)
    for option, default in DEFAULT_OPTIONS[name].items():
        for value in bad_values(default) + [math.nan, math.inf]:
            with pytest.raises(ValueError, match=option):
                eng.new_game(players=players, seed=1, options={option: value})


@each_game
def test_an_unknown_option_is_a_value_error_naming_it(name, players):
    eng = get_engine(name)
    for options in ({"hand_sise": 5}, {"turnSeconds": 30}, {"Target": 5}, {"": 1}):
        (option,) = options
        with pytest.raises(ValueError, match=repr(option)):
            eng.new_game(players=players, seed=1, options=options)
    other_games = {k for game, opts in DEFAULT_OPTIONS.items() if game != name for k in opts}
    for option in other_games - set(DEFAULT_OPTIONS[name]):
        with pytest.raises(ValueError, match=option):
            eng.new_game(players=players, seed=1, options={option: 5})
    for options in ({1: 5}, {None: 1, "target": 5}, {("a",): 1}):
        with pytest.raises(ValueError, match="option"):
            eng.new_game(players=players, seed=1, options=options)


@each_game
def test_the_turn_clock_is_the_tables_so_the_engine_neither_checks_nor_keeps_it(name, players):
    eng = get_engine(name)
    plain = eng.new_game(players=players, seed=1)
    for clock in (45, 1, "thirty"):
        with_clock = eng.new_game(players=players, seed=1, options={"turn_seconds": clock})
        assert eng.dump(with_clock) == eng.dump(plain)
    assert "turn_seconds" not in {option.name for option in eng.options}
    dumped_with_a_clock = eng.dump(plain)  # as games were stored while engines kept it
    dumped_with_a_clock["options"] = {**dumped_with_a_clock["options"], "turn_seconds": 30}
    assert eng.dump(eng.load(dumped_with_a_clock)) == eng.dump(plain)


@each_game
def test_options_that_are_not_a_mapping_are_a_value_error(name, players):
    eng = get_engine(name)
    for options in (5, "turn_seconds", [("turn_seconds", 40)], ["turn_seconds"], True, 2.5):
        with pytest.raises(ValueError):
            eng.new_game(players=players, seed=1, options=options)
    assert eng.new_game(players=players, seed=1, options={}) == eng.new_game(
        players=players, seed=1, options=None
    )


@pytest.mark.parametrize("name", ["convoy", "korova", "conquian"])
def test_a_bad_player_count_is_a_value_error(name):
    eng = get_engine(name)
    for players in PLAYER_COUNTS[name]:
        eng.new_game(players=players, seed=1)
    wrong = [n for n in range(-1, 13) if n not in PLAYER_COUNTS[name]]
    wrong += [None, "2", "4", 2.0, 4.0, True, [2], 10**30]
    for players in wrong:
        with pytest.raises(ValueError):
            eng.new_game(players=players, seed=1)


@each_game
def test_a_bad_seed_or_deck_is_a_value_error(name, players):
    eng = get_engine(name)
    for seed in ("7", 7.0, 7.5, True, [7], math.nan):
        with pytest.raises(ValueError):
            eng.new_game(players=players, seed=seed)
    deck = full_deck(name, players)
    other_game = full_deck("korova" if name == "convoy" else "convoy", players)
    wrong = [deck[:-1], deck + deck[:1], deck[:-1] + deck[:1], [None] * len(deck), [], 5, "x"]
    wrong += [[*deck[:-1], None], [*deck[:-1], [deck[-1]]], [*deck[:-1], True], other_game]
    wrong += [[str(card).lower() for card in deck], [*deck[:-1], {"card": deck[-1]}]]
    for bad in wrong:
        with pytest.raises(ValueError):
            eng.new_game(players=players, seed=1, deck=bad)


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


# -- dump, load, replay -------------------------------------------------------------------------


@each_game
def test_dump_and_load_are_a_lossless_json_round_trip(name, players):
    eng = get_engine(name)
    for _, state in positions(name, players):
        data = eng.dump(state)
        text = json.dumps(data, allow_nan=False)
        loaded = eng.load(json.loads(text))
        assert loaded == state
        assert eng.dump(loaded) == data
        assert json.dumps(eng.dump(loaded), allow_nan=False) == text
        for seat in [None, *range(players)]:
            assert eng.view(loaded, seat) == eng.view(state, seat)
        assert eng.to_act(loaded) == eng.to_act(state)
        for seat in eng.to_act(state):
            assert eng.legal_moves(loaded, seat) == eng.legal_moves(state, seat)


def scribble(value):
    """Change every list and dict inside `value`, in place."""
    if isinstance(value, dict):
        for inner in value.values():
            scribble(inner)
        value["scribbled"] = True
    elif isinstance(value, list):
        for inner in value:
            scribble(inner)
        value.append("scribbled")


@each_game
def test_nothing_handed_out_or_in_is_shared_with_the_state(name, players):
    eng = get_engine(name)
    for _, state in positions(name, players):
        before = eng.dump(state)
        data = eng.dump(state)
        loaded = eng.load(data)
        scribble(data)
        scribble(eng.dump(state))
        for seat in [None, *range(players)]:
            scribble(eng.view(state, seat))
        scribble(eng.outcome(state))
        for seat in eng.to_act(state):
            moves = eng.legal_moves(state, seat)
            move = json.loads(json.dumps(moves[0]))
            after = eng.apply(state, seat, move)
            after_dump = eng.dump(after)
            scribble(move)
            scribble(moves)
            assert eng.dump(after) == after_dump
        assert eng.dump(state) == before
        assert eng.dump(loaded) == before


@each_game
def test_replaying_the_log_with_its_timeouts_reproduces_the_game(name, players):
    eng = get_engine(name)
    for seed in range(3):
        for rate in (0.0, 0.3):
            states, log = play(eng, name, players, seed, chooser_seed=seed * 7, timeout_rate=rate)
            state = eng.new_game(players=players, seed=seed, options=QUICK_OPTIONS[name])
            for step, (seat, move) in enumerate(log):
                move = roundtrip(move)
                state = eng.timeout(state, seat) if move is None else eng.apply(state, seat, move)
                if step % 17 == 0:  # a stored state carries on the same way
                    state = eng.load(roundtrip(eng.dump(state)))
                assert state == states[step + 1]
            assert eng.dump(state) == eng.dump(states[-1])
            assert eng.outcome(state) == eng.outcome(states[-1])
