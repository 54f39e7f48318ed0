"""Conquian's staff entry grid: the two singles, each a list of deals tapped in order.

Templates: templates/scoring/conquian/sheet.html (the page) and _preview.html (both
singles with their deals, redrawn by htmx after every tap).
"""

import re

from django.utils.translation import gettext as _

from scoring.kinds.conquian import SINGLES, deal_values, single_status
from scoring.results.grids.base import (
    INDEX_DIGITS,
    MAX_GRID_ROWS,
    NEW_INDEX,
    NEW_NUMBER,
    Block,
    Cell,
    SheetGrid,
    post_indexes,
    text,
)

DEAL_CHOICES = ("home", "draw", "away")
NEW_VALUE = "__value__"  # a new deal's worth, in its template (put in by the browser)


class ConquianGrid(SheetGrid):
    game = "conquian"
    template = "scoring/conquian/sheet.html"
    partial = "scoring/conquian/_preview.html"
    partial_holds_cells = True
    top_path = "singles"
    _pattern = re.compile(rf"singles\.([01])\.deals\.(\d{{1,{INDEX_DIGITS}}})")

    def __init__(self, *, deals: list[list[str]] | None = None, **context):
        super().__init__(**context)
        self.deals = deals or [[] for _ in range(SINGLES)]

    @classmethod
    def from_sheet(cls, sheet, **context):
        singles = (sheet or {}).get("singles") or []
        deals = [[text(deal) for deal in single.get("deals", [])] for single in singles[:SINGLES]]
        return cls(deals=[*deals, [], []][:SINGLES], **context)

    @classmethod
    def from_post(cls, post, **context):
        found = post_indexes(post, cls._pattern)
        deals = []
        for single in range(SINGLES):
            count = max((deal for s, deal in found if s == single), default=-1) + 1
            deals.append([found.get((single, deal), "") for deal in range(count)])
        return cls(deals=deals, **context)

    def pairs(self) -> list[tuple]:
        """(home player, away player) of each single: home 1 v away 1, home 2 v away 2."""
        return list(zip(self.lineup.home, self.lineup.away))

    def sheet(self) -> dict:
        return {
            "singles": [
                {
                    "home_player": home.pk,
                    "away_player": away.pk,
                    "deals": [deal.strip() for deal in self.deals[index]],
                }
                for index, (home, away) in enumerate(self.pairs())
            ]
        }

    def _status(self, index: int):
        deals = [deal.strip() for deal in self.deals[index]]
        return single_status(deals, self.options["target"], self.options["carry_over"])

    def blocks(self) -> list[Block]:
        if not hasattr(self, "_blocks"):
            self._blocks = [
                self._block(index, home, away) for index, (home, away) in enumerate(self.pairs())
            ]
        return self._blocks

    def _block(self, index: int, home, away) -> Block:
        deals = [deal.strip() for deal in self.deals[index]]
        values = deal_values(deals, self.options["carry_over"])
        status = self._status(index)
        winner = {"home": home, "away": away}.get(status.winner)
        return Block(
            path=f"singles.{index}",
            title=_("Single %(number)s: %(home)s v %(away)s")
            % {"number": index + 1, "home": home.name, "away": away.name},
            cells=[
                Cell(
                    name=f"singles.{index}.deals.{number}",
                    label=_("Deal %(number)s, worth %(value)s")
                    % {"number": number + 1, "value": values[number]},
                    value=deal,
                )
                for number, deal in enumerate(deals)
            ],
            extra={
                "index": index,
                "home": home,
                "away": away,
                "status": status,
                "values": values,
                "labels": {"home": f"{home.name} won", "draw": "Drawn", "away": f"{away.name} won"},
                "winner": winner,
                # The next deal as the page's template, for a deal added without the network.
                "new_deal": Cell(
                    name=f"singles.{index}.deals.{NEW_INDEX}",
                    label=_("Deal %(number)s, worth %(value)s")
                    % {"number": NEW_NUMBER, "value": NEW_VALUE},
                ),
            },
        )

    def apply_action(self, action: str) -> bool:
        parts = action.split(":")
        if len(parts) < 2 or parts[0] not in ("add", "undo") or parts[1] not in ("0", "1"):
            return False
        index = int(parts[1])
        if parts[0] == "undo":
            if self.deals[index]:
                self.deals[index].pop()
            return True
        if len(parts) != 3 or parts[2] not in DEAL_CHOICES:
            return False
        if self._status(index).finished:
            self.notices.append(
                _(
                    "Single %(number)s is over: a player reached %(target)s points, "
                    "so there is no deal after it."
                )
                % {"number": index + 1, "target": self.options["target"]}
            )
        elif len(self.deals[index]) >= MAX_GRID_ROWS:
            self.notices.append(_("That is as many deals as a single can hold."))
        else:
            self.deals[index].append(parts[2])
        return True

    def preview(self) -> dict:
        return {
            "target": self.options["target"],
            "carry_over": self.options["carry_over"],
            "finished": all(block.extra["status"].finished for block in self.blocks()),
        }


GRID = ConquianGrid  # scoring.results.grids.ENTRY_GRIDS
