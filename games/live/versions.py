"""A table's version: what its pages depend on besides their viewer, read in one small query
without loading its game. The pages' ETags (games.live.views) and the database feed of the
event streams (games.live.push) compare versions; games.live.selectors offers them too."""

from typing import Any

from django.db import router
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Table, TableMove

from .compiled import CompiledQuery

VERSION_FIELDS = ("turn", "status", "deadline", "held", "paused_at", "log_entries",
                  "taken_seats", "joined_seats", "bot_seats", "pause_asks", "claims")  # fmt: skip
_TAKEN = Q(seats__bot=True) | Q(seats__user__isnull=False) | Q(seats__player__isnull=False)


def table_version(*, table_id: int) -> dict[str, Any]:
    """What a table's page depends on besides its viewer, in one small query: the turn, the
    status, the open turn's deadline, whether it is held or paused, how many log entries,
    taken seats, joined seats, bots (a claimed seat), asks for a pause and claims it has.
    Two reads with the same version show the same page to the same viewer (a move adds a log
    entry, a join takes a seat or marks it joined, the deal changes the status, a time bank
    moves the deadline), so a poll can be answered with 304 without loading the game.
    Raises Table.DoesNotExist.

    Every fetch of a table's page asks this first, so its SQL is compiled once
    (games.live.compiled)."""
    rows = _VERSION.rows(table_id, using=router.db_for_read(Table))
    if not rows:
        raise Table.DoesNotExist(f"no table {table_id}")
    return dict(zip(VERSION_FIELDS, rows[0][1:], strict=True))


def table_versions(*, table_ids: list[int]) -> dict[int, dict[str, Any]]:
    """`table_version` of each of the tables, in one query, by id; a table that is gone is
    left out."""
    rows = _versions_queryset(table_ids).values("pk", *VERSION_FIELDS)
    return {row.pop("pk"): row for row in rows}


def _versions_queryset(table_ids: list[int]) -> QuerySet[Table]:
    # The log is counted apart: joined with the seats, every move would be read once a seat.
    log_entries = (
        TableMove.objects.filter(table=OuterRef("pk"))
        .order_by()
        .values("table")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Table.objects.filter(pk__in=table_ids).annotate(
        log_entries=Coalesce(Subquery(log_entries), 0),
        taken_seats=Count("seats", filter=_TAKEN),
        joined_seats=Count("seats", filter=Q(seats__joined_at__isnull=False)),
        bot_seats=Count("seats", filter=Q(seats__bot=True)),
        pause_asks=Count("seats", filter=Q(seats__pause_asked=True)),
        claims=Count("seats", filter=Q(seats__claimed_at__isnull=False)),
    )


_VERSION = CompiledQuery(
    lambda table_id: _versions_queryset([table_id]).values("pk", *VERSION_FIELDS)
)
