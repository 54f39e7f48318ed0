"""Live tables: a game played on the site with a turn clock (docs/live-tables.md).

The table row is the truth: the engine's dumped state, the turn number and its deadline. The
broker only wakes things up (expiry tasks, bots); every change is a service call that locks
this row first.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from leagues.models import Fixture, Game, Player


class Table(models.Model):
    """One game at one table, casual or one of a fixture's tables.

    options: the engine's options by name, plus `turn_seconds`, the table's own clock.
    state: `eng.dump(state)`, null while seats are still open. It holds the deck and every
    hand, so it never leaves the server: readers get `eng.view(state, seat)`.
    turn: the decision point players answer to (docs/live-tables.md); deadline: when it expires,
    null when no turn is open.
    cut: for a fixture table, the cut for the first deal that decided seat 0; null when the
    creator of a casual table simply sits in seat 0.
    held: a fixture table whose game waits for the venue's staff, no clock running, after a
    seat let the clock play `claim_after_timeouts` turns of its own in a row
    (docs/live-tables.md).
    bank_since: when the open turn's seats to act started drawing on their time banks (the
    turn's own clock ran out, or the last charge); null while the turn's own clock runs.
    paused_at, paused_left: a table paused by every seated player (a round at the bar): when,
    and how long its turn had left; the deadline is null meanwhile.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        # A fixture's table whose fixture was postponed, voided or moved to another day before
        # its game ended: no clock, no move, no result (games.live.fixture_day).
        CLOSED = "closed", _("Closed")

    game = models.CharField(max_length=16, choices=Game.choices, verbose_name=_("game"))
    players = models.PositiveSmallIntegerField(verbose_name=_("players"))
    options = models.JSONField(default=dict, verbose_name=_("options"))
    seed = models.BigIntegerField(verbose_name=_("seed"))
    state = models.JSONField(null=True, blank=True, verbose_name=_("state"))
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.WAITING, verbose_name=_("status")
    )
    turn = models.PositiveIntegerField(default=0, verbose_name=pgettext_lazy("game turn", "turn"))
    deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("deadline"))
    fixture = models.ForeignKey(
        Fixture,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="live_tables",
        verbose_name=_("fixture"),
    )
    number = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=pgettext_lazy("game number", "number")
    )
    cut = models.JSONField(null=True, blank=True, verbose_name=_("cut"))
    # A fixture's table: the fixture's (local) day when the table was set up. The fixture moved
    # to another day closes the table (games.live.fixture_day); a game after midnight goes on.
    fixture_day = models.DateField(null=True, blank=True, verbose_name=_("fixture's day"))
    held = models.BooleanField(default=False, verbose_name=_("held"))
    bank_since = models.DateTimeField(
        null=True, blank=True, verbose_name=_("drawing on the time banks since")
    )
    paused_at = models.DateTimeField(null=True, blank=True, verbose_name=_("paused at"))
    paused_left = models.DurationField(
        null=True, blank=True, verbose_name=_("time left when paused")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = pgettext_lazy("live table", "table")
        verbose_name_plural = pgettext_lazy("live table", "tables")
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The sweep's question: which playing tables are past their deadline?
            models.Index(fields=["deadline"], condition=Q(status="playing"), name="open_turns"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "number"],
                # A closed table leaves its number to the table set up on the fixture's new day.
                condition=Q(fixture__isnull=False) & ~Q(status="closed"),
                name="one_table_per_fixture_number",
            ),
        ]

    def __str__(self):
        return f"{self.get_game_display()} table {self.pk}"

    @property
    def turn_seconds(self) -> int:
        return self.options["turn_seconds"]

    @property
    def time_bank_seconds(self) -> int:
        """Each seat's bank for the game (0: none; tables from before banks have none)."""
        return self.options.get("time_bank_seconds", 0)

    @property
    def claim_after_timeouts(self) -> int:
        """How many of its own turns in a row a seat lets the clock play before it may be
        claimed (and, at a fixture's table, the game is held); 3 for tables from before."""
        return self.options.get("claim_after_timeouts", 3)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


class Seat(models.Model):
    """A seat at a table: a user, a practice bot, or (open) neither yet.

    player: for a fixture table, the league player bound to the seat (their user may be unset:
    then they cannot come to the table, and it does not start).
    joined_at: for a fixture table, when the seat's player said "I am here"; the game is
    dealt once every seat has.
    bank_seconds: what is left of the seat's time bank (docs/live-tables.md, "Fair clocks").
    timeouts_in_a_row: how many of its own turns in a row the clock has played (0 after a
    move of its own): the seat is away, and may be claimed, from the table's
    `claim_after_timeouts` on.
    pause_asked: the seat's player asked for a pause; the table pauses when every seated
    player has.
    claimed_by, claimed_at: at a fixture's table, who claimed this away seat and when (the
    venue's staff decide); at a casual table a claim gives the seat to a bot at once.
    """

    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=pgettext_lazy("live table", "table"),
    )
    seat = models.PositiveSmallIntegerField(verbose_name=pgettext_lazy("table seat", "seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table_seats",
        verbose_name=_("user"),
    )
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="table_seats",
        verbose_name=_("player"),
    )
    bot = models.BooleanField(default=False, verbose_name=_("bot"))
    name = models.CharField(max_length=150, blank=True, verbose_name=_("name"))
    joined_at = models.DateTimeField(null=True, blank=True, verbose_name=_("joined at"))
    bank_seconds = models.FloatField(default=0, verbose_name=_("time bank (s)"))
    timeouts_in_a_row = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("turns in a row played by the clock")
    )
    pause_asked = models.BooleanField(default=False, verbose_name=_("asked for a pause"))
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("claimed by"),
    )
    claimed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("claimed at"))

    class Meta:
        verbose_name = pgettext_lazy("table seat", "seat")
        verbose_name_plural = pgettext_lazy("table seat", "seats")
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_row_per_seat"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self):
        return f"{self.table} seat {self.seat}: {self.name or 'open'}"

    @property
    def taken(self) -> bool:
        return self.bot or self.user_id is not None or self.player_id is not None


class TableMove(models.Model):
    """One applied move or time-out, in order: with the table's seed and options it replays
    the game exactly. A time-out row carries the move the clock made (docs/api.md)."""

    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="moves",
        verbose_name=pgettext_lazy("live table", "table"),
    )
    turn = models.PositiveIntegerField(verbose_name=pgettext_lazy("game turn", "turn"))
    seat = models.PositiveSmallIntegerField(verbose_name=pgettext_lazy("table seat", "seat"))
    move = models.JSONField(verbose_name=_("move"))
    timeout = models.BooleanField(default=False, verbose_name=_("time-out"))
    at = models.DateTimeField(verbose_name=_("at"))

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["table", "pk"]
        indexes = [models.Index(fields=["table", "turn"])]

    def __str__(self):
        return f"{self.table} turn {self.turn} seat {self.seat}"


class ClockSweep(models.Model):
    """When the clocks' sweep (beat, every GAMES_SWEEP_SECONDS) last ran: one row, for the
    health endpoint, which every web process answers from the database."""

    ONLY = 1

    ran_at = models.DateTimeField(verbose_name=_("ran at"))

    def __str__(self):
        return f"clock sweep at {self.ran_at:%Y-%m-%d %H:%M:%S}"
