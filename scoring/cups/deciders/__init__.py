"""How a drawn cup tie is decided, per game (docs/cups.md, "A drawn tie"): each game's rule in
its own module (scoring/cups/deciders/<game>.py), found through DRAWN_TIE_RULES.

A knockout tie needs a winner. When a tie's result is a draw, the game's rule says how it is
settled: either from the sheet already entered (Корова: fewest heads in the last round), or by
a decider played on the night and entered by staff beside the result (Conquian: a deciding
single; Convoy: one more game), as the winning side and a line saying what was played
(scoring.cups.services.cup_tie_decider_record).
"""

from django.utils.translation import gettext_lazy as _

from scoring.kinds.registry import GameRegistry

from .base import DrawnTieRule

DRAWN_TIE_RULES: GameRegistry[DrawnTieRule] = GameRegistry.from_modules(
    "drawn tie rule", __name__, lambda game, module: module.RULE
)


def drawn_tie_rule(game: str) -> DrawnTieRule:
    """The game's rule; a game without one (added at run time) settles by a decider."""
    return DRAWN_TIE_RULES.get(
        game, DrawnTieRule(rule=_("A drawn tie is settled by a decider."), decider=_("a decider"))
    )
