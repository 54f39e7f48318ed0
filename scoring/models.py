"""Results: append-only versions of a fixture's sheet; the current one counts."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from leagues.models import Fixture


class ResultVersion(models.Model):
    """One saved version of a fixture's result sheet. Never edited: a correction is a new row.

    sheet: the game's sheet as entered (see docs/scoring.md for each game's shape).
    home_score / away_score: the game's own units from the sheet (convoys, penalty heads,
    deal points); winner: "home", "away" or "draw" for the fixture. Both are derived from the
    sheet by scoring.outcomes when the version is written, so standings read them directly.
    """

    class Winner(models.TextChoices):
        HOME = "home", "Home"
        AWAY = "away", "Away"
        DRAW = "draw", "Draw"

    class Source(models.TextChoices):
        STAFF = "staff", "Staff entry"
        API = "api", "API"
        LIVE = "live", "Live table"
        ADMIN = "admin", "Admin"

    fixture = models.ForeignKey(Fixture, on_delete=models.PROTECT, related_name="result_versions")
    number = models.PositiveIntegerField()
    sheet = models.JSONField()
    home_score = models.IntegerField()
    away_score = models.IntegerField()
    winner = models.CharField(max_length=4, choices=Winner.choices)
    is_current = models.BooleanField(default=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.STAFF)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=250, blank=True)

    class Meta:
        ordering = ["fixture", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "number"], name="version_number_per_fixture"
            ),
            models.UniqueConstraint(
                fields=["fixture"], condition=Q(is_current=True), name="one_current_version"
            ),
        ]

    def __str__(self):
        return f"{self.fixture} v{self.number}"
