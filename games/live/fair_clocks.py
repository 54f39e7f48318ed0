"""Fair clocks at a live table: a pause when every seated player asks for one (a round at the
bar), and claiming the seat of a player who has gone (docs/live-tables.md, "Fair clocks").
The time bank itself is part of the turn mechanics (games.live.turns).

Each function runs under the table's lock, taken by its service (games.live.services), and
raises before it writes anything.
"""

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from config.errors import Forbidden
from games.models import Seat, Table

from . import turns
from .exceptions import ClaimRefused, TableClosed, TableInvalid
from .fixture_tables import fixture_table_hold
from .table_setup import BOT_NAMES


def _own_seat(*, table: Table, by: User, refusal: str) -> Seat:
    """`by`'s seat at the table; Forbidden with `refusal` when they hold none."""
    seat = next((seat for seat in table.seats.all() if by.pk and seat.user_id == by.pk), None)
    if seat is None:
        raise Forbidden(refusal)
    return seat


def _ensure_on(table: Table) -> None:
    if table.status != Table.Status.PLAYING:
        raise TableClosed(_("The game is not being played: it has not begun, or it is over."))
    if table.held:
        raise TableClosed(_("The game is held: the venue's staff decide whether it goes on."))


def pause_ask(*, table: Table, by: User, now: datetime.datetime) -> None:
    """`by` asks for a pause; when every seated player (not the bots) has asked, the clock
    stops: no deadline, the time the turn had left kept. Asking again changes nothing.
    Raises Forbidden when `by` holds no seat, TableClosed when the game is not on or held."""
    seat = _own_seat(
        table=table, by=by, refusal=_("Only a player seated at this table can ask for a pause.")
    )
    _ensure_on(table)
    if table.paused or seat.pause_asked:
        return
    seat.pause_asked = True
    seat.save(update_fields=["pause_asked"])
    people = [row for row in table.seats.all() if row.user_id is not None and not row.bot]
    if all(row.pause_asked for row in people):
        assert table.deadline is not None, "a playing table that is not held has a clock"
        table.paused_at = now
        table.paused_left = max(datetime.timedelta(0), table.deadline - now)
        table.deadline = None
        table.save(update_fields=["paused_at", "paused_left", "deadline"])


def pause_end(*, table: Table, by: User, now: datetime.datetime) -> None:
    """`by` wants to play on: every ask for a pause is withdrawn, and a paused table's turn
    gets back the time it had left (a bank being drawn on resumes where it was).
    Raises Forbidden when `by` holds no seat, TableClosed when the game is not on or held."""
    _own_seat(
        table=table, by=by, refusal=_("Only a player seated at this table can go on with the game.")
    )
    _ensure_on(table)
    for row in table.seats.all():
        if row.pause_asked:
            row.pause_asked = False
            row.save(update_fields=["pause_asked"])
    if table.paused_at is None or table.paused_left is None:
        return
    if table.bank_since is not None:  # the pause is not drawn from anyone's bank
        table.bank_since += now - table.paused_at
    left = table.paused_left.total_seconds()
    table.paused_at, table.paused_left = None, None
    table.save(update_fields=["paused_at", "paused_left"])
    turns.clock_restart(table=table, now=now, seconds=left)


def seat_claim(*, table: Table, seat: Any, by: User, now: datetime.datetime) -> None:
    """Another seated player claims `seat`, whose player let the clock play at least the
    table's `claim_after_timeouts` of its turns in a row. At a casual table a practice bot
    takes the seat at once (and plays if it is to act); at a fixture's table the claim goes
    to the venue's staff: the table is held (if it is not already) and shows who claimed
    the seat. Claiming it again changes nothing.

    Raises Forbidden when `by` holds no seat, TableInvalid for no such seat, TableClosed when
    the game is not on, ClaimRefused for `by`'s own seat, a bot's, or a seat not away long
    enough."""
    claimant = _own_seat(
        table=table, by=by, refusal=_("Only a player seated at this table can claim a seat.")
    )
    if type(seat) is not int or not 0 <= seat < table.players:
        raise TableInvalid(
            errors={
                "seat": _("Give the number of a seat at this table, 0 to %(last)d.")
                % {"last": table.players - 1}
            }
        )
    if table.status != Table.Status.PLAYING:
        raise TableClosed(_("The game is not being played: it has not begun, or it is over."))
    target = next(row for row in table.seats.all() if row.seat == seat)
    if target.pk == claimant.pk:
        raise ClaimRefused(_("That is your own seat: you can only claim the seat of someone gone."))
    if target.bot:
        raise ClaimRefused(_("%(name)s is a bot: it plays its own turns.") % {"name": target.name})
    needed = table.claim_after_timeouts
    if target.timeouts_in_a_row < needed:
        raise ClaimRefused(
            _(
                "%(name)s has let the clock play %(away)d of their turns in a row: their seat "
                "can be claimed after %(needed)d."
            )
            % {"name": target.name, "away": target.timeouts_in_a_row, "needed": needed}
        )
    if table.fixture_id is not None:
        if target.claimed_at is not None:
            return
        target.claimed_by, target.claimed_at = by, now
        target.save(update_fields=["claimed_by", "claimed_at"])
        if table.paused:  # the staff's decision replaces the pause: a resume starts afresh
            table.paused_at, table.paused_left = None, None
            table.save(update_fields=["paused_at", "paused_left"])
        if not table.held:
            fixture_table_hold(table=table)
        return
    taken = {row.name.removesuffix(" (bot)") for row in table.seats.all() if row.bot}
    cow = next((name for name in BOT_NAMES if name not in taken), BOT_NAMES[0])
    target.user, target.bot, target.name = None, True, f"{cow} (bot)"
    target.pause_asked, target.timeouts_in_a_row = False, 0
    target.save(update_fields=["user", "bot", "name", "pause_asked", "timeouts_in_a_row"])
    assert table.state is not None, "a playing table has been dealt"
    if not table.paused and seat in turns.seats_to_act(table):
        turns.wake_bot_on_commit(table=table, seat=seat)
