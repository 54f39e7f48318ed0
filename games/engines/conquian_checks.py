"""Conquian: the checks a move goes through before it is played, each with the sentence a
player is shown when their move is not legal (docs/engines/conquian.md)."""

from typing import Any

from .conquian_melds import (
    BIT_OF,
    CODE_OF,
    can_meld,
    codes_of,
    in_some_meld,
    usable_sets,
    wrap_sequence,
)
from .conquian_storage import ConquianState
from .errors import Card, Cards, IllegalMove, gettext_noop
from .protocol import Move


def cards_of(mask: int) -> Cards:
    """Cards named in a refusal ("nothing" when there are none)."""
    return Cards.of(codes_of(mask))


def fits(card: int, melds: int) -> bool:
    """Whether `card` can be worked into `melds` (rearranging them if need be)."""
    pool = melds | card
    return bool(melds) and in_some_meld(card, pool) and can_meld(pool)


def usable_melds(state: ConquianState, seat: int) -> list[int]:
    """The sets of hand cards `seat` can meld with the open card (masks, in listed order)."""
    return usable_sets(state["open"], state["melds"][seat], state["hands"][seat])


def check_last_card_unusable(state: ConquianState, seat: int) -> None:
    """With the stock empty, a last open card that can be used must be melded."""
    if state["stock"]:
        return
    usable = usable_melds(state, seat)
    if usable:
        card = Card(CODE_OF[state["open"]])
        if usable[0]:
            raise IllegalMove(
                gettext_noop(
                    "The stock is empty: you must meld {card} (for example with {cards})."
                ),
                card=card,
                cards=cards_of(usable[0]),
            )
        raise IllegalMove(
            gettext_noop("The stock is empty: you must meld {card} (for example onto your melds)."),
            card=card,
        )


def expect_true(move: Move, key: str) -> None:
    if move[key] is not True:
        raise IllegalMove(gettext_noop('"{key}" must be true'), key=key)


def wants_force(move: Move) -> bool:
    if "force" not in move:
        return False
    if move["force"] is not True:
        raise IllegalMove(gettext_noop('"force" must be true; leave it out not to force the card'))
    return True


def card_in(state: ConquianState, seat: int, code: Any) -> int:
    """The bit of a card the seat holds; IllegalMove naming where the card really is."""
    card = BIT_OF.get(code) if isinstance(code, str) else None
    if card is None:
        raise IllegalMove(
            gettext_noop("{value} is not a Conquian card (A, 2-7, J, Q, K of S, H, D, C)"),
            value=repr(code),
        )
    if state["hands"][seat] & card:
        return card
    if state["melds"][1 - seat] & card:
        raise IllegalMove(gettext_noop("{card} is in your opponent's melds."), card=Card(code))
    if state["melds"][seat] & card:
        raise IllegalMove(gettext_noop("{card} is already in your melds."), card=Card(code))
    if state["open"] == card:
        raise IllegalMove(
            gettext_noop("{card} is the open card: choose only cards from your hand."),
            card=Card(code),
        )
    raise IllegalMove(gettext_noop("{card} is not in your hand."), card=Card(code))


def meld_error(state: ConquianState, seat: int, used: int) -> IllegalMove:
    """Why the open card and the hand cards `used` cannot be melded, as the refusal to raise."""
    melds = state["melds"][seat]
    card = state["open"]
    everything = melds | card | used
    wrap = wrap_sequence(everything)
    open_card = Card(CODE_OF[card])
    if wrap:
        return IllegalMove(gettext_noop("{run} is not a sequence: the ace is low."), run=wrap)
    if not used and fits(card, state["melds"][1 - seat]):
        return IllegalMove(
            gettext_noop(
                "{card} does not fit your melds, and you cannot add to your opponent's melds."
            ),
            card=open_card,
        )
    if not melds and used.bit_count() < 2:
        return IllegalMove(gettext_noop("A new meld needs at least two cards from your hand."))
    if can_meld(everything):
        return IllegalMove(
            gettext_noop(
                "{card} and {cards} do not make one meld: choose only the cards of its meld."
            ),
            card=open_card,
            cards=cards_of(used),
        )
    if used:
        return IllegalMove(
            gettext_noop(
                "{card} with {cards} cannot be melded: a meld is 3 or 4 of a rank, "
                "or 3 to 8 in a suit."
            ),
            card=open_card,
            cards=cards_of(used),
        )
    return IllegalMove(
        gettext_noop("{card} cannot be melded: a meld is 3 or 4 of a rank, or 3 to 8 in a suit."),
        card=open_card,
    )
