"""Venues, players, teams of two, seasons and fixtures. Nothing here knows about scoring."""

from typing import TYPE_CHECKING, Any

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
    # The TV screen above the bar speaks the pub's language, not the browser's.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
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


class WithdrawalRule(models.TextChoices):
    """What happens to a withdrawn team's results (docs/seasons.md)."""

    EXPUNGE = "expunge", "Expunged: its results are taken out of the table"
    KEEP = "keep", "Kept: its played results stand, the rest are walkovers to its opponents"


class Eligibility(models.TextChoices):
    """Where else a player of one team may play in the same season."""

    ONE_TEAM = "one_team", "For one team only in the season"
    ONE_PER_DIVISION = "one_per_div", "For one team in each division"
    LIMITED = "limited", "For another team up to the appearance limit"


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
    # Walkovers: the points each side gets, and the score (in the game's own units) written for
    # them; a null score means the game's own default (scoring.kinds).
    walkover_points_winner = models.PositiveSmallIntegerField(default=3)
    walkover_points_loser = models.PositiveSmallIntegerField(default=0)
    walkover_score_winner = models.PositiveSmallIntegerField(null=True, blank=True)
    walkover_score_loser = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawal_rule = models.CharField(
        max_length=8, choices=WithdrawalRule.choices, default=WithdrawalRule.EXPUNGE
    )
    # Squads: how many reserves a team may register, and where else a player may play.
    reserves_allowed = models.PositiveSmallIntegerField(default=2)
    eligibility = models.CharField(
        max_length=12, choices=Eligibility.choices, default=Eligibility.ONE_TEAM
    )
    appearance_limit = models.PositiveSmallIntegerField(default=2)
    # Match night: how long a player's result waits for the other team before it counts, and
    # how many days a postponed fixture has to be played in.
    confirmation_hours = models.PositiveSmallIntegerField(default=24)
    postponed_within_days = models.PositiveSmallIntegerField(default=28)
    # What is printed and subscribed to (sheets, iCal) reads in the league's language, whoever
    # prints it.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    # Set once, by the rollover that created the next season from this one.
    next_season = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="previous_season",
    )
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


class Division(models.Model):
    """One table of a season, with its own double round robin; level 1 is the top.

    promoted / relegated: how many teams go up / down at the season's end; playoff: the places
    either side of each line meet in one fixture instead (docs/seasons.md).
    """

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=120)
    level = models.PositiveSmallIntegerField(default=1)
    promoted = models.PositiveSmallIntegerField(default=0)
    relegated = models.PositiveSmallIntegerField(default=0)
    playoff = models.BooleanField(default=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_level_per_season"),
            models.UniqueConstraint(fields=["season", "name"], name="division_name_per_season"),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_from_1"),
        ]

    def __str__(self):
        return f"{self.season} {self.name}"


class Entry(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    withdrawn_on = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "team"], name="team_once_per_season")
        ]

    def __str__(self):
        return f"{self.team} in {self.season}"


class Reserve(models.Model):
    """A player registered in a team's squad for one season, who may stand in for its two."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="reserves")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="reserve_places")
    registered_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["entry", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "player"], name="reserve_once_per_entry")
        ]

    def __str__(self):
        return f"{self.player} (reserve, {self.entry})"


class Cup(models.Model):
    """A knockout competition for the game of its season, beside the season's league."""

    class Seeding(models.TextChoices):
        RANDOM = "random", "Drawn at random"
        RATINGS = "ratings", "Seeded by the teams' ratings"

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="cups")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120)
    seeding = models.CharField(max_length=8, choices=Seeding.choices, default=Seeding.RANDOM)
    with_plate = models.BooleanField(default=False)
    # The plate is a cup of its own, for the first round's losers of the cup it hangs on.
    plate_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="plate"
    )
    teams: "models.ManyToManyField[Team, Any]" = models.ManyToManyField(
        Team, related_name="cups", blank=True
    )
    drawn_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "slug"], name="cup_slug_per_season")
        ]

    def __str__(self):
        return self.name

    @property
    def game(self) -> str:
        return self.season.game


class CupRound(models.Model):
    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    starts_at = models.DateTimeField()

    class Meta:
        ordering = ["cup", "number"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "number"], name="cup_round_number_once")
        ]

    def __str__(self):
        return f"{self.cup} {self.name}"


class CupTie(models.Model):
    """One place in a round's draw: two teams and their fixture, or one team and a bye."""

    round = models.ForeignKey(CupRound, on_delete=models.CASCADE, related_name="ties")
    position = models.PositiveSmallIntegerField()
    home = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    away = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    bye = models.BooleanField(default=False)
    fixture = models.OneToOneField(
        "Fixture", null=True, blank=True, on_delete=models.PROTECT, related_name="cup_tie"
    )
    winner = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # A drawn tie's decider (docs/cups.md): the side that won it, what was played, and who
    # entered it. Empty while the tie is undecided or its result already has a winner.
    decider = models.CharField(
        max_length=4, choices=[("home", "Home"), ("away", "Away")], blank=True
    )
    decider_note = models.CharField(max_length=200, blank=True)
    decider_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="cup_tie_position_once")
        ]

    def __str__(self):
        return f"{self.round} tie {self.position}"


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        PLAYED = "played", "Played"
        POSTPONED = "postponed", "Postponed"
        VOID = "void", "Void"

    class Stage(models.TextChoices):
        LEAGUE = "league", "League"
        PLAYOFF = "playoff", "Play-off"
        CUP = "cup", "Cup"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    division = models.ForeignKey(
        Division, null=True, blank=True, on_delete=models.PROTECT, related_name="fixtures"
    )
    stage = models.CharField(max_length=8, choices=Stage.choices, default=Stage.LEAGUE)
    round = models.PositiveSmallIntegerField()
    home_team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_fixtures")
    away_team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_fixtures")
    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="fixtures")
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    postponed_reason = models.CharField(max_length=250, blank=True)
    play_by = models.DateField(null=True, blank=True)  # a postponed fixture's last day
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "round", "starts_at", "pk"]
        indexes = [models.Index(fields=["season", "round"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(home_team=models.F("away_team")), name="fixture_two_teams"
            ),
            # A cup tie or a play-off may meet a pairing the league already has.
            models.UniqueConstraint(
                fields=["season", "home_team", "away_team"],
                condition=Q(stage="league"),
                name="pairing_once_per_season",
            ),
        ]

    def __str__(self):
        return f"{self.home_team} v {self.away_team} (round {self.round})"


class Availability(models.Model):
    """Whether a player can play a fixture, as they said last."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="availability")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="availability")
    available = models.BooleanField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "availability"
        constraints = [
            models.UniqueConstraint(fields=["fixture", "player"], name="availability_once")
        ]

    def __str__(self):
        return f"{self.player} {'can' if self.available else 'cannot'} play {self.fixture}"


class RescheduleProposal(models.Model):
    """A new date for a fixture proposed by one team; the other team accepts or declines."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", "Proposed"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="reschedules")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    starts_at = models.DateTimeField()
    message = models.CharField(max_length=500, blank=True)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.PROPOSED)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["fixture", "-created_at", "-pk"]
        constraints = [
            # One open proposal per fixture at a time: a second waits for the first's answer.
            models.UniqueConstraint(
                fields=["fixture"], condition=Q(status="proposed"), name="one_open_reschedule"
            )
        ]

    def __str__(self):
        return f"{self.fixture} to {self.starts_at:%Y-%m-%d %H:%M} ({self.status})"


class Profile(models.Model):
    """A user's own settings: notices by email, and (with languages) the language they read."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    email_notices = models.BooleanField(default=True)
    # Blank until they choose: then the site, emails and notices speak the browser's language.
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, blank=True)

    def __str__(self):
        return f"{self.user}'s settings"
