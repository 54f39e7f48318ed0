"""The engine protocol (docs/engines.md), checked the same way for every engine: get_engine and
new_game, to_act, legal_moves, apply and timeout, dump, load and replay. Decks, moves, options,
views and outcomes have their own test_protocol_contract_*.py; protocol_games.py holds what they
share.

Every test of the contract runs over all three games (and several player counts) through the
protocol only: get_engine, new_game, to_act, legal_moves, apply, timeout, view, is_over, outcome,
dump and load. Cards and decks are built from docs/rules.md, not from the engines' constants.
The few places that edit a dumped state (to hide cards elsewhere, to set up a pass or a
stalemate) use the dump formats documented in docs/engines/<game>.md.
"""

import inspect
import json
import random

import pytest

from games.engines import FORFEIT, IllegalMove, get_engine
from tests.games.engines.protocol_games import (
    QUICK_OPTIONS,
    each_game,
    full_deck,
    play,
    playing_positions,
    positions,
    roundtrip,
)

# -- random play ------------------------------------------------------------------------------


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
