"""Every engine get_engine gives satisfies the written-down protocol (games.engines.protocol)."""

import inspect
import typing

import pytest

from games.engines import ENGINE_NAMES, Engine, get_engine
from games.engines.options import Option

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
