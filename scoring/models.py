"""Results: append-only versions of a fixture's sheet; the current one counts."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from leagues.models import Fixture, Game, Player, Season, Team, Venue


class ResultVersionQuerySet(models.QuerySet["ResultVersion"]):
    def standing(self) -> "ResultVersionQuerySet":
        """Each fixture's current version, void fixtures left out, whether it is confirmed,
        awaiting confirmation or disputed (what What needs you and "not counted yet" read)."""
        return self.filter(is_current=True).exclude(fixture__status=Fixture.Status.VOID)

    def counted(self) -> "ResultVersionQuerySet":
        """The results that count: the standing versions that are confirmed (the one
        definition for standings, records, figures, charts and ratings)."""
        return self.standing().filter(confirmation=ResultVersion.Confirmation.CONFIRMED)


class ResultVersion(models.Model):
    """One saved version of a fixture's result sheet. Never edited: a correction is a new row.

    sheet: the game's sheet as entered (see docs/scoring.md for each game's shape).
    home_score / away_score: the game's own units from the sheet (convoys, penalty heads,
    deal points); winner: "home", "away" or "draw" for the fixture. Both are derived from the
    sheet by scoring.results.outcomes when the version is written, so standings read them directly.
    lineup: the two teams' player ids when the version was written, {"home": [player 1,
    player 2], "away": [...]}: who played, for a game whose sheet names no players (Convoy's
    ratings), whatever the rosters become later.
    """

    class Winner(models.TextChoices):
        HOME = "home", pgettext_lazy("home team", "Home")
        AWAY = "away", pgettext_lazy("away team", "Away")
        DRAW = "draw", _("Draw")

    class Source(models.TextChoices):
        STAFF = "staff", _("Staff entry")
        API = "api", _("API")
        LIVE = "live", _("Live table")
        ADMIN = "admin", _("Admin")
        PLAYER = "player", _("Player of the fixture")
        AUTO = "auto", _("Confirmed when the window passed")

    class Confirmation(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        AWAITING = "awaiting", _("Awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")

    class Walkover(models.TextChoices):
        HOME = "home", pgettext_lazy("home team", "Home")
        AWAY = "away", pgettext_lazy("away team", "Away")

    fixture = models.ForeignKey(Fixture, on_delete=models.PROTECT, related_name="result_versions")
    number = models.PositiveIntegerField()
    sheet = models.JSONField()
    home_score = models.IntegerField()
    away_score = models.IntegerField()
    winner = models.CharField(max_length=4, choices=Winner.choices)
    lineup = models.JSONField(default=dict)
    is_current = models.BooleanField(default=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.STAFF)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=250, blank=True)
    # A walkover: the team awarded it ("" for none; the API says null); the sheet is then empty
    # and the scores are the season's.
    walkover = models.CharField(max_length=4, choices=Walkover.choices, blank=True)
    confirmation = models.CharField(
        max_length=9, choices=Confirmation.choices, default=Confirmation.CONFIRMED
    )
    confirm_by = models.DateTimeField(null=True, blank=True)
    # The key an offline entry page sent with its sheet: sent twice, it is saved once.
    submission_key = models.CharField(max_length=64, blank=True)

    objects = ResultVersionQuerySet.as_manager()

    class Meta:
        verbose_name = _("result version")
        verbose_name_plural = _("result versions")
        ordering = ["fixture", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture", "submission_key"],
                condition=~Q(submission_key=""),
                name="submission_once_per_fixture",
            ),
            models.UniqueConstraint(
                fields=["fixture", "number"], name="version_number_per_fixture"
            ),
            models.UniqueConstraint(
                fields=["fixture"], condition=Q(is_current=True), name="one_current_version"
            ),
        ]

    def __str__(self):
        return f"{self.fixture} v{self.number}"


class ResultProposal(models.Model):
    """A result that came in while the fixture's result had changed since it was begun on (a
    live table's game whose fixture got a version meanwhile): kept, not counted, until staff
    choose (docs/result-entry.md). The same conflict as a stale staff form, with no one at the
    form to resolve it, so it waits for them.

    based_on_version: the version the result was begun from (0: none); decided_at / decided_by:
    when and by whom staff chose (saved a version or kept the current one); null while open.
    """

    fixture = models.ForeignKey(Fixture, on_delete=models.PROTECT, related_name="proposals")
    sheet = models.JSONField()
    based_on_version = models.PositiveIntegerField()
    source = models.CharField(max_length=8, choices=ResultVersion.Source.choices)
    note = models.CharField(max_length=250, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("result proposal")
        verbose_name_plural = _("result proposals")
        ordering = ["fixture", "-created_at", "-pk"]

    def __str__(self):
        return f"{self.fixture} proposal {self.pk}"


class PointsAdjustment(models.Model):
    """Points added to or taken from a team's season total (a fine, an ineligible player)."""

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="adjustments")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="adjustments")
    points = models.SmallIntegerField()
    reason = models.CharField(max_length=250)
    on = models.DateField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("points adjustment")
        verbose_name_plural = _("points adjustments")
        ordering = ["season", "team", "on", "pk"]
        constraints = [models.CheckConstraint(condition=~Q(points=0), name="adjustment_not_zero")]

    def __str__(self):
        return f"{self.team} {self.points:+d} ({self.reason})"


class PlayerRating(models.Model):
    """A player's current rating in one game (scoring.ratings.replay): the last computed state.

    Written only by scoring.ratings.services.ratings_recompute, which replaces a game's ratings as a
    whole; ordinal = mu − 3·sigma is what the pages show and sort by.
    """

    game = models.CharField(max_length=16, choices=Game.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()
    last_played_at = models.DateTimeField()

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        ordering = ["game", "-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_rating_per_game")
        ]
        indexes = [models.Index(fields=["game", "-ordinal"])]

    def __str__(self):
        return f"{self.player} {self.game} {self.ordinal:.1f}"


class RatingPoint(models.Model):
    """A player's rating after one fixture: the history behind the rating chart."""

    game = models.CharField(max_length=16, choices=Game.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="+")
    played_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        verbose_name = _("rating point")
        verbose_name_plural = _("rating points")
        ordering = ["player", "game", "played_at", "fixture_id"]
        indexes = [models.Index(fields=["player", "game", "played_at"])]

    def __str__(self):
        return f"{self.player} {self.game} {self.ordinal:.1f} after fixture {self.fixture_id}"


class RatingRun(models.Model):
    """When a game's ratings were last computed, from which results: one row per game.

    Its row is the lock that keeps two recomputations of the same game from interleaving.
    results_stamp fingerprints the counted results, so the periodic check can tell whether a
    recomputation was missed (a lost task, a fixture voided in the admin).
    """

    game = models.CharField(max_length=16, choices=Game.choices, unique=True)
    computed_at = models.DateTimeField(null=True)
    results_stamp = models.CharField(max_length=64, blank=True)
    fixtures = models.PositiveIntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0)

    class Meta:
        verbose_name = _("rating run")
        verbose_name_plural = _("rating runs")

    def __str__(self):
        return f"{self.game} ratings at {self.computed_at}"


class VenueScreen(models.Model):
    """The pub's TV screen: a read-only page for one venue, opened by a secret token."""

    venue = models.OneToOneField(Venue, on_delete=models.CASCADE, related_name="screen")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("venue screen")
        verbose_name_plural = _("venue screens")

    def __str__(self):
        return f"TV screen of {self.venue}"


class NoticeSent(models.Model):
    """One email notice sent to one person about one event ("result-awaiting:<version id>",
    "reschedule-proposed:<proposal id>", …): the row that makes a notice go out once, however
    often the sender runs (scoring.match_night.services.notices_send)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=64)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("notice sent")
        verbose_name_plural = _("notices sent")
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="notice_once_per_event")
        ]

    def __str__(self):
        return f"{self.event} to {self.user}"
