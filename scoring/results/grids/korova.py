"""Корова's staff entry grid: the four players × rounds of penalty heads.

Templates: templates/scoring/korova/sheet.html (the page) and _preview.html (the running
totals that htmx redraws as staff type).
"""

import json
import re

from django.utils.translation import gettext as _

from scoring.kinds.base import and_list
from scoring.kinds.korova import SEATS, game_ended_at, running_totals
from scoring.results.grids.base import (
    INDEX_DIGITS,
    MAX_GRID_ROWS,
    NEW_INDEX,
    NEW_NUMBER,
    Block,
    Cell,
    SheetGrid,
    cell_value,
    post_indexes,
    text,
)

# The action of the Undo button after "Remove last round": the removed cells ride along as JSON.
RESTORE_ROUND = "restore_round:"


def _restored_round(text: str) -> list[str] | None:
    """The cells of a round to put back, from the Undo button; None if it is not one."""
    try:
        cells = json.loads(text)
    except ValueError:
        return None
    if not isinstance(cells, list) or len(cells) != SEATS:
        return None
    if not all(isinstance(cell, str) and len(cell) <= 40 for cell in cells):
        return None
    return cells


class KorovaGrid(SheetGrid):
    game = "korova"
    template = "scoring/korova/sheet.html"
    partial = "scoring/korova/_preview.html"
    top_path = "rounds"
    _pattern = re.compile(rf"rounds\.(\d{{1,{INDEX_DIGITS}}})\.([0-3])")

    def __init__(self, *, rounds: list[list[str]] | None = None, **context):
        super().__init__(**context)
        self.rounds = rounds or [[""] * SEATS]
        self.removed_round: list[str] | None = None  # what "Remove last round" took: Undo

    @classmethod
    def from_sheet(cls, sheet, **context):
        rounds = [[text(cell) for cell in row] for row in (sheet or {}).get("rounds", [])]
        return cls(rounds=rounds or None, **context)

    @classmethod
    def from_post(cls, post, **context):
        found = post_indexes(post, cls._pattern)
        count = max((index for index, _ in found), default=-1) + 1
        rounds = [[found.get((index, seat), "") for seat in range(SEATS)] for index in range(count)]
        return cls(rounds=rounds or None, **context)

    def sheet(self) -> dict:
        return {
            "players": [player.pk for player in self.lineup.players],
            "rounds": [[cell_value(cell) for cell in row] for row in self.rounds],
        }

    @property
    def end_score(self) -> int:
        return self.options["end_score"]

    def _played_rounds(self) -> list[list]:
        """The rounds typed so far, without blank rounds at the end."""
        rounds = [list(row) for row in self.rounds]
        while rounds and all(not cell.strip() for cell in rounds[-1]):
            rounds.pop()
        return rounds

    def _counted_rounds(self) -> list[list]:
        """The rounds typed so far with what Save refuses (add_errors) left blank."""
        by_path = {block.path: block for block in self.blocks()}
        counted = []
        for index, row in enumerate(self._played_rounds()):
            block = by_path.get(f"rounds.{index}")
            if block is None:
                counted.append(row)
            elif block.error:
                counted.append([""] * SEATS)
            else:
                counted.append(["" if cell.error else cell.value for cell in block.cells])
        return counted

    def _round_block(self, index, number, row: list[str]) -> Block:
        players = self.lineup.players
        return Block(
            path=f"rounds.{index}",
            title=_("Round %(number)s") % {"number": number},
            cells=[
                Cell(
                    name=f"rounds.{index}.{seat}",
                    label=_("Round %(number)s, %(player)s")
                    % {"number": number, "player": players[seat].name},
                    value=value,
                )
                for seat, value in enumerate(row)
            ],
            extra={"number": number},
        )

    def blocks(self) -> list[Block]:
        if not hasattr(self, "_blocks"):
            self._blocks = [
                self._round_block(index, index + 1, row) for index, row in enumerate(self.rounds)
            ]
        return self._blocks

    @property
    def new_round(self) -> Block:
        """A blank round with the placeholders __index__ and __number__ where its place goes:
        the page's template for a round added without the network (static/entry_offline_rows.js
        puts the next index and number in), drawn as the server draws every round."""
        return self._round_block(NEW_INDEX, NEW_NUMBER, [""] * SEATS)

    def apply_action(self, action: str) -> bool:
        if action == "add_round":
            ended_at = game_ended_at(self._played_rounds(), self.end_score)
            if ended_at is not None:
                self.notices.append(
                    _(
                        "The game ended in round %(round)s: someone reached %(end_score)s, "
                        "so there is no round after it."
                    )
                    % {"round": ended_at, "end_score": self.end_score}
                )
            elif len(self.rounds) >= MAX_GRID_ROWS:
                self.notices.append(_("That is as many rounds as a sheet can hold."))
            else:
                self.rounds.append([""] * SEATS)
            return True
        if action == "remove_round":
            if len(self.rounds) > 1:
                removed = self.rounds.pop()
                self.removed_round = removed if any(cell.strip() for cell in removed) else None
            return True
        if action.startswith(RESTORE_ROUND):
            restored = _restored_round(action[len(RESTORE_ROUND) :])
            if restored is not None and len(self.rounds) < MAX_GRID_ROWS:
                if not any(cell.strip() for cell in self.rounds[-1]):
                    self.rounds.pop()  # a blank last round makes way for the one put back
                self.rounds.append(restored)
            return True
        return False

    def _removed_round_preview(self) -> dict | None:
        if self.removed_round is None:
            return None
        names = [player.name for player in self.lineup.players]
        return {
            "number": len(self.rounds) + 1,
            "words": ", ".join(
                f"{name} {cell.strip() or '–'}" for name, cell in zip(names, self.removed_round)
            ),
            "restore": RESTORE_ROUND + json.dumps(self.removed_round),
        }

    def preview(self) -> dict:
        """Running totals as typed, team totals and the end of the game. A cell Save refuses
        counts 0 here and a round Save refuses counts nothing (their messages say why), so
        that no end of the game or leader is claimed from heads that cannot be saved."""
        players = self.lineup.players
        played = self._counted_rounds()
        running = running_totals(played)
        totals = [*(running[-1] if running else []), *[0] * SEATS][:SEATS]
        ended_at = game_ended_at(played, self.end_score)
        home_total, away_total = totals[0] + totals[1], totals[2] + totals[3]
        teams = {"home": self.fixture.home_team, "away": self.fixture.away_team}
        return {
            "players": [
                {
                    "name": player.name,
                    "team": teams["home" if seat < 2 else "away"].name,
                    "total": totals[seat],
                    "reached": totals[seat] >= self.end_score,
                }
                for seat, player in enumerate(players)
            ],
            "home_total": home_total,
            "away_total": away_total,
            "leader": (
                None
                if home_total == away_total
                else teams["home"]
                if home_total < away_total
                else teams["away"]
            ),
            "margin": abs(home_total - away_total),
            "rounds": len(played),
            "running": [{"number": number, "totals": row} for number, row in enumerate(running, 1)],
            "end_score": self.end_score,
            "ended_at": ended_at,
            "highest": max(totals),
            "reached": [
                player.name for player, total in zip(players, totals) if total >= self.end_score
            ],
            "reached_names": and_list(
                [player.name for player, total in zip(players, totals) if total >= self.end_score]
                or ["—"]
            ),
            "to_go": max(self.end_score - max(totals), 0),
            "removed_round": self._removed_round_preview(),
        }


GRID = KorovaGrid  # scoring.results.grids.ENTRY_GRIDS
