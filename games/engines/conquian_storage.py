"""Conquian: the engine's state, and the state to JSON and back (a lossless round trip,
docs/engines.md)."""

from collections.abc import Iterable
from typing import Any, TypedDict

from .conquian_melds import ALL_CARDS, BIT_OF, CODE_OF, CODES, codes_of
from .options import Option, resolve_options
from .protocol import Dump


class ConquianState(TypedDict):
    """Cards are bits (conquian_melds), a set of cards one mask.

    Phases: "turned" (facing a card the player turned themselves: meld it or pass),
    "facing" (facing a card the opponent offered: meld it or reject it), "forced" (the
    opponent forced the card: meld it), "discard" (melded: discard one card), "over".
    """

    seed: int | None
    options: dict[str, Any]
    deal: int  # 1-based deal number
    dealer: int
    value: int  # what the deal in play is worth
    scores: tuple[int, ...]
    hands: tuple[int, ...]  # one mask per seat
    melds: tuple[int, ...]  # one mask per seat
    stock: tuple[int, ...]  # card bits, top first
    open: int  # the open card's bit, 0 when none
    dead: int  # the mask of the dead pile
    turn: int  # the seat to act, -1 when the match is over
    phase: str
    last: tuple[int, ...] | None  # the last finished deal: (deal number, winner or -1, points)
    results: tuple[int, ...]  # each finished deal's winner or -1


def dump_state(state: ConquianState) -> Dump:
    """The state as JSON, cards as codes."""
    last = state["last"]
    return {
        "game": "conquian",
        "seed": state["seed"],
        "options": dict(state["options"]),
        "deal_number": state["deal"],
        "dealer": state["dealer"],
        "deal_value": state["value"],
        "scores": list(state["scores"]),
        "hands": [codes_of(hand) for hand in state["hands"]],
        "melds": [codes_of(melds) for melds in state["melds"]],
        "stock": [CODE_OF[card] for card in state["stock"]],
        "open_card": CODE_OF[state["open"]] if state["open"] else None,
        "dead_pile": codes_of(state["dead"]),
        "to_act": state["turn"],
        "phase": state["phase"],
        "last_deal": None if last is None else list(last),
        "deal_results": [None if winner < 0 else winner for winner in state["results"]],
    }


def load_state(
    data: Dump, *, options: tuple[Option, ...], phases: tuple[str, ...]
) -> ConquianState:
    """The state back from dump_state, refusing one that does not account for the 40 cards."""
    try:
        last = data["last_deal"]
        state: ConquianState = {
            "seed": data["seed"],
            "options": resolve_options(options, data["options"]),
            "deal": int(data["deal_number"]),
            "dealer": int(data["dealer"]),
            "value": int(data["deal_value"]),
            "scores": tuple(int(score) for score in data["scores"]),
            "hands": tuple(mask_of(codes) for codes in data["hands"]),
            "melds": tuple(mask_of(codes) for codes in data["melds"]),
            "stock": tuple(BIT_OF[code] for code in data["stock"]),
            "open": BIT_OF[data["open_card"]] if data["open_card"] else 0,
            "dead": mask_of(data["dead_pile"]),
            "turn": int(data["to_act"]),
            "phase": str(data["phase"]),
            "last": None if last is None else tuple(int(x) for x in last),
            "results": tuple(-1 if s is None else int(s) for s in data.get("deal_results", ())),
        }
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a dumped Conquian state: {error}") from None
    if state["phase"] not in phases or state["turn"] not in (-1, 0, 1):
        raise ValueError("not a dumped Conquian state: unknown phase or seat to act")
    places = [*state["hands"], *state["melds"], *state["stock"], state["open"], state["dead"]]
    if sum(places) != ALL_CARDS or sum(p.bit_count() for p in places) != len(CODES):
        raise ValueError("not a dumped Conquian state: the 40 cards are not all accounted for")
    return state


def mask_of(codes: Iterable[str]) -> int:
    """One mask of the cards named by their codes."""
    mask = 0
    for code in codes:
        mask |= BIT_OF[code]
    return mask


def deck_bits(deck: object) -> list[int]:
    """The bits of a deck given as codes (a new game's); ValueError unless it is all 40 cards."""
    if not isinstance(deck, list | tuple) or len(deck) != len(CODES):
        raise ValueError(f"deck must list all {len(CODES)} Conquian cards")
    try:
        bits = [BIT_OF[code] for code in deck]
    except (KeyError, TypeError):
        raise ValueError("deck holds a card that is not a Conquian card") from None
    if sum(bits) != ALL_CARDS:
        raise ValueError("deck must hold each Conquian card exactly once")
    return bits
