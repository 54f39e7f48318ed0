"""Корова: a drawn tie is settled from the sheet, fewest heads in the last round."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from .base import DrawnTieRule


def fewest_heads_last(sheet: dict[str, Any]) -> str | None:
    """The pair with fewer heads in the last round goes through; level there, the round before,
    and so on back to the first. None when every round was level."""
    for heads in reversed(sheet.get("rounds") or []):
        home, away = heads[0] + heads[1], heads[2] + heads[3]
        if home != away:
            return "home" if home < away else "away"
    return None


RULE = DrawnTieRule(
    rule=_(
        "A drawn tie goes to the pair with fewer heads in the last round (level there: "
        "the round before, and so on); level in every round, one more round is played."
    ),
    decider=_("one more round"),
    from_sheet=fewest_heads_last,
)
