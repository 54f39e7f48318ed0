"""A Корова result on the fixture's page: each player's heads round by round, and the totals."""

from collections.abc import Mapping
from typing import Any

from scoring.kinds.base import SIDES


def result_display(*, sheet: dict, rule_options: Mapping, players: Mapping[int, Any]) -> dict:
    rounds = sheet.get("rounds", [])
    lines, totals = [], {"home": 0, "away": 0}
    for seat, pk in enumerate(sheet.get("players", [])):
        side = SIDES[0] if seat < 2 else SIDES[1]
        heads = [row[seat] for row in rounds if seat < len(row)]
        totals[side] += sum(heads)
        lines.append({"side": side, "player": players.get(pk), "heads": heads, "total": sum(heads)})
    return {"players": lines, "rounds": len(rounds), "totals": totals}
