"""When a fixture's live tables are on: the fixture is scheduled and it is the fixture's day.

- Setting its tables up and saying "I am here" at one of them wait for the fixture's (local)
  day and end with it (`fixture_ensure_on_today`): before the day, BeforeFixtureDay (the rule
  staff entry follows); after it, or for a fixture postponed, void or played, TableClosed.
- A game begun on the fixture's day plays on after midnight. Its table is off only when the
  fixture has been postponed or voided, or moved to another day than the one the table was set
  up on (`fixture_is_off_for`).
- Postponing, voiding or moving a fixture closes its unfinished tables (status `closed`, no
  clock, no result written): `fixture_tables_close_if_off`, which games.apps connects to the
  fixture's post_save (leagues and scoring know nothing of live tables). A table the receiver
  finds locked by a move in flight is closed by the next move or "I am here" at it
  (`fixture_table_closed_if_off`), and a game that ends meanwhile writes no result
  (games.live.fixture_tables.table_finished_for_fixture and scoring's own check for a live
  result).
"""

import datetime
from typing import Any

from django.db import transaction
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.models import Table
from leagues.models import Fixture
from scoring.results.fixture_day import ensure_fixture_day_has_come

from .exceptions import TableClosed
from .push import table_changed_on_commit

# Why a fixture's tables are off: it is no longer scheduled.
FIXTURE_NOT_ON: dict[str, Any] = {
    Fixture.Status.PLAYED: gettext_lazy("This fixture is played."),
    Fixture.Status.POSTPONED: gettext_lazy("This fixture is postponed."),
    Fixture.Status.VOID: gettext_lazy("This fixture is void."),
}

_UNFINISHED = (Table.Status.WAITING, Table.Status.PLAYING)

TABLE_CLOSED = gettext_lazy(
    "This table is closed: its fixture was postponed, voided or moved to another day, "
    "so its game ended with no result."
)


def fixture_day(fixture: Fixture) -> datetime.date:
    """The fixture's (local) day."""
    return timezone.localdate(fixture.starts_at)


def fixture_ensure_on_today(
    *, fixture: Fixture, under_way: bool = False, waiting: str = "its tables open"
) -> None:
    """Refuse unless the fixture is scheduled and today is its day (or, `under_way`, a game of
    it begun on its day has ended and its next table waits: that may be after midnight).

    Raises TableClosed for a fixture played, postponed or void, or whose day has passed
    (the venue's staff can move it to a new date); BeforeFixtureDay while its day is to come.
    """
    if fixture.status != Fixture.Status.SCHEDULED:
        raise TableClosed(str(FIXTURE_NOT_ON.get(fixture.status, _("This fixture is not on."))))
    ensure_fixture_day_has_come(fixture=fixture, waiting=waiting)
    day = fixture_day(fixture)
    if day < timezone.localdate() and not under_way:
        raise TableClosed(
            _(
                "This fixture was on %(day)s: its tables open on that day only. "
                "The venue's staff can move it to a new date."
            )
            % {"day": dateformat.format(day, pgettext("date format", "D j M Y"))}
        )


def fixture_is_off_for(*, table: Table, fixture: Fixture) -> bool:
    """Whether the fixture no longer plays at this table: postponed, void, or moved to another
    day than the one the table was set up on. A played fixture's table plays on (its result
    meets the one entered meanwhile as a proposal), and so does a game after midnight."""
    if fixture.status in (Fixture.Status.POSTPONED, Fixture.Status.VOID):
        return True
    return table_fixture_day(table) != fixture_day(fixture)


def table_fixture_day(table: Table) -> datetime.date:
    """The fixture's day the table was set up for (a table from before the field: the day it
    was set up). A Convoy game 2 set up after midnight is still for the fixture's day."""
    return table.fixture_day or timezone.localdate(table.created_at)


def fixture_under_way(*, table: Table) -> bool:
    """Whether a game of the table's fixture set up for the same day has been played to its end
    (Conquian's first single, Convoy's game 1): the fixture began on its day, and its later
    tables may start after midnight."""
    if table.fixture_id is None:
        return False
    same_day = Table.objects.filter(fixture_id=table.fixture_id, status=Table.Status.FINISHED)
    return any(table_fixture_day(done) == table_fixture_day(table) for done in same_day)


def fixture_table_close(*, table: Table) -> None:
    """Close a fixture's unfinished table (locked by the caller): no clock, no result, no move."""
    table.status, table.deadline, table.bank_since, table.held = (
        Table.Status.CLOSED, None, None, False,
    )  # fmt: skip
    table.paused_at, table.paused_left = None, None
    table.save(
        update_fields=["status", "deadline", "bank_since", "held", "paused_at", "paused_left"]
    )


def fixture_tables_close_if_off(*, fixture: Fixture) -> list[int]:
    """Close the fixture's unfinished tables that it no longer plays at (fixture_is_off_for).
    Tables another transaction holds (a move in flight) are skipped, not waited for: the next
    write at each closes it (fixture_table_closed_if_off). Returns the ids closed."""
    closed = []
    with transaction.atomic():
        unfinished = Table.objects.select_for_update(skip_locked=True).filter(
            fixture_id=fixture.pk, status__in=_UNFINISHED
        )
        for table in unfinished:
            if fixture_is_off_for(table=table, fixture=fixture):
                table_changed_on_commit(table)  # its players' pages hear of it
                fixture_table_close(table=table)
                closed.append(table.pk)
    return closed


def fixture_table_closed_if_off(*, table: Table) -> bool:
    """At a fixture's unfinished table (locked by the caller): close it when its fixture is off
    (the receiver missed it), and say whether it did. The caller keeps the close and refuses
    what was asked with TABLE_CLOSED. Nothing for a casual table."""
    if table.fixture_id is None or table.status not in _UNFINISHED:
        return False
    fixture = Fixture.objects.get(pk=table.fixture_id)
    if fixture_is_off_for(table=table, fixture=fixture):
        fixture_table_close(table=table)
        return True
    return False


def fixture_saved(sender, instance: Fixture, created: bool, **kwargs) -> None:
    """post_save receiver for Fixture: close the tables of a fixture postponed, voided or moved."""
    if not created:
        fixture_tables_close_if_off(fixture=instance)
