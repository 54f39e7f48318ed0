"""Live tables: a game played on the site with a turn clock (docs/live-tables.md).

The table row is the truth: the engine's dumped state, the turn number and its deadline. The
broker only wakes things up (expiry tasks, bots); every change is a service call that locks
this row first.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

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
    seat timed out on HOLD_AFTER_TIMEOUTS turns of its own in a row (docs/live-tables.md).
    """

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    game = models.CharField(max_length=16, choices=Game.choices)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField()
    state = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    turn = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True)
    fixture = models.ForeignKey(
        Fixture, null=True, blank=True, on_delete=models.PROTECT, related_name="live_tables"
    )
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    cut = models.JSONField(null=True, blank=True)
    held = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The sweep's question: which playing tables are past their deadline?
            models.Index(fields=["deadline"], condition=Q(status="playing"), name="open_turns"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "number"],
                condition=Q(fixture__isnull=False),
                name="one_table_per_fixture_number",
            ),
        ]

    def __str__(self):
        return f"{self.get_game_display()} table {self.pk}"

    @property
    def turn_seconds(self) -> int:
        return self.options["turn_seconds"]


class Seat(models.Model):
    """A seat at a table: a user, a practice bot, or (open) neither yet.

    player: for a fixture table, the league player bound to the seat (their user may be unset:
    then they cannot come to the table, and it does not start).
    joined_at: for a fixture table, when the seat's player said "I am here"; the game is
    dealt once every seat has.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="table_seats",
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="table_seats"
    )
    bot = models.BooleanField(default=False)
    name = models.CharField(max_length=150, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="moves")
    turn = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    timeout = models.BooleanField(default=False)
    at = models.DateTimeField()

    class Meta:
        ordering = ["table", "pk"]
        indexes = [models.Index(fields=["table", "turn"])]

    def __str__(self):
        return f"{self.table} turn {self.turn} seat {self.seat}"


class ClockSweep(models.Model):
    """When the clocks' sweep (beat, every GAMES_SWEEP_SECONDS) last ran: one row, for the
    health endpoint, which every web process answers from the database."""

    ONLY = 1

    ran_at = models.DateTimeField()

    def __str__(self):
        return f"clock sweep at {self.ran_at:%Y-%m-%d %H:%M:%S}"
