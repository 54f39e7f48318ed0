"""Tie-breakers: small classes that order teams in a table, chained by the season.

A season lists tie-breaker keys in order (Season.tie_breakers, e.g. ["points", "difference",
"head_to_head", "wins"]). The table is ordered by the first; teams level on it are ordered
by the second among themselves, and so on (scoring.standings.table.order_rows). Teams level on
every tie-breaker share a position.

Each tie-breaker gives a sort key for a row; a higher key ranks higher. The context tells
which teams are level at that point (`context.tied`), which is what head to head needs.
"""

from typing import ClassVar, cast

from django.utils.translation import gettext_lazy as _


class TieBreaker:
    """One criterion of the table: `key` is stored in Season.tie_breakers, `name` is shown."""

    key: ClassVar[str]
    # Lazy strings, shown in the reader's language (typed as the str each becomes).
    name: ClassVar[str]
    description: ClassVar[str] = ""

    def sort_key(self, row, context) -> tuple:
        """`row` a scoring.standings.table.StandingRow, `context` its StandingsContext (not imported
        here: standings imports this module)."""
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}()"


class Points(TieBreaker):
    key = "points"
    name = cast(str, _("Points"))
    description = cast(str, _("More league points."))

    def sort_key(self, row, context):
        return (row.points,)


class GameDifference(TieBreaker):
    key = "difference"
    name = cast(str, _("Game difference"))
    description = cast(
        str,
        _(
            "Better difference in the game's own units, for minus against (where fewer is better, "
            "as with penalty heads, against minus for)."
        ),
    )

    def sort_key(self, row, context):
        return (row.difference,)


class HeadToHead(TieBreaker):
    key = "head_to_head"
    name = cast(str, _("Head to head"))
    description = cast(
        str,
        _(
            "A mini-table of the fixtures between the tied teams only: more points in those "
            "fixtures, then the better difference in them."
        ),
    )

    def sort_key(self, row, context):
        points, difference = context.mini_table.get(row.team_id, (0, 0))
        return (points, difference)


class Wins(TieBreaker):
    key = "wins"
    name = cast(str, _("Wins"))
    description = cast(str, _("More fixtures won."))

    def sort_key(self, row, context):
        return (row.won,)


TIE_BREAKERS: dict[str, type[TieBreaker]] = {
    cls.key: cls for cls in (Points, GameDifference, HeadToHead, Wins)
}
# For forms and the admin: (key, name) in the order of the default chain.
TIE_BREAKER_CHOICES = [(key, cls.name) for key, cls in TIE_BREAKERS.items()]


def get_tie_breaker(key: str) -> TieBreaker:
    """The tie-breaker stored as `key`; ValueError naming the known keys otherwise."""
    try:
        return TIE_BREAKERS[key]()
    except (KeyError, TypeError):
        raise ValueError(f"unknown tie-breaker {key!r}; known: {', '.join(TIE_BREAKERS)}") from None


def tie_breaker_chain(keys) -> list[TieBreaker]:
    """The tie-breakers for a season's list of keys; ValueError for an unknown or repeated key."""
    if isinstance(keys, str) or not isinstance(keys, list | tuple):
        raise ValueError("tie-breakers are a list of keys, e.g. ['points', 'difference']")
    chain = [get_tie_breaker(key) for key in keys]
    if len(set(keys)) != len(keys):
        raise ValueError("each tie-breaker may appear only once")
    return chain
