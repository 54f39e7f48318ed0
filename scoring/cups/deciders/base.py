"""A game's rule for a drawn cup tie (the shape each game's module fills)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Reads the side ("home" / "away") a drawn fixture's sheet already makes the winner, or None.
SheetDecider = Callable[[dict[str, Any]], str | None]


@dataclass(frozen=True)
class DrawnTieRule:
    rule: Any  # the rule in a sentence, shown on the bracket page (lazy text)
    decider: Any  # what staff play and enter when the sheet does not decide (lazy text)
    from_sheet: SheetDecider | None = None
