"""Writes of live tables: create, join and close a casual table, start a fixture's tables and come
to one, make a move (a person's, or the practice bots' of a turn together), expire a turn,
resume a held fixture table, pause a game and claim an away seat (docs/live-tables.md). The
clock's batches, the sweep of overdue turns and the wake of lost bots are games.live.expiry.

Each write is one transaction that locks the table row first (`select_for_update`; on SQLite
the project's IMMEDIATE transactions take the write lock at BEGIN) and reads everything it
decides on after the lock. A refusal raises before anything is written, so nothing changes;
the one exception is a move that arrives after its turn's deadline: the turn is expired (that
commits) and then the move is refused.
"""

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import DomainError, Forbidden
from games.bots import bot_move
from games.engines import ENGINE_NAMES, Engine, IllegalMove, get_engine
from games.engines.errors import gettext_noop
from games.models import Seat, Table

from . import turns
from .exceptions import (
    ClaimRefused,
    NotYourTurn,
    TableClosed,
    TableInvalid,
    TooManyOpenTables,
    TurnConflict,
)
from .expiry import overdue_turn_expire
from .fair_clocks import pause_ask, pause_end, seat_claim
from .fixture_day import TABLE_CLOSED, fixture_table_closed_if_off
from .fixture_tables import (
    fixture_seat_join,
    fixture_table_resume,
    fixture_tables_start,
    table_finished_for_fixture,
)
from .table_setup import (
    BOT_NAMES,
    check_engine_options,
    clock_options_from,
    locked_table,
    new_seed,
    seat_name,
    without_clocks,
)


def _waiting_tables_count(creator: User) -> int:
    """How many casual tables `creator` has waiting for players, with their user row locked
    until the transaction ends: the count decides a write, so two creations at once by the
    same user must not both count the same tables (the second waits and counts the first's)."""
    get_user_model().objects.select_for_update().only("pk").get(pk=creator.pk)
    return Table.objects.filter(
        created_by=creator, fixture__isnull=True, status=Table.Status.WAITING
    ).count()


def table_create(
    *, game: str, players: int, options: dict[str, Any], bots: list[int], by: User
) -> Table:
    """A casual table: `by` sits in seat 0, bots in the seats listed, the rest open to join.

    The game starts at once when no seat is left open. Raises TableInvalid (game, players,
    options, bots), and TooManyOpenTables when the table would wait for players and `by`
    already has GAMES_OPEN_TABLES_PER_USER casual tables waiting; nothing is written then.
    """
    if game not in ENGINE_NAMES:
        raise TableInvalid(
            errors={"game": _("Choose one of %(games)s.") % {"games": ", ".join(ENGINE_NAMES)}}
        )
    if type(players) is not int:
        raise TableInvalid(errors={"players": _("The number of players is a whole number.")})
    if not isinstance(options, dict):
        raise TableInvalid(
            errors={"options": _("Options are a JSON object of option names to values.")}
        )
    clocks = clock_options_from(options=options, defaults={})
    rules = without_clocks(options)
    check_engine_options(game=game, players=players, options=rules)
    if (
        not isinstance(bots, list)
        or any(type(seat) is not int for seat in bots)
        or len(set(bots)) != len(bots)
        or any(not 1 <= seat < players for seat in bots)
    ):
        raise TableInvalid(
            errors={
                "bots": _("Bots sit in different seats from 1 to %(last)d; seat 0 is yours.")
                % {"last": players - 1}
            }
        )
    now = timezone.now()
    waits_for_players = len(bots) < players - 1
    with transaction.atomic():
        if waits_for_players:
            limit = settings.GAMES_OPEN_TABLES_PER_USER
            if _waiting_tables_count(by) >= limit:
                raise TooManyOpenTables(
                    ngettext(
                        "You already have %(count)d table waiting for players, the most anyone "
                        "may have: wait for players to join it, or start a table with bots in "
                        "every other seat.",
                        "You already have %(count)d tables waiting for players, the most anyone "
                        "may have: wait for players to join them, or start a table with bots in "
                        "every other seat.",
                        limit,
                    )
                    % {"count": limit}
                )
        table = Table.objects.create(
            game=game,
            players=players,
            options={**rules, **clocks},
            seed=new_seed(),
            created_by=by,
        )
        seats = [Seat(table=table, seat=0, user=by, name=seat_name(by))]
        for number, seat in enumerate(sorted(bots)):
            name = f"{BOT_NAMES[number % len(BOT_NAMES)]} (bot)"
            seats.append(Seat(table=table, seat=seat, bot=True, name=name))
        seats += [Seat(table=table, seat=s) for s in range(1, players) if s not in bots]
        Seat.objects.bulk_create(seats)
        if not any(not seat.taken for seat in seats):
            turns.open_first_turn(table=table, now=now)
    return table


def table_join(*, table_id: int, by: User) -> Table:
    """Take the lowest open seat of a waiting casual table; the game starts when the last
    seat is taken. Joining a table where `by` already sits changes nothing. At a fixture's
    table, whose seats are bound to its players, it means "I am here": the game starts when
    every seated player has said it (games.live.fixture_tables.fixture_seat_join).

    Raises Table.DoesNotExist, TableClosed when no seat is open, the game has begun or the
    fixture's table is closed (games.live.fixture_day), and Forbidden when `by` is not seated
    at a fixture's table.
    """
    with transaction.atomic():
        table = locked_table(table_id)
        closed = fixture_table_closed_if_off(table=table)  # kept, then the join is refused
        if table.fixture_id is not None and not closed:
            fixture_seat_join(table=table, by=by, now=timezone.now())
        elif not closed and all(seat.user_id != by.pk for seat in table.seats.all()):
            open_seats = [seat for seat in table.seats.all() if not seat.taken]
            if table.status != Table.Status.WAITING or not open_seats:
                raise TableClosed(_("This table has no open seat: its game has begun or ended."))
            seat = open_seats[0]
            seat.user, seat.name = by, seat_name(by)
            seat.save(update_fields=["user", "name"])
            if len(open_seats) == 1:
                turns.open_first_turn(table=table, now=timezone.now())
    if closed:
        raise TableClosed(str(TABLE_CLOSED))
    return table


def table_cancel(*, table_id: int, by: User) -> None:
    """Close a casual table that is still waiting for players: only its creator may, and
    whoever has joined it meanwhile loses their seat (the game never started).

    The table is deleted with its seats: nothing was dealt, so there is no state, no log and
    no result to keep, and a record would only count against the creator's waiting tables.
    The table's lock comes first, so a join racing the close either takes its seat before
    (and the close still deletes the table) or finds the table gone (Table.DoesNotExist).

    Raises Table.DoesNotExist, Forbidden when the table is a fixture's (its tables follow the
    fixture: staff void or postpone it) or `by` did not create it, and TableClosed when its
    game has begun or ended.
    """
    with transaction.atomic():
        table = locked_table(table_id)
        if table.fixture_id is not None:
            raise Forbidden(
                _(
                    "A fixture's table cannot be closed: it is played, or the venue's staff "
                    "postpone or void the fixture."
                )
            )
        if table.created_by_id is None or table.created_by_id != by.pk:
            raise Forbidden(_("Only the player who opened this table may close it."))
        if table.status != Table.Status.WAITING:
            raise TableClosed(_("This table's game has begun or ended: it cannot be closed."))
        table.delete()


def table_move(*, table_id: int, turn: Any, move: Any, by: User) -> Table:
    """Play `move` for the seat `by` holds.

    `turn` and `move` are whatever the client sent (any JSON; None when left out). Checked
    after the lock, in this order: an overdue turn is expired first; NotYourTurn when `by`
    holds no seat here; TurnConflict (with the current turn) when the game is not on, `turn`
    is anything but the open turn's number, or the seat already acted in it; NotYourTurn when
    the seat is not to act; IllegalMove (a sentence) when there is no move or the rules refuse
    it. Nothing is written on a refusal, except the expiry of an overdue turn.
    """
    refusal: DomainError | None = None
    now = timezone.now()  # a move counts from when it arrived, not from when it got the lock
    with transaction.atomic():
        table = locked_table(table_id)
        eng = get_engine(table.game)
        state = eng.load(table.state) if table.state is not None else None
        if fixture_table_closed_if_off(table=table):  # kept, then the move is refused
            refusal = TurnConflict(str(TABLE_CLOSED), turn=table.turn)
        elif turns.is_overdue(table, now):
            # The turn ran out before the move came: expire it, and keep that; then refuse,
            # unless the mover's time bank kept the turn open for them.
            turn_before = table.turn
            overdue_turn_expire(table=table, now=now)
            state = eng.load(table.state) if table.state is not None else None
            try:
                seat = _mover_seat(table=table, by=by)
                if (
                    table.turn != turn_before
                    or table.status != Table.Status.PLAYING
                    or table.held
                    or seat not in eng.to_act(state)
                ):
                    refusal = TurnConflict(
                        _("Too late: the turn ran out of time before your move arrived."),
                        turn=table.turn,
                    )
            except NotYourTurn as exc:
                refusal = exc
        if refusal is None:
            seat = _mover_seat(table=table, by=by)
            _check_turn(table=table, eng=eng, state=state, seat=seat, turn=turn)
            if move is None:
                raise IllegalMove(
                    gettext_noop(
                        'there is no move: send it in "move", e.g. {"turn": 12, "move": {"card": 55}}'
                    )
                )
            turns.play(table=table, state=state, seat=seat, move=move, now=now)
            table_finished_for_fixture(table=table)
    if refusal is not None:
        raise refusal
    return table


def _mover_seat(*, table: Table, by: User) -> int:
    for seat in table.seats.all():  # fetched with the lock
        if seat.user_id == by.pk:
            return seat.seat
    raise NotYourTurn(_("You hold no seat at this table."))


def table_bots_move(*, table_id: int, turn: int, seats: list[int], rng: random.Random) -> list[int]:
    """The practice bots in `seats` play their moves of `turn` (games.bots, from each seat's
    own view) in one transaction: at a Корова table the bots put their cards down together,
    one change of the table instead of one each. The same checks as `table_move` after the
    lock; a seat that is no bot, not to act, or a turn that moved on (the clock, the game's
    end, a hold or a pause) is left alone, as is an overdue turn once expired. Returns the
    seats that moved."""
    moved: list[int] = []
    now = timezone.now()
    with transaction.atomic():
        table = locked_table(table_id)
        if fixture_table_closed_if_off(table=table):
            return moved
        if turns.is_overdue(table, now):
            overdue_turn_expire(table=table, now=now)
            return moved
        eng = get_engine(table.game)
        state = eng.load(table.state) if table.state is not None else None
        bots = {seat.seat for seat in table.seats.all() if seat.bot}
        writes = turns.Writes()
        for seat in seats:
            if seat not in bots or state is None or seat not in eng.to_act(state):
                continue
            try:
                _check_turn(table=table, eng=eng, state=state, seat=seat, turn=turn)
            except (TurnConflict, NotYourTurn):
                break  # the game is not on, or has gone on to another turn
            move = bot_move(game=table.game, state=state, seat=seat, rng=rng)
            state = turns.play(
                table=table, state=state, seat=seat, move=move, now=now, writes=writes
            )
            moved.append(seat)
        writes.save()
        if moved:
            table_finished_for_fixture(table=table)
    return moved


def _check_turn(*, table: Table, eng: Engine[Any, Any], state: Any, seat: int, turn: Any) -> None:
    if table.status == Table.Status.WAITING:
        raise TurnConflict(
            _("The game has not started: seats are still open, or players still to come."),
            turn=table.turn,
        )
    if table.status == Table.Status.FINISHED:
        raise TurnConflict(_("The game is over."), turn=table.turn)
    if table.status == Table.Status.CLOSED:
        raise TurnConflict(str(TABLE_CLOSED), turn=table.turn)
    if table.held:
        raise TurnConflict(
            _(
                "The game is held: a player let the clock play their turns, so the venue's staff "
                "decide whether it goes on."
            ),
            turn=table.turn,
        )
    if table.paused:
        raise TurnConflict(
            _("The game is paused: every player asked for a break. Any player can go on with it."),
            turn=table.turn,
        )
    if type(turn) is not int:  # a bool is not a turn, nor "12", nor 12.0
        raise TurnConflict(
            _('"turn" is the number of the turn you saw; the table is at turn %(turn)d.')
            % {"turn": table.turn},
            turn=table.turn,
        )
    if turn != table.turn:
        raise TurnConflict(
            _(
                "That move answers turn %(turn)d, but the table is at turn %(now)d: "
                "reload to see what changed."
            )
            % {"turn": turn, "now": table.turn},
            turn=table.turn,
        )
    if seat not in eng.to_act(state):
        if table.moves.filter(turn=table.turn, seat=seat).exists():
            raise TurnConflict(_("You have already acted this turn."), turn=table.turn)
        raise NotYourTurn(_("It is not your turn."))


def table_turn_expire(*, table_id: int, turn: int) -> bool:
    """Time out every seat still to act in `turn`, if that turn is still open and its deadline
    has passed. Returns whether it did; running it again, early or after a move is harmless."""
    with transaction.atomic():
        try:
            table = locked_table(table_id)
        except Table.DoesNotExist:
            return False
        now = timezone.now()
        if table.turn != turn or not turns.is_overdue(table, now) or table.state is None:
            return False
        overdue_turn_expire(table=table, now=now)
    return True


def table_resume(*, table_id: int, by: User) -> Table:
    """Go on with a held fixture table: its open turn gets a fresh clock.

    Raises Table.DoesNotExist, Forbidden unless `by` serves the fixture's venue (or is
    a league admin), and TableClosed when the table is not held."""
    with transaction.atomic():
        table = locked_table(table_id)
        fixture_table_resume(table=table, by=by, now=timezone.now())
    return table


def table_pause(*, table_id: int, by: User) -> Table:
    """`by` asks for a pause (a round at the bar): the clock stops when every seated player
    has asked (games.live.fair_clocks.pause_ask). Raises Table.DoesNotExist, Forbidden when
    `by` holds no seat, TableClosed when the game is not on or is held."""
    with transaction.atomic():
        table = locked_table(table_id)
        pause_ask(table=table, by=by, now=timezone.now())
    return table


def table_unpause(*, table_id: int, by: User) -> Table:
    """`by` plays on: the asks for a pause are withdrawn and a paused turn gets back the time
    it had left (games.live.fair_clocks.pause_end). Raises as table_pause."""
    with transaction.atomic():
        table = locked_table(table_id)
        pause_end(table=table, by=by, now=timezone.now())
    return table


def table_claim(*, table_id: int, seat: Any, by: User) -> Table:
    """`by` claims the seat of a player who let the clock play their turns: a bot takes it at
    a casual table, the venue's staff decide at a fixture's (games.live.fair_clocks.seat_claim).
    Raises Table.DoesNotExist, Forbidden (`by` not seated), TableInvalid (no such seat),
    TableClosed (the game is not on) and ClaimRefused (own seat, a bot's, not away long
    enough). An overdue turn is expired first, so the count of time-outs is up to date."""
    with transaction.atomic():
        table = locked_table(table_id)
        now = timezone.now()
        if turns.is_overdue(table, now):
            overdue_turn_expire(table=table, now=now)
        seat_claim(table=table, seat=seat, by=by, now=now)
    return table


__all__ = [
    "ClaimRefused",
    "NotYourTurn",
    "TableClosed",
    "TableInvalid",
    "TooManyOpenTables",
    "TurnConflict",
    "fixture_tables_start",
    "table_cancel",
    "table_claim",
    "table_create",
    "table_join",
    "table_move",
    "table_pause",
    "table_resume",
    "table_turn_expire",
    "table_unpause",
]
