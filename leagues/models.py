"""Venues, players, teams of two, seasons and fixtures. Nothing here knows about scoring."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class Game(models.TextChoices):
    CONVOY = "convoy", "Convoy"
    KOROVA = "korova", "Корова 006"
    CONQUIAN = "conquian", "Conquian"


class Venue(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    address = models.CharField(max_length=250, blank=True)
    # The through models come later in this file, out of the stubs' sight: named here.
    staff: "models.ManyToManyField[User, StaffMembership]" = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="StaffMembership", related_name="venues_served"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class StaffMembership(models.Model):
    """A user who may enter results for fixtures at this venue."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    venue = models.ForeignKey(Venue, on_delete=models.CASCADE)
    granted_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "venue"], name="one_membership_per_venue")
        ]

    def __str__(self):
        return f"{self.user} at {self.venue}"


class Player(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class Team(models.Model):
    """Exactly two players (TeamMember positions 1 and 2) with a home venue."""

    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    home_venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="home_teams")
    players: "models.ManyToManyField[Player, TeamMember]" = models.ManyToManyField(
        Player, through="TeamMember", related_name="teams"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class TeamMember(models.Model):
    """Position 1 and 2 matter: Conquian singles are home 1 v away 1, home 2 v away 2."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    position = models.PositiveSmallIntegerField(choices=[(1, "Player 1"), (2, "Player 2")])

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "position"], name="one_player_per_position"),
            models.UniqueConstraint(fields=["team", "player"], name="player_once_per_team"),
            models.CheckConstraint(condition=Q(position__in=[1, 2]), name="position_1_or_2"),
        ]

    def __str__(self):
        return f"{self.player} ({self.team}, {self.position})"


class League(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    game = models.CharField(max_length=16, choices=Game.choices)
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


def default_tie_breakers():
    return ["points", "difference", "head_to_head", "wins"]


class Season(models.Model):
    """One season of a league: its game's rule options, fixture format, points and tie-breakers.

    rule_options: the engine's options by name (games.engines OPTIONS), e.g. {"end_score": 66}.
    fixture_format: Convoy {"games": N} (best of N, default 1); Корова and Conquian {}.
    tie_breakers: keys of scoring.standings.tiebreakers, applied in order.
    """

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    starts_on = models.DateField()
    rule_options = models.JSONField(default=dict, blank=True)
    fixture_format = models.JSONField(default=dict, blank=True)
    points_win = models.PositiveSmallIntegerField(default=3)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    tie_breakers = models.JSONField(default=default_tie_breakers)
    teams: "models.ManyToManyField[Team, Entry]" = models.ManyToManyField(
        Team, through="Entry", related_name="seasons"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-starts_on", "league__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="season_slug_per_league")
        ]

    def __str__(self):
        return f"{self.league} {self.name}"

    @property
    def game(self) -> str:
        return self.league.game


class Entry(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries")

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "team"], name="team_once_per_season")
        ]

    def __str__(self):
        return f"{self.team} in {self.season}"


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYED = "played", "Played"
        POSTPONED = "postponed", "Postponed"
        VOID = "void", "Void"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    round = models.PositiveSmallIntegerField()
    home_team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_fixtures")
    away_team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_fixtures")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="fixtures")
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    postponed_reason = models.CharField(max_length=250, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "round", "starts_at", "pk"]
        indexes = [models.Index(fields=["season", "round"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(home_team=models.F("away_team")), name="fixture_two_teams"
            ),
            models.UniqueConstraint(
                fields=["season", "home_team", "away_team"], name="pairing_once_per_season"
            ),
        ]

    def __str__(self):
        return f"{self.home_team} v {self.away_team} (round {self.round})"
