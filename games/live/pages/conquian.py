"""Conquian's page: the open card, both players' melds, and the choices of the phase."""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_lazy

from games.engines.conquian import ConquianView

from . import narrated_names, seat_names

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
