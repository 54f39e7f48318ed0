"""Venues, players, teams of two, seasons and fixtures. Nothing here knows about scoring."""

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class Game(models.TextChoices):
    CONVOY = "convoy", "Convoy"
    KOROVA = "korova", "Корова 006"
    CONQUIAN = "conquian", "Conquian"


class Venue(models.Model):
    name = models.CharField(max_length=120, unique=True, verbose_name=_("name"))
    slug = models.SlugField(max_length=120, unique=True, verbose_name=_("slug"))
    address = models.CharField(max_length=250, blank=True, verbose_name=_("address"))
    # The TV screen above the bar speaks the pub's language, not the browser's.
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        verbose_name=_("language"),
    )
    # The through models come later in this file, out of the stubs' sight: named here.
    staff: "models.ManyToManyField[User, StaffMembership]" = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="StaffMembership",
        related_name="venues_served",
        verbose_name=_("staff"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        ordering = ["name"]

    def __str__(self):
        return self.name


class StaffMembership(models.Model):
    """A user who may enter results for fixtures at this venue."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    venue = models.ForeignKey(Venue, on_delete=models.CASCADE, verbose_name=_("venue"))
    granted_at = models.DateTimeField(auto_now_add=True, verbose_name=_("granted at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("staff membership")
        verbose_name_plural = _("staff memberships")
        constraints = [
            models.UniqueConstraint(fields=["user", "venue"], name="one_membership_per_venue")
        ]

    def __str__(self):
        return gettext("%(user)s at %(venue)s") % {"user": self.user, "venue": self.venue}


class Player(models.Model):
    name = models.CharField(max_length=120, verbose_name=_("name"))
    slug = models.SlugField(max_length=120, unique=True, verbose_name=_("slug"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("user"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]

    def __str__(self):
        return self.name


class Team(models.Model):
    """Exactly two players (TeamMember positions 1 and 2) with a home venue."""

    name = models.CharField(max_length=120, unique=True, verbose_name=_("name"))
    slug = models.SlugField(max_length=120, unique=True, verbose_name=_("slug"))
    home_venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="home_teams", verbose_name=_("home venue")
    )
    players: "models.ManyToManyField[Player, TeamMember]" = models.ManyToManyField(
        Player, through="TeamMember", related_name="teams", verbose_name=_("players")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]

    def __str__(self):
        return self.name


class TeamMember(models.Model):
    """Position 1 and 2 matter: Conquian singles are home 1 v away 1, home 2 v away 2."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="members", verbose_name=_("team")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="memberships", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(
        choices=[(1, _("Player 1")), (2, _("Player 2"))], verbose_name=_("position")
    )

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["team", "position"], name="one_player_per_position"),
            models.UniqueConstraint(fields=["team", "player"], name="player_once_per_team"),
            models.CheckConstraint(condition=Q(position__in=[1, 2]), name="position_1_or_2"),
        ]

    def __str__(self):
        return f"{self.player} ({self.team}, {self.position})"


class League(models.Model):
    name = models.CharField(max_length=120, unique=True, verbose_name=_("name"))
    slug = models.SlugField(max_length=120, unique=True, verbose_name=_("slug"))
    game = models.CharField(max_length=16, choices=Game.choices, verbose_name=_("game"))
    description = models.TextField(blank=True, verbose_name=_("description"))

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        ordering = ["name"]

    def __str__(self):
        return self.name


def default_tie_breakers():
    return ["points", "difference", "head_to_head", "wins"]


class WithdrawalRule(models.TextChoices):
    """What happens to a withdrawn team's results (docs/seasons.md)."""

    EXPUNGE = "expunge", _("Expunged: its results are taken out of the table")
    KEEP = "keep", _("Kept: its played results stand, the rest are walkovers to its opponents")


class Eligibility(models.TextChoices):
    """Where else a player of one team may play in the same season."""

    ONE_TEAM = "one_team", _("For one team only in the season")
    ONE_PER_DIVISION = "one_per_div", _("For one team in each division")
    LIMITED = "limited", _("For another team up to the appearance limit")


class Season(models.Model):
    """One season of a league: its game's rule options, fixture format, points and tie-breakers.

    rule_options: the engine's options by name (games.engines OPTIONS), e.g. {"end_score": 66}.
    fixture_format: Convoy {"games": N} (best of N, default 1); Корова and Conquian {}.
    tie_breakers: keys of scoring.standings.tiebreakers, applied in order.
    """

    league = models.ForeignKey(
        League, on_delete=models.PROTECT, related_name="seasons", verbose_name=_("league")
    )
    name = models.CharField(max_length=120, verbose_name=_("name"))
    slug = models.SlugField(max_length=120, verbose_name=_("slug"))
    starts_on = models.DateField(verbose_name=_("starts on"))
    rule_options = models.JSONField(default=dict, blank=True, verbose_name=_("rule options"))
    fixture_format = models.JSONField(default=dict, blank=True, verbose_name=_("fixture format"))
    points_win = models.PositiveSmallIntegerField(default=3, verbose_name=_("points for a win"))
    points_draw = models.PositiveSmallIntegerField(default=1, verbose_name=_("points for a draw"))
    points_loss = models.PositiveSmallIntegerField(default=0, verbose_name=_("points for a loss"))
    tie_breakers = models.JSONField(default=default_tie_breakers, verbose_name=_("tie-breakers"))
    # Walkovers: the points each side gets, and the score (in the game's own units) written for
    # them; a null score means the game's own default (scoring.kinds).
    walkover_points_winner = models.PositiveSmallIntegerField(
        default=3, verbose_name=_("walkover points, winner")
    )
    walkover_points_loser = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("walkover points, loser")
    )
    walkover_score_winner = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("walkover score, winner")
    )
    walkover_score_loser = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("walkover score, loser")
    )
    withdrawal_rule = models.CharField(
        max_length=8,
        choices=WithdrawalRule.choices,
        default=WithdrawalRule.EXPUNGE,
        verbose_name=_("withdrawn team's results"),
    )
    # Squads: how many reserves a team may register, and where else a player may play.
    reserves_allowed = models.PositiveSmallIntegerField(
        default=2, verbose_name=_("reserves allowed")
    )
    eligibility = models.CharField(
        max_length=12,
        choices=Eligibility.choices,
        default=Eligibility.ONE_TEAM,
        verbose_name=_("eligibility"),
    )
    appearance_limit = models.PositiveSmallIntegerField(
        default=2, verbose_name=_("appearance limit")
    )
    # Match night: how long a player's result waits for the other team before it counts, and
    # how many days a postponed fixture has to be played in.
    confirmation_hours = models.PositiveSmallIntegerField(
        default=24, verbose_name=_("hours to confirm a result")
    )
    postponed_within_days = models.PositiveSmallIntegerField(
        default=28, verbose_name=_("days to play a postponed fixture")
    )
    # What is printed and subscribed to (sheets, iCal) reads in the league's language, whoever
    # prints it.
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        verbose_name=_("language"),
    )
    # Set once, by the rollover that created the next season from this one.
    next_season = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="previous_season",
        verbose_name=_("next season"),
    )
    teams: "models.ManyToManyField[Team, Entry]" = models.ManyToManyField(
        Team, through="Entry", related_name="seasons", verbose_name=_("teams")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
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

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("season")
    )
    name = models.CharField(max_length=120, verbose_name=_("name"))
    level = models.PositiveSmallIntegerField(default=1, verbose_name=_("level"))
    promoted = models.PositiveSmallIntegerField(default=0, verbose_name=_("promoted"))
    relegated = models.PositiveSmallIntegerField(default=0, verbose_name=_("relegated"))
    playoff = models.BooleanField(default=False, verbose_name=_("play-off"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["season", "level"]
        constraints = [
            models.UniqueConstraint(fields=["season", "level"], name="division_level_per_season"),
            models.UniqueConstraint(fields=["season", "name"], name="division_name_per_season"),
            models.CheckConstraint(condition=Q(level__gte=1), name="division_level_from_1"),
        ]

    def __str__(self):
        return f"{self.season} {self.name}"


class Entry(models.Model):
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="entries", verbose_name=_("season")
    )
    team = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="entries", verbose_name=_("team")
    )
    division = models.ForeignKey(
        Division,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        verbose_name=_("division"),
    )
    withdrawn_on = models.DateField(null=True, blank=True, verbose_name=_("withdrawn on"))

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["season", "team"], name="team_once_per_season")
        ]

    def __str__(self):
        return gettext("%(team)s in %(season)s") % {"team": self.team, "season": self.season}

    def clean(self):
        """A team plays in a division of its own season (forms show this beside the field)."""
        if (
            self.division_id is not None
            and self.season_id is not None
            and self.division is not None
            and self.division.season_id != self.season_id
        ):
            raise ValidationError(
                {
                    "division": gettext(
                        "%(division)s is a division of another season: choose one of "
                        "%(season)s's divisions."
                    )
                    % {"division": self.division.name, "season": self.season}
                }
            )


class Reserve(models.Model):
    """A player registered in a team's squad for one season, who may stand in for its two."""

    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="reserves", verbose_name=_("entry")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="reserve_places", verbose_name=_("player")
    )
    registered_at = models.DateTimeField(auto_now_add=True, verbose_name=_("registered at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("reserve")
        verbose_name_plural = _("reserves")
        ordering = ["entry", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "player"], name="reserve_once_per_entry")
        ]

    def __str__(self):
        return gettext("%(player)s (reserve, %(entry)s)") % {
            "player": self.player,
            "entry": self.entry,
        }


class Cup(models.Model):
    """A knockout competition for the game of its season, beside the season's league."""

    class Seeding(models.TextChoices):
        RANDOM = "random", _("Drawn at random")
        RATINGS = "ratings", _("Seeded by the teams' ratings")

    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, related_name="cups", verbose_name=_("season")
    )
    name = models.CharField(max_length=120, verbose_name=_("name"))
    slug = models.SlugField(max_length=120, verbose_name=_("slug"))
    seeding = models.CharField(
        max_length=8, choices=Seeding.choices, default=Seeding.RANDOM, verbose_name=_("seeding")
    )
    with_plate = models.BooleanField(default=False, verbose_name=_("with a plate"))
    # The plate is a cup of its own, for the first round's losers of the cup it hangs on.
    plate_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="plate",
        verbose_name=_("plate of"),
    )
    teams: "models.ManyToManyField[Team, Any]" = models.ManyToManyField(
        Team, related_name="cups", blank=True, verbose_name=_("teams")
    )
    drawn_at = models.DateTimeField(null=True, blank=True, verbose_name=_("drawn at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("cup")
        verbose_name_plural = _("cups")
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
    cup = models.ForeignKey(
        Cup, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("cup")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    name = models.CharField(max_length=60, verbose_name=_("name"))
    starts_at = models.DateTimeField(verbose_name=_("date and time"))

    class Meta:
        verbose_name = _("cup round")
        verbose_name_plural = _("cup rounds")
        ordering = ["cup", "number"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "number"], name="cup_round_number_once")
        ]

    def __str__(self):
        return f"{self.cup} {self.name}"


class CupTie(models.Model):
    """One place in a round's draw: two teams and their fixture, or one team and a bye."""

    round = models.ForeignKey(
        CupRound,
        on_delete=models.CASCADE,
        related_name="ties",
        verbose_name=pgettext_lazy("fixture", "round"),
    )
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    home = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("home team"),
    )
    away = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("away team"),
    )
    bye = models.BooleanField(default=False, verbose_name=_("bye"))
    fixture = models.OneToOneField(
        "Fixture",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cup_tie",
        verbose_name=_("fixture"),
    )
    winner = models.ForeignKey(
        Team,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("winner"),
    )
    # A drawn tie's decider (docs/cups.md): the side that won it, what was played, and who
    # entered it. Empty while the tie is undecided or its result already has a winner.
    decider = models.CharField(
        max_length=4,
        choices=[("home", pgettext_lazy("side", "Home")), ("away", pgettext_lazy("side", "Away"))],
        blank=True,
        verbose_name=_("decider"),
    )
    decider_note = models.CharField(max_length=200, blank=True, verbose_name=_("decider note"))
    decider_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("decider entered by"),
    )

    class Meta:
        verbose_name = _("cup tie")
        verbose_name_plural = _("cup ties")
        ordering = ["round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "position"], name="cup_tie_position_once")
        ]

    def __str__(self):
        return gettext("%(round)s tie %(position)s") % {
            "round": self.round,
            "position": self.position,
        }


class Fixture(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", pgettext_lazy("fixture status", "Scheduled")
        PLAYED = "played", pgettext_lazy("fixture status", "Played")
        POSTPONED = "postponed", pgettext_lazy("fixture status", "Postponed")
        VOID = "void", pgettext_lazy("fixture status", "Void")

    class Stage(models.TextChoices):
        LEAGUE = "league", pgettext_lazy("competition", "League")
        PLAYOFF = "playoff", pgettext_lazy("competition", "Play-off")
        CUP = "cup", pgettext_lazy("competition", "Cup")

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="fixtures", verbose_name=_("season")
    )
    division = models.ForeignKey(
        Division,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="fixtures",
        verbose_name=_("division"),
    )
    stage = models.CharField(
        max_length=8,
        choices=Stage.choices,
        default=Stage.LEAGUE,
        verbose_name=pgettext_lazy("competition", "stage"),
    )
    round = models.PositiveSmallIntegerField(verbose_name=pgettext_lazy("fixture", "round"))
    home_team = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="home_fixtures", verbose_name=_("home team")
    )
    away_team = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="away_fixtures", verbose_name=_("away team")
    )
    venue = models.ForeignKey(
        Venue, on_delete=models.PROTECT, related_name="fixtures", verbose_name=_("venue")
    )
    starts_at = models.DateTimeField(verbose_name=_("date and time"))
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.SCHEDULED, verbose_name=_("status")
    )
    postponed_reason = models.CharField(
        max_length=250, blank=True, verbose_name=_("reason for postponing")
    )
    play_by = models.DateField(
        null=True, blank=True, verbose_name=_("play by")
    )  # a postponed fixture's last day
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("fixture")
        verbose_name_plural = _("fixtures")
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
        return gettext("%(home)s v %(away)s (round %(round)s)") % {
            "home": self.home_team,
            "away": self.away_team,
            "round": self.round,
        }


class Availability(models.Model):
    """Whether a player can play a fixture, as they said last."""

    fixture = models.ForeignKey(
        Fixture, on_delete=models.CASCADE, related_name="availability", verbose_name=_("fixture")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="availability", verbose_name=_("player")
    )
    available = models.BooleanField(verbose_name=_("available"))
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("updated at"))

    class Meta:
        verbose_name = _("availability")
        verbose_name_plural = _("availability")
        constraints = [
            models.UniqueConstraint(fields=["fixture", "player"], name="availability_once")
        ]

    def __str__(self):
        template = (
            gettext("%(player)s can play %(fixture)s")
            if self.available
            else gettext("%(player)s cannot play %(fixture)s")
        )
        return template % {"player": self.player, "fixture": self.fixture}


class RescheduleProposal(models.Model):
    """A new date for a fixture proposed by one team; the other team accepts or declines."""

    class Status(models.TextChoices):
        PROPOSED = "proposed", pgettext_lazy("proposal status", "Proposed")
        ACCEPTED = "accepted", pgettext_lazy("proposal status", "Accepted")
        DECLINED = "declined", pgettext_lazy("proposal status", "Declined")
        WITHDRAWN = "withdrawn", pgettext_lazy("proposal status", "Withdrawn")

    fixture = models.ForeignKey(
        Fixture, on_delete=models.CASCADE, related_name="reschedules", verbose_name=_("fixture")
    )
    team = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="+", verbose_name=_("team")
    )
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("proposed by"),
    )
    starts_at = models.DateTimeField(verbose_name=_("date and time"))
    message = models.CharField(max_length=500, blank=True, verbose_name=_("message"))
    status = models.CharField(
        max_length=9, choices=Status.choices, default=Status.PROPOSED, verbose_name=_("status")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("proposed at"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("answered by"),
    )
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("answered at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("proposed new date")
        verbose_name_plural = _("proposed new dates")
        ordering = ["fixture", "-created_at", "-pk"]
        constraints = [
            # One open proposal per fixture at a time: a second waits for the first's answer.
            models.UniqueConstraint(
                fields=["fixture"], condition=Q(status="proposed"), name="one_open_reschedule"
            )
        ]

    def __str__(self):
        return gettext("%(fixture)s to %(date)s (%(status)s)") % {
            "fixture": self.fixture,
            "date": f"{self.starts_at:%Y-%m-%d %H:%M}",
            "status": self.get_status_display(),
        }


class Profile(models.Model):
    """A user's own settings: notices by email, and (with languages) the language they read."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    email_notices = models.BooleanField(default=True, verbose_name=_("notices by email"))
    # Blank until they choose: then the site, emails and notices speak the browser's language.
    language = models.CharField(
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        verbose_name=_("language"),
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return gettext("%(user)s's settings") % {"user": self.user}
