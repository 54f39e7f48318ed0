"""Корова's page: heads on every card, who has picked (never what), the reveal in order."""

from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.korova import heads
from games.engines.korova_view import KorovaView

from . import narrated_names, seat_names

HEAD_MARK = "♦"  # one mark per head; the words beside it say the number


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
        {
            "index": index,
            "cards": [card(number) for number in row],
            "heads": sum(heads(number, edition) for number in row),
            "choosable": index in row_choices,
        }
        for index, row in enumerate(view["rows"])
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
                "rounds": [round_heads[seat] for round_heads in view["sheet"]],
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
