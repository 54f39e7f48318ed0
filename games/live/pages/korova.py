"""Корова's page: heads on every card, who has picked (never what), the reveal in order."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext

from games.engines.korova import heads
from games.engines.korova_view import KorovaView

from . import narrated_names, said, seat_names

HEAD_MARK = "♦"  # one mark per head; the words beside it say the number
# A move of the log, told of another player and of the viewer.
LOG_WORDS = {
    "hidden": (
        gettext_lazy("<strong>%(name)s</strong> put a card down"),
        gettext_lazy("<strong>You</strong> put a card down"),
    ),
    "row": (
        gettext_lazy("<strong>%(name)s</strong> took row %(row)s"),
        gettext_lazy("<strong>You</strong> took row %(row)s"),
    ),
    "card": (
        gettext_lazy("<strong>%(name)s</strong> played %(card)s"),
        gettext_lazy("<strong>You</strong> played %(card)s"),
    ),
}


def cow_card(number: int, edition: str = "korova-006") -> dict:
    """A card as the `cow_card` tag (games/templatetags/cards.py) draws it: number, heads and
    their marks."""
    count = heads(number, edition)
    return {"number": number, "heads": count, "marks": HEAD_MARK * count}


def page_context(*, table: Mapping[str, Any], moves: list[dict], hands: Sequence[dict]) -> dict:
    view: KorovaView = table["view"]
    edition = view["edition"]
    names = seat_names(table)
    narrated = narrated_names(table)

    def card(number: int) -> dict:
        return cow_card(number, edition)

    row_choices = {move["row"] for move in moves if "row" in move}
    rows = [
        _row(index, [card(number) for number in row], choosable=index in row_choices)
        for index, row in enumerate(view["rows"])
    ]
    round_labels = [
        gettext("round %(round)s: ") % {"round": number}
        for number in range(1, len(view["sheet"]) + 1)
    ]
    pending = view["pending_row_choice"]
    my_pick = view.get("my_pick")
    return {
        "rows": rows,
        "hand": [card(number) for number in view.get("hand", [])],
        "can_pick": any("card" in move for move in moves),
        "choosing_row": bool(row_choices),
        "my_pick": card(my_pick) if my_pick else None,
        "players": [
            {
                "seat": seat,
                "name": name,
                "picked": view["picked"][seat],
                "score": view["scores"][seat],
                "score_words": mark_safe(  # the catalogue's markup around a number
                    ngettext(
                        "<strong>%(counter)s</strong> head",
                        "<strong>%(counter)s</strong> heads",
                        view["scores"][seat],
                    )
                    % {"counter": view["scores"][seat]}
                ),
                "taken": view["taken"][seat],
            }
            for seat, name in enumerate(names)
        ],
        "revealed": [
            {**card(item["card"]), "name": narrated[item["seat"]]} for item in view["revealed"]
        ],
        "last_turn": [
            {**card(item["card"]), "name": narrated[item["seat"]]} for item in view["last_turn"]
        ],
        "chooser": narrated[pending] if pending is not None else None,
        # a round's first turn still shows the last turn of the round before
        "last_turn_round": view["round"] - 1 if view["turn"] == 1 else view["round"],
        # one row a player (up to ten fit a phone), the total before the rounds
        "score_rows": [
            {
                "name": name,
                "total": view["scores"][seat],
                "rounds": [
                    {"heads": round_heads[seat], "label": round_labels[number]}
                    for number, round_heads in enumerate(view["sheet"])
                ],
            }
            for seat, name in enumerate(names)
        ]
        if view["sheet"]
        else [],
        "hands": [
            {
                "name": seat["name"],
                "cards": [card(number) for number in seat["view"]["hand"]],
                "pick": card(seat["view"]["my_pick"]) if seat["view"]["my_pick"] else None,
            }
            for seat in hands
        ],
    }


def log_sentence(entry: Mapping[str, Any]) -> SafeString:
    """A move of the log as a sentence: a pick not yet revealed is only "put a card down"."""
    move = entry["move"]
    if move is None:
        return said(entry, LOG_WORDS["hidden"])
    if move.get("row") is not None:
        return said(entry, LOG_WORDS["row"], row=move["row"] + 1)
    return said(entry, LOG_WORDS["card"], card=move["card"])


def _row(index: int, cards: list[dict], *, choosable: bool) -> dict:
    """A row of the table with its words: the page draws the rows at every change, and these
    words cost less said here than by the template's tags."""
    number, count = index + 1, sum(card["heads"] for card in cards)
    return {
        "index": index,
        "cards": cards,
        "heads": count,
        "choosable": choosable,
        "label": gettext("Row %(number)s") % {"number": number},
        "heads_words": ngettext("%(counter)s head", "%(counter)s heads", count)
        % {"counter": count},
        "cards_words": ngettext(
            "Row %(number)s, %(counter)s card", "Row %(number)s, %(counter)s cards", len(cards)
        )
        % {"number": number, "counter": len(cards)},
        "take_words": ngettext(
            "Take row %(number)s (%(counter)s head)",
            "Take row %(number)s (%(counter)s heads)",
            count,
        )
        % {"number": number, "counter": count},
    }
