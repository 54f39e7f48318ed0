"""Players, teams of two (each with a home venue), and a user's own settings (Profile)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .venues import Venue


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
