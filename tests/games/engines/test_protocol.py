"""Every engine get_engine gives satisfies the written-down protocol (games.engines.protocol)."""

import inspect
import typing

import pytest

from games.engines import ENGINE_NAMES, Engine, get_engine
from games.engines.options import Option
from games.engines.protocol import DealerCut

PROTOCOL_METHODS = [
    name
    for name, member in vars(Engine).items()
    if inspect.isfunction(member) and not name.startswith("_")
]


def test_get_engine_promises_an_engine():
    assert typing.get_origin(typing.get_type_hints(get_engine)["return"]) is Engine


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_engine_says_what_live_play_needs(name):
    engine = get_engine(name)
    assert engine.name == name
    assert engine.dealer_cut == ("lowest" if name == "conquian" else "highest")
    assert engine.simultaneous is (name == "korova")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_engine_satisfies_the_protocol(name):
    engine = get_engine(name)
    assert isinstance(engine, Engine)
    assert all(isinstance(option, Option) for option in engine.options)


@pytest.mark.parametrize("name", ENGINE_NAMES)
@pytest.mark.parametrize("method", PROTOCOL_METHODS)
def test_every_engine_takes_the_protocols_arguments(name, method):
    """The protocol's parameters, by name and in order (isinstance checks only the names)."""
    wanted = list(inspect.signature(getattr(Engine, method)).parameters)[1:]
    given = list(inspect.signature(getattr(get_engine(name), method)).parameters)
    assert given[: len(wanted)] == wanted


PLAYERS = {"korova": 4, "conquian": 2, "convoy": 2}


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_every_engine_names_which_card_of_the_cut_deals(name):
    """The cut for the first deal reads `dealer_cut`: one of the protocol's two words, and the
    low card only in Conquian ("Cut; lower card deals the first deal", docs/rules.md)."""
    cut = get_engine(name).dealer_cut
    assert cut in typing.get_args(DealerCut)
    assert (cut == "lowest") is (name == "conquian")


@pytest.mark.parametrize("name", ENGINE_NAMES)
def test_simultaneous_says_whether_a_move_leaves_the_turn_open_to_the_others(name):
    """A simultaneous engine's turn waits for every seat (each move takes only the mover out
    of `to_act`); any other engine has one seat to act at a time, turn after turn."""
    engine = get_engine(name)
    state = engine.new_game(PLAYERS[name], seed=11)
    if engine.simultaneous:
        seats = engine.to_act(state)
        assert len(seats) == PLAYERS[name]
        for played, seat in enumerate(seats[:-1], start=1):
            state = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
            assert engine.to_act(state) == seats[played:]
        return
    for _ in range(30):
        if engine.is_over(state):
            break
        seats = engine.to_act(state)
        assert len(seats) == 1
        state = engine.apply(state, seats[0], engine.legal_moves(state, seats[0])[0])
