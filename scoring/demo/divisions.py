"""The demo's divisions (load_demo): the Conquian season played in two divisions of four, the
Crown & Anchor's teams in the Premier and the Red Lion's in Division One, one going up and one
down, and a points deduction with its reason. Its fixtures are all played by load_demo (four
teams play six rounds), so the season is over and a league admin can try the rollover.
"""

import datetime

from django.urls import reverse

from leagues.models import Division, Entry, Fixture, Season
from leagues.permissions import AnyUser
from leagues.services import fixtures_generate, season_divisions_ensure
from scoring.demo import demo_game_showing
from scoring.models import PointsAdjustment, ResultVersion
from scoring.season_rules.services import points_adjustment_add

GAME = demo_game_showing("divisions")
LOWER_VENUE = "the-red-lion"  # its teams start in Division One
DEDUCTION = ("open-card", -2, "Result sheet sent in a week late (round 3)")


def divisions_demo_ensure(*, seasons: list[Season], by: AnyUser) -> None:
    """Give every demo season its division, and split the Conquian season into two, once:
    only while it has one division and no result (so loading the demo again changes
    nothing)."""
    tops = {season.game: season_divisions_ensure(season=season, by=by) for season in seasons}
    season = next(season for season in seasons if season.game == GAME)
    premier = tops[GAME]
    if (
        season.divisions.count() > 1
        or ResultVersion.objects.filter(fixture__season=season).exists()
    ):
        return
    premier.name, premier.relegated = "Premier", 1
    premier.save()
    second = Division.objects.create(season=season, name="Division One", level=2, promoted=1)
    Entry.objects.filter(season=season, team__home_venue__slug=LOWER_VENUE).update(division=second)
    first = Fixture.objects.filter(season=season).order_by("starts_at").first()
    first_kickoff = first.starts_at if first is not None else None
    fixtures_generate(season=season, first_kickoff=first_kickoff, by=by)
    slug, points, reason = DEDUCTION
    if not PointsAdjustment.objects.filter(season=season).exists():
        points_adjustment_add(
            season_id=season.pk,
            team_id=Entry.objects.get(season=season, team__slug=slug).team_id,
            points=points,
            reason=reason,
            on=season.starts_on + datetime.timedelta(weeks=3),
            by=by,
        )


def divisions_demo_where(*, site_url: str) -> str:
    """The line load_demo prints: where the divisions are shown."""
    season = Season.objects.select_related("league").get(league__game=GAME, slug="autumn")
    page = reverse("season-detail", args=[season.league.slug, season.slug])
    rollover = reverse("admin:leagues_season_rollover", args=[season.pk])
    base = site_url.rstrip("/")
    return f"Divisions (zones, a points deduction): {base}{page}  (roll it over: {base}{rollover})"
