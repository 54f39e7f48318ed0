"""Convoy: the engine's state to JSON and back (a lossless round trip, docs/engines.md)."""

from typing import Any

from . import convoy_board as board
from .convoy_position import ConvoyState, lock
from .options import Option, resolve_options
from .protocol import Dump, Move


def dump_state(state: ConvoyState, *, game: str) -> Dump:
    """The state as JSON: the board as rows of side digits, convoys by their cells."""
    rows = []
    for row in range(board.SIZE):
        text = ""
        for cell in range(row * board.SIZE, (row + 1) * board.SIZE):
            owner = next((s for s, mask in enumerate(state["placed"]) if mask >> cell & 1), None)
            text += "." if owner is None else str(owner)
        rows.append(text)
    return {
        "game": game,
        "players": state["players"],
        "seed": state["seed"],
        "options": dict(state["options"]),
        "deck": list(state["deck"]),
        "drawn": state["drawn"],
        "hands": [list(hand) for hand in state["hands"]],
        "discards": list(state["discards"]),
        "board": rows,
        "convoys": [
            {"side": side, "cells": [list(board.SQUARES[c]) for c in board.WINDOWS[index][2]]}
            for side, index in state["convoys"]
        ],
        "turn": state["turn"],
        "exchanged": state["exchanged"],
        "over": state["over"],
        "last_move": copy_move(state["last_move"]),
    }


def load_state(data: Dump, *, options: tuple[Option, ...]) -> ConvoyState:
    """The state back from dump_state, each convoy locked again as the move that made it did."""
    players = data["players"]
    sides = 3 if players % 3 == 0 else 2
    placed = [0] * sides
    for row, text in enumerate(data["board"]):
        for column, mark in enumerate(text):
            if mark != ".":
                placed[int(mark)] |= 1 << (row * board.SIZE + column)
    state: ConvoyState = {
        "players": players,
        "sides": sides,
        "seed": data["seed"],
        "options": resolve_options(options, data["options"]),
        "deck": tuple(data["deck"]),
        "drawn": data["drawn"],
        "hands": tuple(tuple(hand) for hand in data["hands"]),
        "discards": tuple(data["discards"]),
        "placed": tuple(placed),
        "locked": 0,
        "shapes": (0,) * (board.SIZE * board.SIZE),
        "convoys": (),
        "scores": (0,) * sides,
        "turn": data["turn"],
        "exchanged": data["exchanged"],
        "over": data["over"],
        "last_move": copy_move(data["last_move"]),
    }
    for convoy in data["convoys"]:
        index = board.WINDOW_INDEX[tuple(sorted(r * board.SIZE + c for r, c in convoy["cells"]))]
        mask, shape, _ = board.WINDOWS[index]
        lock(state, convoy["side"], [(mask, shape, index)])
    return state


def copy_move(move: Move | None) -> Move | None:
    """A fresh copy of a recorded move (its squares are lists)."""
    if move is None:
        return None
    copy: dict[str, Any] = dict(move)
    if "square" in copy:
        copy["square"] = list(copy["square"])
    if "remove" in copy:
        copy["remove"] = [list(square) for square in copy["remove"]]
    return copy
