"""A Conquian result on the fixture's page: each single's deals with their values, and points."""

from collections.abc import Mapping
from typing import Any

from scoring.kinds import get_kind
from scoring.kinds.conquian import single_status


def result_display(*, sheet: dict, rule_options: Mapping, players: Mapping[int, Any]) -> dict:
    kind = get_kind("conquian")
    try:
        options = kind.options(rule_options)
    except ValueError:  # the season's options changed since: read it under the defaults
        options = kind.options({})
    singles = []
    for number, single in enumerate(sheet.get("singles", []), 1):
        deals = list(single.get("deals", []))
        status = single_status(deals, options["target"], options["carry_over"])
        singles.append(
            {
                "number": number,
                "home_player": players.get(single.get("home_player")),
                "away_player": players.get(single.get("away_player")),
                "deals": [
                    {"number": n, "won_by": won_by, "value": value}
                    for n, (won_by, value) in enumerate(zip(deals, status.values), 1)
                ],
                "home_points": status.home_points,
                "away_points": status.away_points,
                "winner": status.winner or "",
            }
        )
    return {"singles": singles}
