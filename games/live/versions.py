"""A table's version: what its pages depend on besides their viewer, read in one small query
without loading its game. The pages' ETags (games.live.views) and the database feed of the
event streams (games.live.push) compare versions; games.live.selectors offers them too."""

import functools
from typing import Any

from django.db import connections, router
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Table, TableMove

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

    Every fetch of a table's page asks this first, so its SQL is compiled once per process
    and database (building it through the ORM each time cost more than running it)."""
    sql, params, converters = _compiled_version_query(router.db_for_read(Table))
    connection = connections[router.db_for_read(Table)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id if param is _TABLE_ID else param for param in params])
        row = cursor.fetchone()
    if row is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    values = list(row)
    for index, (functions, expression) in converters.items():
        for function in functions:
            values[index] = function(values[index], expression, connection)
    return dict(zip(VERSION_FIELDS, values[1:], strict=True))


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


_TABLE_ID = object()
_PLACEHOLDER_ID = -7_340_033  # no table has it; marks where the id goes among the parameters


@functools.cache
def _compiled_version_query(alias: str) -> tuple[str, list[Any], dict[int, Any]]:
    """The version query for one table: its SQL, its parameters (the table id's place
    marked) and the database's converters of its columns (SQLite's datetimes are text)."""
    queryset = _versions_queryset([_PLACEHOLDER_ID]).values("pk", *VERSION_FIELDS)
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    marked = [_TABLE_ID if param == _PLACEHOLDER_ID else param for param in params]
    assert marked.count(_TABLE_ID) == 1, "the table id is one parameter of the query"
    converters = compiler.get_converters([column for column, _, _ in compiler.select])
    return sql, marked, converters
