"""Venues and their staff: the users who may enter results for the venue's fixtures."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
