"""Reads of live tables: a table and its log as one viewer may see them, and the lobby; for
the play pages also the viewer's own legal moves, a table's version (what a poll's ETag is
made of), a finished table's replay, and a fixture's tables.

Everything a viewer gets comes from `eng.view(state, seat)` for their own seat (None for a
spectator): never the stored state, which holds the deck and every hand. Reading never shows
an overdue turn as open: a table read past its deadline is expired first (through the same
service the clock uses), then read.
"""

import datetime
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext

from config.values import utc_iso
from games.engines import Move, Outcome, get_engine
from games.engines.protocol import View
from games.models import ClockSweep, Seat, Table, TableMove
from leagues.models import Fixture, Game, Player, TeamMember
from leagues.permissions import can_enter_results
from scoring.results.selectors import fixture_day_to_come

from .exceptions import ReplayUnavailable
from .services import table_turn_expire
from .turns import engine_options, is_overdue
from .versions import table_version as table_version  # the pages read it through here

LOBBY_SIZE = 50

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
    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    if is_overdue(table, timezone.now()):
        table_turn_expire(table_id=table.pk, turn=table.turn)
        table = Table.objects.prefetch_related("seats").get(pk=table_id)
    return table


def _signed_in(user: Viewer) -> User | None:
    """The viewer's user row, or None for someone not logged in."""
    return user if isinstance(user, User) and user.is_authenticated else None


def _viewer_seat(seats: list[Seat], user: Viewer) -> int | None:
    if (user := _signed_in(user)) is None:
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
    return _table_json(table=table, seats=seats, seat=_viewer_seat(seats, user), state=state)


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
        "seats": [_seat_json(s, seats=seats) for s in seats],
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
    return _log_as_seen(table=table, seat=_viewer_seat(list(table.seats.all()), user))


def _log_as_seen(*, table: Table, seat: int | None) -> list[LogEntryJson]:
    return [
        {
            "turn": entry.turn,
            "seat": entry.seat,
            "move": None if is_move_hidden(table=table, entry=entry, seat=seat) else entry.move,
            "timeout": entry.timeout,
            "at": utc_iso(entry.at, timespec="milliseconds"),
        }
        for entry in table.moves.order_by("pk")
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


def _seat_json(seat: Seat, *, seats: list[Seat]) -> SeatJson:
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


def _summary(table: Table, user: Viewer) -> dict[str, Any]:
    seats = list(table.seats.all())
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "players": table.players,
        "turn_seconds": table.turn_seconds,
        "time_bank_seconds": table.time_bank_seconds,
        "seats": [_seat_json(s, seats=seats) for s in seats],
        "open_seats": sum(not s.taken for s in seats),
        "seat": _viewer_seat(seats, user),
        "fixture": table.fixture_id,
        "created_at": table.created_at,
        "may_close": (
            table.status == Table.Status.WAITING
            and table.fixture_id is None
            and (member := _signed_in(user)) is not None
            and table.created_by_id == member.pk
        ),
    }


def lobby_tables(*, user: Viewer) -> dict[str, list[dict[str, Any]]]:
    """The lobby: "mine" (unfinished tables where `user` sits), "open" (waiting tables with a
    seat free, not theirs) and "playing" (games on now, to watch), newest first.

    "open" takes turns between the tables' creators: every creator's newest waiting table
    first (newest first), then every creator's second, and so on, up to LOBBY_SIZE; so one
    user's tables take a second place in the list only after everyone else's first."""
    tables = Table.objects.prefetch_related("seats").order_by("-created_at", "-pk")
    mine_ids = set()
    mine = []
    if (member := _signed_in(user)) is not None:
        for table in tables.filter(seats__user=member).exclude(
            status__in=(Table.Status.FINISHED, Table.Status.CLOSED)
        )[:LOBBY_SIZE]:
            mine_ids.add(table.pk)
            mine.append(_summary(table, user))
    waiting = (
        tables.filter(status=Table.Status.WAITING)
        .exclude(pk__in=mine_ids)
        .annotate(
            creators_nth=Window(
                RowNumber(),
                partition_by=[F("created_by")],
                order_by=[F("created_at").desc(), F("pk").desc()],
            )
        )
        .order_by("creators_nth", "-created_at", "-pk")
    )
    playing = tables.filter(status=Table.Status.PLAYING).exclude(pk__in=mine_ids)
    return {
        "mine": mine,
        "open": [_summary(t, user) for t in waiting[:LOBBY_SIZE]],
        "playing": [_summary(t, user) for t in playing[:LOBBY_SIZE]],
    }


FINISHED_LIST_SIZE = 10


def finished_tables_of_user(*, user: Viewer) -> list[dict[str, Any]]:
    """The lobby's "Your finished games": the finished tables where `user` sat, newest first
    (up to FINISHED_LIST_SIZE), each with their result; [] for someone not logged in."""
    if (member := _signed_in(user)) is None:
        return []
    seats = Seat.objects.filter(user=member)
    return _finished_rows(Table.objects.filter(pk__in=seats.values("table")), seats=seats)


def finished_tables_of_player(*, player: Player) -> list[dict[str, Any]]:
    """A league player's finished tables for their public page, newest first (up to
    FINISHED_LIST_SIZE): the fixture tables where they were seated and the casual ones their
    user sat at (under the player's name: table_setup.seat_name), each with their result.
    A finished game shows nothing hidden: its replay, every hand included, is public."""
    sat_as = Q(player=player) | Q(user_id=player.user_id) if player.user_id else Q(player=player)
    seats = Seat.objects.filter(sat_as)
    return _finished_rows(Table.objects.filter(pk__in=seats.values("table")), seats=seats)


def finished_tables_recent(*, user: Viewer) -> list[dict[str, Any]]:
    """The lobby's "Finished lately": anyone's finished tables, newest first (up to
    FINISHED_LIST_SIZE), but for `user`'s own (those are in finished_tables_of_user)."""
    tables = Table.objects.all()
    if (member := _signed_in(user)) is not None:
        tables = tables.exclude(seats__user=member)
    return _finished_rows(tables, seats=None)


def _finished_rows(
    tables: QuerySet[Table], *, seats: QuerySet[Seat] | None
) -> list[dict[str, Any]]:
    """Rows for finished tables among `tables`, newest finished first: {"id", "game",
    "game_name", "fixture", "finished_at", "names" (by seat), "seat" (the one of `seats`
    at the table, or None), "others" (the other seats' names), "winners" (names), "result"
    ("won", "lost", "drawn"; None without a seat)}."""
    finished = (
        tables.filter(status=Table.Status.FINISHED)
        .prefetch_related("seats")
        .order_by("-finished_at", "-pk")[:FINISHED_LIST_SIZE]
    )
    own_seats = set() if seats is None else set(seats.values_list("pk", flat=True))
    rows = []
    for table in finished:
        if table.state is None:  # for the type checker: a game ends by a move, after the deal
            continue
        eng = get_engine(table.game)
        outcome = eng.outcome(eng.load(table.state))
        table_seats = sorted(table.seats.all(), key=lambda s: s.seat)
        seat = next((s.seat for s in table_seats if s.pk in own_seats), None)
        result = None
        if seat is not None:
            won = seat in outcome["winners"]
            result = "drawn" if outcome["draw"] else "won" if won else "lost"
        rows.append(
            {
                "id": table.pk,
                "game": table.game,
                "game_name": Game(table.game).label,
                "fixture": table.fixture_id,
                "finished_at": table.finished_at,
                "names": [seat_shown_name(s) for s in table_seats],
                "seat": seat,
                "others": [seat_shown_name(s) for s in table_seats if s.seat != seat],
                "winners": [
                    seat_shown_name(s) for s in table_seats if s.seat in outcome["winners"]
                ],
                "result": result,
            }
        )
    return rows


def fixture_days() -> dict[str, Any]:
    """For the lobby: "today", the scheduled fixtures whose day is today (their live tables
    are open: the fixture's day, as for its result), by venue then time; and "next_day", the
    next day with a scheduled fixture, when the tables open next (None if there is none)."""
    today = timezone.localdate()
    tomorrow = today + datetime.timedelta(days=1)
    scheduled = Fixture.objects.filter(status=Fixture.Status.SCHEDULED)
    today_fixtures = list(
        scheduled.filter(starts_at__gte=_start_of(today), starts_at__lt=_start_of(tomorrow))
        .select_related("home_team", "away_team", "venue", "season__league")
        .order_by("venue__name", "starts_at", "pk")
    )
    later = scheduled.filter(starts_at__gte=_start_of(tomorrow)).order_by("starts_at").first()
    return {
        "today": today_fixtures,
        "next_day": timezone.localdate(later.starts_at) if later else None,
    }


def _start_of(day: datetime.date) -> datetime.datetime:
    """Local midnight at the start of `day`."""
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time()))


# ---- Reads for the play pages (games/live/views.py) ------------------------------------------


def table_moves_for_viewer(*, table_id: int, user: Viewer) -> list[Move]:
    """The legal moves of the seat `user` holds when that seat is to act now, else [].

    They are worked out from the viewer's own seat, so they tell nothing about other hands.
    Raises Table.DoesNotExist."""
    table = _current_table(table_id)
    seat = _viewer_seat(list(table.seats.all()), user)
    state = get_engine(table.game).load(table.state) if table.state is not None else None
    return _moves_as_seen(table=table, seat=seat, state=state)


def _moves_as_seen(*, table: Table, seat: int | None, state: Any) -> list[Move]:
    if seat is None or table.status != Table.Status.PLAYING or state is None:
        return []
    eng = get_engine(table.game)
    return eng.legal_moves(state, seat) if seat in eng.to_act(state) else []


def table_page_for_viewer(
    *, table_id: int, user: Viewer
) -> tuple[TableJson, list[Move], list[LogEntryJson]]:
    """What a table's page shows `user`: table_for_viewer, table_moves_for_viewer and
    table_log_for_viewer from one read of the table and one load of its game (a page asks
    for all three on every change, so they share the work). Raises Table.DoesNotExist."""
    table = _current_table(table_id)
    seats = list(table.seats.all())
    seat = _viewer_seat(seats, user)
    state = get_engine(table.game).load(table.state) if table.state is not None else None
    return (
        _table_json(table=table, seats=seats, seat=seat, state=state),
        _moves_as_seen(table=table, seat=seat, state=state),
        _log_as_seen(table=table, seat=seat),
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


def fixture_tables_for_viewer(*, fixture_id: int, user: Viewer) -> dict[str, Any]:
    """A fixture's live tables in order, whether `user` may start them (staff of its venue or
    one of its players, while it is scheduled, it is its day and none has started but those
    closed when it was moved), `day_to_come`: the fixture's day while it is still to come,
    else None, and `day_passed`: the day of a scheduled fixture whose day passed with no
    table set up (its tables open on its day only: staff move it), else None.
    Raises Fixture.DoesNotExist."""
    fixture = Fixture.objects.select_related(
        "season__league", "home_team", "away_team", "venue"
    ).get(pk=fixture_id)
    tables = [
        {**_summary(table, user), "number": table.number, "held": table.held,
         "status_label": table.get_status_display()}
        for table in fixture.live_tables.prefetch_related("seats").order_by("number")
    ]  # fmt: skip
    day_to_come = fixture_day_to_come(fixture=fixture)
    day = timezone.localdate(fixture.starts_at)
    day_passed = day if day < timezone.localdate() else None
    live = [table for table in tables if table["status"] != Table.Status.CLOSED]
    member = _signed_in(user)
    may_start = (
        not live
        and day_to_come is None
        and day_passed is None
        and fixture.status == Fixture.Status.SCHEDULED
        and member is not None
        and (
            can_enter_results(user=member, venue_id=fixture.venue_id)
            or TeamMember.objects.filter(
                team_id__in=(fixture.home_team_id, fixture.away_team_id), player__user=member
            ).exists()
        )
    )
    return {
        "fixture": fixture,
        "tables": tables,
        "may_start": may_start,
        "day_to_come": day_to_come,
        "day_passed": day_passed
        if not live and fixture.status == Fixture.Status.SCHEDULED
        else None,
    }


def held_tables_of_fixture(*, fixture_id: int) -> list[dict[str, Any]]:
    """A fixture's held tables, for the venue's staff: {"id", "number", "claims": [{"seat"
    (numbered from 1), "name", "claimed_by"}]}, in table order. Names only: nothing of a hand."""
    held = (
        Table.objects.filter(fixture_id=fixture_id, held=True, status=Table.Status.PLAYING)
        .prefetch_related("seats")
        .order_by("number")
    )
    rows = []
    for table in held:
        seats = list(table.seats.all())
        claims = [
            {"seat": seat["seat"] + 1, "name": seat["name"], "claimed_by": seat["claimed_by"]}
            for seat in (_seat_json(row, seats=seats) for row in seats)
            if seat["claimed_by"]
        ]
        rows.append({"id": table.pk, "number": table.number, "claims": claims})
    return rows


def may_resume(*, table: TableJson, user: Viewer) -> bool:
    """Whether `user` may go on with the held fixture table `table` (its JSON): staff of the
    fixture's venue or a league admin."""
    member, fixture_id = _signed_in(user), table["fixture"]
    if not table["held"] or member is None or fixture_id is None:
        return False
    venue_id = Fixture.objects.filter(pk=fixture_id).values_list("venue_id", flat=True).get()
    return can_enter_results(user=member, venue_id=venue_id)


def may_close(*, table: TableJson, user: Viewer) -> bool:
    """Whether `user` may close `table` (its JSON): the creator of a casual table still
    waiting for players (the rule games.live.services.table_cancel applies)."""
    member = _signed_in(user)
    if member is None or table["fixture"] is not None or table["status"] != Table.Status.WAITING:
        return False
    return Table.objects.filter(pk=table["id"], created_by=member).exists()


def tables_by_venue(*, tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Lobby rows grouped by where they are played: each fixture's venue, then casual tables
    under "Casual tables"; [{"name", "tables"}], venues by name."""
    venue_of = dict(
        Fixture.objects.filter(pk__in={t["fixture"] for t in tables if t["fixture"]}).values_list(
            "pk", "venue__name"
        )
    )
    groups: dict[str, list[dict[str, Any]]] = {}
    for table in tables:
        groups.setdefault(venue_of.get(table["fixture"], ""), []).append(table)
    return [
        {"name": name or gettext("Casual tables"), "tables": rows}
        for name, rows in sorted(groups.items(), key=lambda item: (not item[0], item[0]))
    ]


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
