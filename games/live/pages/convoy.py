"""Convoy's page: the board with its targets for each hand card, sides by colour and shape."""

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext, gettext_lazy

from config.game_words import card_name
from games.engines.cards import JOKER
from games.engines.convoy import ConvoyView

from . import narrated_names, said, seat_names
from .cards import card_colour, card_rank, card_suit

# A side is never told by its colour alone: each also has a shape and a letter.
SIDE_SHAPES = ("circle", "square", "triangle")
SIDE_GLYPHS = ("●", "■", "▲")
# Each side's colour and shape in words (the engine's SIDE_COLOURS: red, black, blue).
SIDE_LABELS = (gettext_lazy("Red (circle)"), gettext_lazy("Black (square)"),
               gettext_lazy("Blue (triangle)"))  # fmt: skip
SIDE_COUNTERS = (gettext_lazy("red circle counters"), gettext_lazy("black square counters"),
                 gettext_lazy("blue triangle counters"))  # fmt: skip
SIDE_COUNTER = (gettext_lazy("red circle counter"), gettext_lazy("black square counter"),
                gettext_lazy("blue triangle counter"))  # fmt: skip
ONE_EYED_JACKS = ("JS", "JH")
TWO_EYED_JACKS = ("JC", "JD")
BOARD_SIDE = 10  # squares in a row
# A move of the log, told of another player and of the viewer.
LOG_WORDS = {
    "hidden": (
        gettext_lazy("<strong>%(name)s</strong> moved"),
        gettext_lazy("<strong>You</strong> moved"),
    ),
    "forfeit": (
        gettext_lazy("<strong>%(name)s</strong> lost the turn"),
        gettext_lazy("<strong>You</strong> lost the turn"),
    ),
    "pass": (
        gettext_lazy("<strong>%(name)s</strong> passed"),
        gettext_lazy("<strong>You</strong> passed"),
    ),
    "exchange": (
        gettext_lazy("<strong>%(name)s</strong> exchanged a dead %(card)s"),
        gettext_lazy("<strong>You</strong> exchanged a dead %(card)s"),
    ),
    "remove": (
        gettext_lazy(
            "<strong>%(name)s</strong> played %(card)s and removed the counter on %(squares)s"
        ),
        gettext_lazy("<strong>You</strong> played %(card)s and removed the counter on %(squares)s"),
    ),
    "place": (
        gettext_lazy("<strong>%(name)s</strong> played %(card)s on row %(row)s column %(column)s"),
        gettext_lazy("<strong>You</strong> played %(card)s on row %(row)s column %(column)s"),
    ),
}


def page_context(*, table: Mapping[str, Any], moves: list[dict], hands: Sequence[dict]) -> dict:
    view: ConvoyView = table["view"]
    names = seat_names(table)
    sides = [
        {
            "index": side,
            "colour": colour,
            "shape": SIDE_SHAPES[side],
            "glyph": SIDE_GLYPHS[side],
            "letter": colour[0].upper(),
            "label": SIDE_LABELS[side],
            "counters_words": SIDE_COUNTERS[side],
            "names": names[side :: view["sides"]],
            "convoys": view["convoys"][side],
            "counters_left": view["counters_left"][side],
        }
        for side, colour in enumerate(view["side_colours"])
    ]
    placers, removers, combos, exchangeable, can_pass = _sort_moves(moves)
    # Each completed convoy's squares are tinted in its own side's colour.
    in_convoy = {
        tuple(cell): convoy["side"] for convoy in view["convoy_cells"] for cell in convoy["cells"]
    }
    over = table.get("outcome") is not None
    winners = set((table.get("outcome") or {}).get("winners", []))
    for side in sides:
        won = over and any(seat % view["sides"] == side["index"] for seat in winners)
        side["won"] = won
    last = view.get("last_move") or {}
    last_cells = {tuple(last["square"])} if "square" in last else set()
    last_cells |= {tuple(cell) for cell in last.get("remove", [])}
    board = [
        _cell(
            cell,
            row=row,
            column=column,
            sides=sides,
            place=placers.get((row, column), ()),
            remove=removers.get((row, column), ()),
            in_convoy=in_convoy.get((row, column)),
            last=(row, column) in last_cells,
        )
        for row, cells in enumerate(view["board"])
        for column, cell in enumerate(cells)
    ]
    hand: list[dict[str, Any]] = [
        {
            "code": code,
            "squares": sorted(square for square, cards in placers.items() if code in cards),
            "removes": any(code in cards for cards in removers.values()),
            "dead": code in exchangeable,
            "kind": _kind(code),
            "picker": _picker(code, board, placers, removers) if _kind(code) else [],
        }
        for code in view.get("hand", [])
    ]
    wild = sorted({card["kind"] for card in hand if card["kind"]})
    # Two packs: a hand may hold a card twice, shown twice, but its moves are offered once.
    playable = list({card["code"]: card for card in hand}.values())
    return {
        "hands": [{"name": seat["name"], "cards": seat["view"]["hand"]} for seat in hands],
        "wild_cards": wild,
        "sides": sides,
        "my_side": sides[view["side"]] if view.get("side") is not None else None,
        "board": board,
        "hand": hand,
        "playable": playable,
        "remove_combos": combos,
        "exchangeable": sorted(exchangeable),
        "can_pass": can_pass,
        "last_move": _last_move(last, narrated_names(table), table["seat"]),
        "hand_sizes": list(zip(names, view["hand_sizes"], strict=True)),
    }


def _sort_moves(moves):
    placers, removers = defaultdict(set), defaultdict(set)
    combos, exchangeable, can_pass = [], set(), False
    for move in moves:
        if "square" in move:
            placers[tuple(move["square"])].add(move["card"])
        elif "remove" in move and len(move["remove"]) == 1:
            removers[tuple(move["remove"][0])].add(move["card"])
        elif "remove" in move:
            combos.append(move)  # three sides: one counter from each opposing side
        elif "exchange" in move:
            exchangeable.add(move["card"])
        elif "pass" in move:
            can_pass = True
    return placers, removers, combos, exchangeable, can_pass


def _cell(cell, *, row, column, sides, place, remove, in_convoy, last):
    """A board square, ready to print: its classes, face, words, and the move it makes."""
    counter = cell["counter"]
    side = sides[counter] if counter is not None else None
    roundel = cell["card"] == "ROUNDEL"
    words = gettext("roundel") if roundel else card_name(cell["card"])
    if side:
        words += ", " + str(SIDE_COUNTER[side["index"]])
        if cell["locked"]:
            words += ", " + gettext("locked in a convoy")
    if last:
        words += ", " + gettext("last move")
    classes = ["cell"]
    classes += [name for name, on in (("roundel", roundel), ("taken", side), ("locked", cell["locked"]),
                                      ("in-convoy", in_convoy is not None), ("last", last)) if on]  # fmt: skip
    if in_convoy is not None:
        classes.append(f"convoy-side-{in_convoy}")
    square = f"[{row}, {column}]"
    return {
        "classes": " ".join(classes),
        "face": "◉" if roundel else card_rank(cell["card"]) + card_suit(cell["card"]),
        "ink": "roundel-mark" if roundel else card_colour(cell["card"]),
        "side": side,
        "label": gettext("Row %(row)d, column %(column)d: %(words)s.")
        % {"row": row + 1, "column": column + 1, "words": words},
        "words": words,
        "allowed": " ".join(sorted(place or remove)),
        "removes": bool(remove),
        "template": (
            f'{{"card": $card, "square": {square}}}'
            if place
            else f'{{"card": $card, "remove": [{square}]}}'
        ),
    }


def _picker(code, board, placers, removers) -> list[dict]:
    """For a jack or joker, whose squares may be anywhere on the board: the rows it may play
    in, each with the squares it may take or clear, as full-size buttons (a row, then a
    column) beside the board's small squares."""
    rows = defaultdict(list)
    for square in sorted(set(placers) | set(removers)):
        removes = code in removers.get(square, ())
        if not removes and code not in placers.get(square, ()):
            continue
        row, column = square
        cell = board[row * BOARD_SIDE + column]
        action = "remove" if removes else "square"
        target = [[row, column]] if removes else [row, column]
        rows[row].append(
            {
                "column": column,
                "face": cell["face"],
                "ink": cell["ink"],
                "side": cell["side"],
                "words": cell["words"],
                "removes": removes,
                "move": json.dumps({"card": code, action: target}),
            }
        )
    return [{"row": row, "squares": squares} for row, squares in sorted(rows.items())]


def _kind(code: str) -> str:
    """What a wild card does, in the words the hand's line and a screen reader use."""
    if code == JOKER:
        return gettext("joker: places anywhere free or removes a counter")
    if code in TWO_EYED_JACKS:
        return gettext("two-eyed jack: places anywhere free")
    if code in ONE_EYED_JACKS:
        return gettext("one-eyed jack: removes a counter")
    return ""


def square_words(row: int, column: int) -> str:
    """A board square ([row, column] from 0) in words: "row 1 column 2"."""
    return gettext("row %(row)d column %(column)d") % {"row": row + 1, "column": column + 1}


def square_list_words(squares) -> str:
    """Several squares in words: "row 1 column 2 and row 3 column 4"."""
    words = [square_words(row, column) for row, column in squares]
    if len(words) < 2:
        return "".join(words)
    return gettext("%(squares)s and %(last)s") % {
        "squares": ", ".join(words[:-1]),
        "last": words[-1],
    }


def _last_move(last: dict, names: list[str | None], seat: int | None) -> dict | None:
    if not last:
        return None
    return {**last, "name": names[last["seat"]], "mine": last["seat"] == seat}


def log_sentence(entry: Mapping[str, Any]) -> SafeString:
    """A move of the log as a sentence, its card and squares in words."""
    move = entry["move"]
    if move is None:
        return said(entry, LOG_WORDS["hidden"])
    for kind in ("forfeit", "pass"):
        if move.get(kind):
            return said(entry, LOG_WORDS[kind])
    card = card_name(move["card"])
    if move.get("exchange"):
        return said(entry, LOG_WORDS["exchange"], card=card)
    if move.get("remove"):
        return said(
            entry, LOG_WORDS["remove"], card=card, squares=square_list_words(move["remove"])
        )
    row, column = move["square"]
    return said(entry, LOG_WORDS["place"], card=card, row=row + 1, column=column + 1)
