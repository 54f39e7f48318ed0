"""A Convoy result on the fixture's page: each game's winner and convoys."""

from collections.abc import Mapping
from typing import Any


def result_display(*, sheet: dict, rule_options: Mapping, players: Mapping[int, Any]) -> dict:
    games = [
        {
            "number": number,
            "winner": game.get("winner", ""),
            "home_convoys": game.get("convoys", {}).get("home", 0),
            "away_convoys": game.get("convoys", {}).get("away", 0),
        }
        for number, game in enumerate(sheet.get("games", []), 1)
    ]
    return {"games": games}
