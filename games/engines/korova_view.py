"""The shape of a Корова view (docs/engines/korova.md, "The view"), apart from the rules."""

from typing import NotRequired, TypedDict


class RevealedCard(TypedDict):
    seat: int
    card: int


class KorovaView(TypedDict):
    """What `view(state, seat)` shows (docs/engines/korova.md, "The view"): `hand` and
    `my_pick` only to a seated viewer."""

    players: int
    edition: str
    end_score: int
    round: int
    turn: int
    rows: list[list[int]]
    stock: int
    scores: list[int]
    taken: list[int]
    sheet: list[list[int]]
    picked: list[bool]
    to_act: list[int]
    revealed: list[RevealedCard]
    pending_row_choice: int | None
    last_turn: list[RevealedCard]
    over: bool
    hand: NotRequired[list[int]]
    my_pick: NotRequired[int | None]
