"""How a drawn cup tie is decided, per game (docs/cups.md, "A drawn tie").

A knockout tie needs a winner. When a tie's result is a draw, the game's rule below says how it
is settled: either from the sheet already entered (Корова: fewest heads in the last round), or
by a decider played on the night and entered by staff beside the result (Conquian: a deciding
single; Convoy: one more game), as the winning side and a line saying what was played
(scoring.cups.services.cup_tie_decider_record).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from leagues.models import Game
from scoring.kinds.registry import GameRegistry

# Reads the side ("home" / "away") a drawn fixture's sheet already makes the winner, or None.
SheetDecider = Callable[[dict[str, Any]], str | None]


@dataclass(frozen=True)
class DrawnTieRule:
    rule: Any  # the rule in a sentence, shown on the bracket page (lazy text)
    decider: Any  # what staff play and enter when the sheet does not decide (lazy text)
    from_sheet: SheetDecider | None = None


def korova_fewest_heads_last(sheet: dict[str, Any]) -> str | None:
    """The pair with fewer heads in the last round goes through; level there, the round before,
    and so on back to the first. None when every round was level."""
    for heads in reversed(sheet.get("rounds") or []):
        home, away = heads[0] + heads[1], heads[2] + heads[3]
        if home != away:
            return "home" if home < away else "away"
    return None


DRAWN_TIE_RULES: GameRegistry[DrawnTieRule] = GameRegistry(
    "drawn cup tie rule",
    {
        Game.KOROVA: DrawnTieRule(
            rule=_(
                "A drawn tie goes to the pair with fewer heads in the last round (level there: "
                "the round before, and so on); level in every round, one more round is played."
            ),
            decider=_("one more round"),
            from_sheet=korova_fewest_heads_last,
        ),
        Game.CONQUIAN: DrawnTieRule(
            rule=_(
                "A drawn tie is settled by a deciding single between the two teams' first "
                "players, played on the night to the season's target."
            ),
            decider=_("a deciding single"),
        ),
        Game.CONVOY: DrawnTieRule(
            rule=_("A drawn tie is settled by one more game, played on the night."),
            decider=_("one more game"),
        ),
    },
)


def drawn_tie_rule(game: str) -> DrawnTieRule:
    """The game's rule; a game without one (added at run time) settles by a decider."""
    return DRAWN_TIE_RULES.get(
        game, DrawnTieRule(rule=_("A drawn tie is settled by a decider."), decider=_("a decider"))
    )
