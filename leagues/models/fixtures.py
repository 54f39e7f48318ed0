"""Fixtures (a season's league games, play-offs and cup ties) and match night's rows: players'
availability and the new dates one team proposes to the other."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .people import Player, Team
from .seasons import Division, Season
from .venues import Venue


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
