"""Reads of live tables: a table and its log as one viewer may see them, and the lobby.

Everything a viewer gets comes from `eng.view(state, seat)` for their own seat (None for a
spectator): never the stored state, which holds the deck and every hand. Reading never shows
an overdue turn as open: a table read past its deadline is expired first (through the same
service the clock uses), then read.
"""

import datetime

from django.utils import timezone

from games.engines import get_engine

from .models import Seat, Table
from .services import table_turn_expire
from .turns import is_overdue

LOBBY_SIZE = 50


def iso_utc(moment: datetime.datetime | None) -> str | None:
    """ISO 8601 in UTC with milliseconds: "2026-12-01T20:00:30.250Z"."""
    if moment is None:
        return None
    return moment.astimezone(datetime.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _current_table(table_id: int) -> Table:
    table = Table.objects.get(pk=table_id)
    if is_overdue(table, timezone.now()):
        table_turn_expire(table_id=table.pk, turn=table.turn)
        table = Table.objects.get(pk=table_id)
    return table


def _viewer_seat(seats: list[Seat], user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((seat.seat for seat in seats if seat.user_id == user.pk), None)


def table_for_viewer(*, table_id: int, user) -> dict:
    """The table's API JSON (DESIGN.md) as `user` may see it; `seat` is None for someone not
    seated, who gets a spectator's view. Raises Table.DoesNotExist."""
    table = _current_table(table_id)
    seats = list(table.seats.all())
    seat = _viewer_seat(seats, user)
    view, to_act, outcome = None, [], None
    if table.state is not None:
        eng = get_engine(table.game)
        state = eng.load(table.state)
        view = eng.view(state, seat)
        to_act = list(eng.to_act(state))
        if eng.is_over(state):
            outcome = eng.outcome(state)
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "turn": table.turn,
        "deadline": iso_utc(table.deadline),
        "turn_seconds": table.turn_seconds,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in seats],
        "seat": seat,
        "to_act": to_act,
        "view": view,
        "outcome": outcome,
        "fixture": table.fixture_id,
        "cut": table.cut,
    }


def table_log_for_viewer(*, table_id: int, user) -> list[dict]:
    """The move log in order. Another seat's move in the still open turn (a Корова pick not
    yet revealed) shows `move: null`; once the game is over everything shows.
    Raises Table.DoesNotExist."""
    table = _current_table(table_id)
    seat = _viewer_seat(list(table.seats.all()), user)
    hide_open_turn = table.status == Table.Status.PLAYING
    return [
        {
            "turn": entry.turn,
            "seat": entry.seat,
            "move": None
            if hide_open_turn and entry.turn == table.turn and entry.seat != seat
            else entry.move,
            "timeout": entry.timeout,
            "at": iso_utc(entry.at),
        }
        for entry in table.moves.order_by("pk")
    ]


def open_turn_deadline(*, table_id: int, turn: int) -> datetime.datetime | None:
    """When `turn` of the table expires, or None when that turn is no longer open."""
    return (
        Table.objects.filter(pk=table_id, turn=turn, status=Table.Status.PLAYING)
        .values_list("deadline", flat=True)
        .first()
    )


def _summary(table: Table, user) -> dict:
    seats = list(table.seats.all())
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "players": table.players,
        "turn_seconds": table.turn_seconds,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in seats],
        "open_seats": sum(not s.taken for s in seats),
        "seat": _viewer_seat(seats, user),
        "fixture": table.fixture_id,
        "created_at": table.created_at,
    }


def lobby_tables(*, user) -> dict[str, list[dict]]:
    """The lobby: "mine" (unfinished tables where `user` sits), "open" (waiting casual
    tables with a seat free, not theirs) and "playing" (games on now, to watch), newest first."""
    tables = Table.objects.prefetch_related("seats").order_by("-created_at", "-pk")
    mine_ids = set()
    mine = []
    if user is not None and user.is_authenticated:
        for table in tables.filter(seats__user=user).exclude(status=Table.Status.FINISHED)[
            :LOBBY_SIZE
        ]:
            mine_ids.add(table.pk)
            mine.append(_summary(table, user))
    waiting = tables.filter(status=Table.Status.WAITING).exclude(pk__in=mine_ids)
    playing = tables.filter(status=Table.Status.PLAYING).exclude(pk__in=mine_ids)
    return {
        "mine": mine,
        "open": [_summary(t, user) for t in waiting[:LOBBY_SIZE]],
        "playing": [_summary(t, user) for t in playing[:LOBBY_SIZE]],
    }
