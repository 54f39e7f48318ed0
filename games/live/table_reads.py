"""A table with its seats, and its last moves, as every move (under the table's lock) and
every drawing of its live part reads them: compiled once (games.live.compiled), and the seats
given to the table as `prefetch_related("seats")` would give them."""

from django.db import router

from games.models import Seat, Table, TableMove

from .compiled import CompiledQuery

_TABLE = CompiledQuery(lambda table_id: Table.objects.filter(pk=table_id).order_by())
_LOCKED_TABLE = CompiledQuery(
    lambda table_id: Table.objects.select_for_update().filter(pk=table_id).order_by()
)
_SEATS = CompiledQuery(lambda table_id: Seat.objects.filter(table_id=table_id))


def table_with_seats(table_id: int, *, lock: bool = False) -> Table:
    """The table, its seats prefetched; with `lock`, its row locked until the transaction ends
    (SELECT … FOR UPDATE where the database has it). Raises Table.DoesNotExist."""
    using = router.db_for_write(Table) if lock else router.db_for_read(Table)
    found = (_LOCKED_TABLE if lock else _TABLE).instances(table_id, using=using)
    if not found:
        raise Table.DoesNotExist(f"no table {table_id}")
    table = found[0]
    seats = _SEATS.instances(table_id, using=using)
    for seat in seats:
        seat.table = table  # as a prefetch sets it: a seat's table is not read again
    # What prefetch_related leaves behind (django.db.models.query.prefetch_one_level): the
    # seats' queryset, already evaluated, under the relation's name.
    prefetched = table.seats.all()
    prefetched._result_cache = seats
    prefetched._prefetch_done = True  # type: ignore[attr-defined]
    table._prefetched_objects_cache = {"seats": prefetched}  # type: ignore[attr-defined]
    return table


_LAST_MOVES: dict[int, CompiledQuery[TableMove]] = {}


def last_moves(table: Table, *, count: int) -> list[TableMove]:
    """The table's last `count` moves, in order."""
    query = _LAST_MOVES.get(count)
    if query is None:
        query = _LAST_MOVES[count] = CompiledQuery(
            lambda table_id: TableMove.objects.filter(table_id=table_id).order_by("-pk")[:count]
        )
    return query.instances(table.pk, using=router.db_for_read(TableMove))[::-1]
