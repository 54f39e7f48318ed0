"""Knockout cups beside a season's league: their rounds and each round's ties."""

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .people import Team
from .seasons import Season


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
