"""Reads of live tables: a table and its log as one viewer may see them (the table's JSON is
built here, and only here); for the play pages also the viewer's own legal moves, a table's
version (what a poll's ETag is made of) and a finished table's replay; and the clocks' health.
The lists of tables (the lobby, finished games, a fixture's tables) are games.live.table_lists.

Everything a viewer gets comes from `eng.view(state, seat)` for their own seat (None for a
spectator): never the stored state, which holds the deck and every hand. Reading never shows
an overdue turn as open: a table read past its deadline is expired first (through the same
service the clock uses), then read.
"""

import datetime
from collections.abc import Iterable
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone
from django.utils.translation import gettext

from config.values import utc_iso
from games.engines import Move, Outcome, get_engine
from games.engines.protocol import View
from games.models import ClockSweep, Seat, Table, TableMove
from leagues.models import Fixture
from leagues.permissions import can_enter_results

from .exceptions import ReplayUnavailable
from .services import table_turn_expire
from .table_reads import last_moves, table_with_seats
from .turns import engine_options, is_overdue
from .versions import table_version as table_version  # the pages read it through here

Viewer = User | AnonymousUser | None


class SeatJson(TypedDict):
    """A seat in the table's JSON (docs/api.md): `name` is null for an open seat; `bank` the
    seconds left in its time bank, `away` the turns in a row the clock played for it,
    `pause_asked` whether its player asked for a pause, `claimed_by` who claimed it (a
    fixture's table: the name of the claimant's seat)."""

    seat: int
    name: str | None
    bot: bool
    bank: float
    away: int
    pause_asked: bool
    claimed_by: str | None


class TableJson(TypedDict):
    """A table as one viewer may see it (docs/api.md, "Live tables"): the API's body and what
    the play pages draw from. `view` is the engine's view for the viewer's own seat."""

    id: int
    game: str
    status: str
    turn: int | None
    deadline: str | None
    turn_seconds: int
    seats: list[SeatJson]
    seat: int | None
    to_act: list[int]
    view: View | None
    outcome: Outcome | None
    fixture: int | None
    cut: dict[str, Any] | None
    held: bool
    awaiting: list[int]
    time_bank_seconds: int
    claim_after_timeouts: int
    bank_running: bool
    paused: bool
    paused_left: float | None


class LogEntryJson(TypedDict):
    """An entry of the move log: `move` is null while hidden from the viewer."""

    turn: int
    seat: int
    move: Move | None
    timeout: bool
    at: str | None


def _current_table(table_id: int) -> Table:
    table = table_with_seats(table_id)
    if is_overdue(table, timezone.now()):
        table_turn_expire(table_id=table.pk, turn=table.turn)
        table = table_with_seats(table_id)
    return table


def signed_in(user: Viewer) -> User | None:
    """The viewer's user row, or None for someone not logged in."""
    return user if isinstance(user, User) and user.is_authenticated else None


def viewer_seat(seats: list[Seat], user: Viewer) -> int | None:
    """The seat `user` holds among a table's `seats`, or None (not seated, not signed in)."""
    if (user := signed_in(user)) is None:
        return None
    return next((seat.seat for seat in seats if seat.user_id == user.pk), None)


def table_for_viewer(*, table_id: int, user: Viewer) -> TableJson:
    """The table's API JSON (docs/api.md) as `user` may see it; `seat` is None for someone not
    seated, who gets a spectator's view. Raises Table.DoesNotExist."""
    return table_as_seen(table=_current_table(table_id), user=user)


def table_as_seen(*, table: Table, user: Viewer) -> TableJson:
    """table_for_viewer's JSON for a table just read or written (no overdue turn open)."""
    seats = list(table.seats.all())
    state = get_engine(table.game).load(table.state) if table.state is not None else None
    return _table_json(table=table, seats=seats, seat=viewer_seat(seats, user), state=state)


def _table_json(
    *, table: Table, seats: list[Seat], seat: int | None, state: Any, replayed: bool = False
) -> TableJson:
    """The one builder of a table's JSON: the engine's `state` (None before the deal) as the
    viewer in `seat` (None: a spectator) sees it. A `replayed` state is a finished game's
    past, so it shows no turn, clock, hold or awaited seat of the table's own."""
    view, to_act, outcome = None, [], None
    if state is not None:
        eng = get_engine(table.game)
        view = eng.view(state, seat)
        if table.status != Table.Status.CLOSED:  # a closed table's game is over, undecided
            to_act = list(eng.to_act(state))
        if eng.is_over(state):
            outcome = eng.outcome(state)
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "turn": None if replayed else table.turn,
        "deadline": None if replayed else utc_iso(table.deadline, timespec="milliseconds"),
        "turn_seconds": table.turn_seconds,
        "seats": [seat_json(s, seats=seats) for s in seats],
        "seat": seat,
        "to_act": to_act,
        "view": view,
        "outcome": outcome,
        "fixture": table.fixture_id,
        "cut": table.cut,
        "held": table.held and not replayed,
        "awaiting": [] if replayed else awaited_seats(table=table, seats=seats),
        "time_bank_seconds": table.time_bank_seconds,
        "claim_after_timeouts": table.claim_after_timeouts,
        "bank_running": table.bank_since is not None and not replayed,
        "paused": table.paused and not replayed,
        "paused_left": (
            round(table.paused_left.total_seconds(), 1)
            if table.paused_left is not None and not replayed
            else None
        ),
    }


def awaited_seats(*, table: Table, seats: list[Seat]) -> list[int]:
    """The seats of a waiting fixture table whose players have not come to it yet."""
    if table.fixture_id is None or table.status != Table.Status.WAITING:
        return []
    return [seat.seat for seat in seats if seat.joined_at is None]


def table_log_for_viewer(*, table_id: int, user: Viewer) -> list[LogEntryJson]:
    """The move log in order. Another seat's move in the still open turn (a Корова pick not
    yet revealed) shows `move: null`; once the game is over everything shows.
    Raises Table.DoesNotExist."""
    table = _current_table(table_id)
    return _log_as_seen(table=table, seat=viewer_seat(list(table.seats.all()), user))


def _log_as_seen(*, table: Table, seat: int | None, last: int | None = None) -> list[LogEntryJson]:
    """The log in order, or its `last` entries only."""
    entries: Iterable[TableMove] = table.moves.order_by("pk")
    if last is not None:  # a long game's page reads the few entries it shows, not hundreds
        entries = last_moves(table, count=last)
    return [
        {
            "turn": entry.turn,
            "seat": entry.seat,
            "move": None if is_move_hidden(table=table, entry=entry, seat=seat) else entry.move,
            "timeout": entry.timeout,
            "at": utc_iso(entry.at, timespec="milliseconds"),
        }
        for entry in entries
    ]


def is_move_hidden(*, table: Table, entry: TableMove, seat: int | None) -> bool:
    """Whether the viewer in `seat` (None: not seated) may not see `entry`'s move yet: it is
    another seat's move in the still open turn (a Корова pick not yet revealed)."""
    return table.status == Table.Status.PLAYING and entry.turn == table.turn and entry.seat != seat


def open_turn_deadline(*, table_id: int, turn: int) -> datetime.datetime | None:
    """When `turn` of the table expires, or None when that turn is no longer open."""
    return (
        Table.objects.filter(pk=table_id, turn=turn, status=Table.Status.PLAYING)
        .values_list("deadline", flat=True)
        .first()
    )


def seat_shown_name(seat: Seat) -> str:
    """A seat's name as the reader's language says it: a bot's is stored with an English
    " (bot)" (the name the bot took when it sat down), which is said here in their words."""
    if seat.bot:
        return gettext("%(name)s (bot)") % {"name": seat.name.removesuffix(" (bot)")}
    return seat.name


def seat_json(seat: Seat, *, seats: list[Seat]) -> SeatJson:
    """`name` is the player's (docs/api.md), so an open seat has none: null, not ""; the
    claimant of a claimed seat is named by their own seat at the table (`seats`)."""
    claimant = next(
        (
            seat_shown_name(other)
            for other in seats
            if seat.claimed_by_id and other.user_id == seat.claimed_by_id
        ),
        None,
    )
    return {
        "seat": seat.seat,
        "name": seat_shown_name(seat) if seat.taken else None,
        "bot": seat.bot,
        "bank": round(seat.bank_seconds, 1),
        "away": seat.timeouts_in_a_row,
        "pause_asked": seat.pause_asked,
        "claimed_by": claimant if seat.claimed_at is not None else None,
    }


# ---- Reads for the play pages (games/live/views.py) ------------------------------------------


def table_moves_for_viewer(*, table_id: int, user: Viewer) -> list[Move]:
    """The legal moves of the seat `user` holds when that seat is to act now, else [].

    They are worked out from the viewer's own seat, so they tell nothing about other hands.
    Raises Table.DoesNotExist."""
    table = _current_table(table_id)
    seat = viewer_seat(list(table.seats.all()), user)
    state = get_engine(table.game).load(table.state) if table.state is not None else None
    return _moves_as_seen(table=table, seat=seat, state=state)


def _moves_as_seen(*, table: Table, seat: int | None, state: Any) -> list[Move]:
    if seat is None or table.status != Table.Status.PLAYING or state is None:
        return []
    eng = get_engine(table.game)
    return eng.legal_moves(state, seat) if seat in eng.to_act(state) else []


def table_page_for_viewer(
    *, table_id: int, user: Viewer, recent: int
) -> tuple[TableJson, list[Move], list[LogEntryJson]]:
    """What a table's page shows `user`: table_for_viewer, table_moves_for_viewer and the
    `recent` last entries of table_log_for_viewer, from one read of the table and one load of
    its game (a page asks for all three on every change, so they share the work). Raises
    Table.DoesNotExist."""
    return table_page_as_seen(table=_current_table(table_id), user=user, recent=recent)


def table_page_as_seen(
    *, table: Table, user: Viewer, recent: int
) -> tuple[TableJson, list[Move], list[LogEntryJson]]:
    """table_page_for_viewer for a table just read or written (no overdue turn open, its
    seats prefetched): a move's answer draws the table its service returned."""
    seats = list(table.seats.all())
    seat = viewer_seat(seats, user)
    state = get_engine(table.game).load(table.state) if table.state is not None else None
    return (
        _table_json(table=table, seats=seats, seat=seat, state=state),
        _moves_as_seen(table=table, seat=seat, state=state),
        _log_as_seen(table=table, seat=seat, last=recent),
    )


def table_replay_step(*, table_id: int, step: int) -> dict[str, Any]:
    """A finished table after its first `step` log entries (clamped to the log), replayed from
    the deal: {"table": the table's JSON with a spectator's view, "hands": every seat's view
    [{"seat", "name", "view"}], "step", "steps", "entry": the log entry just replayed or None}.

    Every hand is shown, so only a finished game is replayed. Raises Table.DoesNotExist and
    ReplayUnavailable."""
    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    if table.status != Table.Status.FINISHED:
        raise ReplayUnavailable("A table can be replayed once its game is over.")
    eng = get_engine(table.game)
    state = eng.new_game(players=table.players, seed=table.seed, options=engine_options(table))
    log = list(table.moves.order_by("pk"))
    step = max(0, min(step, len(log)))
    for entry in log[:step]:
        if entry.timeout:
            state = eng.timeout(state, entry.seat)
        else:
            state = eng.apply(state, entry.seat, entry.move)
    seats = list(table.seats.all())
    names = {seat.seat: seat_shown_name(seat) for seat in seats}
    last = log[step - 1] if step else None
    return {
        "table": _table_json(table=table, seats=seats, seat=None, state=state, replayed=True),
        "hands": [
            {"seat": seat, "name": names[seat], "view": eng.view(state, seat)}
            for seat in range(table.players)
        ],
        "step": step,
        "steps": len(log),
        "entry": (
            {
                "seat": last.seat,
                "name": names[last.seat],
                "move": last.move,
                "timeout": last.timeout,
            }
            if last
            else None
        ),  # fmt: skip
    }


def may_resume(*, table: TableJson, user: Viewer) -> bool:
    """Whether `user` may go on with the held fixture table `table` (its JSON): staff of the
    fixture's venue or a league admin."""
    member, fixture_id = signed_in(user), table["fixture"]
    if not table["held"] or member is None or fixture_id is None:
        return False
    venue_id = Fixture.objects.filter(pk=fixture_id).values_list("venue_id", flat=True).get()
    return can_enter_results(user=member, venue_id=venue_id)


def may_close(*, table: TableJson, user: Viewer) -> bool:
    """Whether `user` may close `table` (its JSON): the creator of a casual table still
    waiting for players (the rule games.live.services.table_cancel applies)."""
    member = signed_in(user)
    if member is None or table["fixture"] is not None or table["status"] != Table.Status.WAITING:
        return False
    return Table.objects.filter(pk=table["id"], created_by=member).exists()


# A turn whose task was lost waits for the next sweep: overdue by more than one sweep interval
# and a second, it shows that the clocks have stopped. The sweep itself is missed after a few
# intervals without one (a worker's restart takes some seconds).
OVERDUE_BOUND_EXTRA_SECONDS = 1.0
SWEEP_MISSED_AFTER_INTERVALS = 5


def clock_health() -> dict[str, Any]:
    """Whether the turn clocks run, for monitors: when the sweep last ran, and how many turns
    are overdue by more than the sweep interval and a second. `ok` is false when either shows
    that they stopped. Two small queries; no table's state is read."""
    now = timezone.now()
    sweep_seconds = settings.GAMES_SWEEP_SECONDS
    bound = datetime.timedelta(seconds=sweep_seconds + OVERDUE_BOUND_EXTRA_SECONDS)
    overdue = Table.objects.filter(status=Table.Status.PLAYING, deadline__lt=now - bound).count()
    last = ClockSweep.objects.values_list("ran_at", flat=True).first()
    since = None if last is None else max(0.0, (now - last).total_seconds())
    swept = since is not None and since <= SWEEP_MISSED_AFTER_INTERVALS * sweep_seconds
    return {
        "sweep_last_ran": utc_iso(last, timespec="milliseconds"),
        "seconds_since_sweep": None if since is None else round(since, 3),
        "overdue_turns": overdue,
        "ok": swept and overdue == 0,
    }
