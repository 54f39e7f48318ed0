"""Reads that list live tables: the lobby (the viewer's tables, open ones, games on now and
grouped by venue), finished games with their results (the viewer's, a league player's, anyone's
lately), the fixtures whose tables open today or next, and a fixture's tables (with the held
ones for the venue's staff). Each row's seats are the table JSON's (games.live.selectors).
"""

import datetime
from typing import Any

from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext

from games.engines import get_engine
from games.models import Seat, Table
from leagues.models import Fixture, Game, Player, TeamMember
from leagues.permissions import can_enter_results
from scoring.results.selectors import fixture_day_to_come

from .selectors import Viewer, seat_json, seat_shown_name, signed_in, viewer_seat

LOBBY_SIZE = 50


def _summary(table: Table, user: Viewer) -> dict[str, Any]:
    seats = list(table.seats.all())
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "players": table.players,
        "turn_seconds": table.turn_seconds,
        "time_bank_seconds": table.time_bank_seconds,
        "seats": [seat_json(s, seats=seats) for s in seats],
        "open_seats": sum(not s.taken for s in seats),
        "seat": viewer_seat(seats, user),
        "fixture": table.fixture_id,
        "created_at": table.created_at,
        "may_close": (
            table.status == Table.Status.WAITING
            and table.fixture_id is None
            and (member := signed_in(user)) is not None
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
    if (member := signed_in(user)) is not None:
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
    if (member := signed_in(user)) is None:
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
    if (member := signed_in(user)) is not None:
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
    member = signed_in(user)
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
            for seat in (seat_json(row, seats=seats) for row in seats)
            if seat["claimed_by"]
        ]
        rows.append({"id": table.pk, "number": table.number, "claims": claims})
    return rows


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
