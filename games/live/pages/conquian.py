"""Conquian's page: the open card, both players' melds, and the choices of the phase."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy

from config.game_words import card_name
from games.engines.conquian import ConquianView

from . import narrated_names, said, seat_names

# What the player to act is doing, told of another player and of the viewer ("You ...").
PHASE_WORDS = {
    "turned": (
        gettext_lazy("%(name)s has turned the open card."),
        gettext_lazy("You have turned the open card."),
    ),
    "facing": (
        gettext_lazy("%(name)s is offered the open card."),
        gettext_lazy("You are offered the open card."),
    ),
    "forced": (
        gettext_lazy("%(name)s was forced to take the open card."),
        gettext_lazy("You were forced to take the open card."),
    ),
    "discard": (gettext_lazy("%(name)s must discard."), gettext_lazy("You must discard.")),
}
# A move of the log, told of another player and of the viewer.
LOG_WORDS = {
    "moved": (
        gettext_lazy("<strong>%(name)s</strong> moved"),
        gettext_lazy("<strong>You</strong> moved"),
    ),
    "meld with": (
        gettext_lazy("<strong>%(name)s</strong> melded the open card with %(cards)s"),
        gettext_lazy("<strong>You</strong> melded the open card with %(cards)s"),
    ),
    "meld": (
        gettext_lazy("<strong>%(name)s</strong> melded the open card"),
        gettext_lazy("<strong>You</strong> melded the open card"),
    ),
    "discard and force": (
        gettext_lazy("<strong>%(name)s</strong> discarded %(card)s and forced it"),
        gettext_lazy("<strong>You</strong> discarded %(card)s and forced it"),
    ),
    "discard": (
        gettext_lazy("<strong>%(name)s</strong> discarded %(card)s"),
        gettext_lazy("<strong>You</strong> discarded %(card)s"),
    ),
    "reject": (
        gettext_lazy("<strong>%(name)s</strong> rejected the open card"),
        gettext_lazy("<strong>You</strong> rejected the open card"),
    ),
    "pass and force": (
        gettext_lazy("<strong>%(name)s</strong> left the card open and forced it"),
        gettext_lazy("<strong>You</strong> left the card open and forced it"),
    ),
    "pass": (
        gettext_lazy("<strong>%(name)s</strong> left the card open"),
        gettext_lazy("<strong>You</strong> left the card open"),
    ),
}


def page_context(*, table: Mapping[str, Any], moves: list[dict], hands: Sequence[dict]) -> dict:
    view: ConquianView = table["view"]
    names = seat_names(table)
    seat = view.get("seat")
    order = [1 - seat, seat] if seat is not None else [0, 1]
    last_deal = view["last_deal"]
    narrated = narrated_names(table)
    melds = [move["meld"] for move in moves if "meld" in move]
    return {
        "hands": [{"name": seat["name"], "cards": seat["view"]["hand"]} for seat in hands],
        "fitting": sorted({code for meld in melds for code in meld}),
        "meld_options": _meld_options(melds, open_card=view.get("open_card")),
        "players": [
            {
                "seat": index,
                "name": names[index],
                "melds": view["melds"][index],
                "hand_count": view["hand_counts"][index],
                "score": view["scores"][index],
                "dealer": view["dealer"] == index,
                "mine": index == seat,
            }
            for index in order
        ],
        "acting_line": _acting_line(view, narrated),
        "can_meld": any("meld" in move for move in moves),
        "can_reject": {"reject": True} in moves,
        "can_pass": {"pass": True} in moves,
        "can_pass_force": {"pass": True, "force": True} in moves,
        "discards": sorted({move["discard"] for move in moves if "discard" in move}),
        "force_discards": sorted(
            {move["discard"] for move in moves if "discard" in move and move.get("force")}
        ),
        "last_deal": (
            {
                **last_deal,
                "winner_name": narrated[last_deal["winner"]]
                if last_deal["winner"] is not None
                else None,
                "mine": last_deal["winner"] is not None and last_deal["winner"] == seat,
            }
            if last_deal
            else None
        ),
    }


MELD_OPTIONS_SHOWN = 6


def _meld_options(melds: list[list[str]], *, open_card: str | None) -> list[dict]:
    """The melds the viewer may make with the open card, from their own legal moves only:
    each with the hand cards it takes and the whole meld it makes (the open card first), as
    one-tap buttons; the fewest hand cards first, at most MELD_OPTIONS_SHOWN of them."""
    if open_card is None:
        return []
    shown = sorted(melds, key=lambda cards: (len(cards), cards))[:MELD_OPTIONS_SHOWN]
    return [{"cards": cards, "meld": [open_card, *cards], "move": json.dumps({"meld": cards})}
            for cards in shown]  # fmt: skip


def _acting_line(view: ConquianView, narrated: list[str | None]) -> str:
    """ "Bo Marsh has turned the open card.", or "You have turned ..." on Bo's own page."""
    words = PHASE_WORDS.get(view["phase"])
    if not words or not view["to_act"]:
        return ""
    seat = view.get("seat")
    return " ".join(
        str(words[1]) if index == seat else str(words[0]) % {"name": narrated[index]}
        for index in view["to_act"]
    )


def log_sentence(entry: Mapping[str, Any]) -> SafeString:
    """A move of the log as a sentence, its cards in words."""
    move = entry["move"]
    if move is None:
        return said(entry, LOG_WORDS["moved"])
    if move.get("meld") is not None:
        if not move["meld"]:
            return said(entry, LOG_WORDS["meld"])
        cards = ", ".join(card_name(code) for code in move["meld"])
        return said(entry, LOG_WORDS["meld with"], cards=cards)
    if move.get("discard"):
        words = LOG_WORDS["discard and force" if move.get("force") else "discard"]
        return said(entry, words, card=card_name(move["discard"]))
    if move.get("reject"):
        return said(entry, LOG_WORDS["reject"])
    if move.get("pass"):
        return said(entry, LOG_WORDS["pass and force" if move.get("force") else "pass"])
    return said(entry, LOG_WORDS["moved"])
