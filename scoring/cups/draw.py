"""The shape of a knockout draw, without the database: bracket size, seeding order, where the
byes go, what each round is called (docs/cups.md, "The draw").

A draw is a list of "seeds", best first (a seeded draw: by strength; a random draw: shuffled),
placed in the standard seeding order so that seed 1 meets seed 2 only in the final. The bracket
is filled up to a power of two with byes, which take the places of the lowest seeds: in a
seeded draw the top seeds get the byes, and two byes never meet.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

Team = TypeVar("Team")


@dataclass(frozen=True)
class FirstRoundTie(Generic[Team]):
    """A place in the first round: two teams, or one team (home) and a bye (away None)."""

    position: int  # 1..size/2, top of the bracket first
    home: Team
    away: Team | None

    @property
    def bye(self) -> bool:
        return self.away is None


def bracket_size(teams: int) -> int:
    """The smallest power of two that holds `teams` (at least 2)."""
    size = 2
    while size < teams:
        size *= 2
    return size


def round_count(teams: int) -> int:
    return bracket_size(teams).bit_length() - 1


def seeding_order(size: int) -> list[int]:
    """The seed (1-based) in each bracket place, top to bottom: 1, 8, 4, 5, 2, 7, 3, 6 for 8.
    Each pair of neighbours is a first-round tie; seed 1 and 2 are in opposite halves."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(seeds: Sequence[Team]) -> list[FirstRoundTie[Team]]:
    """The first round of a bracket of `seeds` (best first): seed k meets seed size + 1 - k,
    and a seed beyond the number of teams is a bye for the team it meets."""
    if len(seeds) < 2:
        raise ValueError("a draw needs at least two teams")
    size = bracket_size(len(seeds))
    order = seeding_order(size)
    ties = []
    for position, index in enumerate(range(0, size, 2), 1):
        top, bottom = sorted((order[index], order[index + 1]))
        ties.append(
            FirstRoundTie(
                position=position,
                home=seeds[top - 1],
                away=seeds[bottom - 1] if bottom <= len(seeds) else None,
            )
        )
    return ties


# The names the draw gives the last three rounds, by rounds from the end, and the earlier
# ones' pattern. Stored in English (CupRound.name); shown_round_name reads them in the
# reader's language, and leaves a name an admin gave a round as it is.
NAMED_ROUNDS = {
    0: gettext_noop("Final"),
    1: gettext_noop("Semi-finals"),
    2: gettext_noop("Quarter-finals"),
}
NUMBERED_ROUND = gettext_noop("Round %(number)d")
NUMBERED_ROUND_STORED = re.compile(r"Round (\d{1,3})")


def round_name(*, number: int, rounds: int) -> str:
    """What a round is called, as stored: the last three by their names, earlier ones by number
    (in English; shown_round_name translates it for a page)."""
    named = NAMED_ROUNDS.get(rounds - number)
    return named if named is not None else NUMBERED_ROUND % {"number": number}


def shown_round_name(name: str) -> str:
    """A stored round name in the active language: the draw's own names are translated, a name
    an admin wrote is shown as written."""
    if name in NAMED_ROUNDS.values():
        return _(name)
    numbered = NUMBERED_ROUND_STORED.fullmatch(name)
    if numbered:
        return _(NUMBERED_ROUND) % {"number": int(numbered[1])}
    return name


def next_place(position: int) -> tuple[int, str]:
    """Where the winner of the tie at `position` plays next: the next round's position, and
    the side (the upper tie's winner is at home)."""
    return (position + 1) // 2, "home" if position % 2 else "away"
