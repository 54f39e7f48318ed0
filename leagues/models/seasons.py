"""Leagues (one game each), their seasons with the seasons' rules, divisions, the teams entered
and each entry's reserves."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .people import Player, Team


class Game(models.TextChoices):
    CONVOY = "convoy", "Convoy"
    KOROVA = "korova", "Корова 006"
    CONQUIAN = "conquian", "Conquian"


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
