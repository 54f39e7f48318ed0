"""The protocol contract: options, player counts, seeds and decks that new_game refuses or takes."""

import math

import pytest

from games.engines import get_engine
from tests.games.engines.protocol_games import (
    CHOICES,
    DEFAULT_OPTIONS,
    PLAYER_COUNTS,
    each_game,
    full_deck,
)

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
