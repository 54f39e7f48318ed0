"""`manage.py generate_fixtures SEASON`: a season's double round robin from the command line."""

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from config.errors import DomainError, refusal_sentence
from leagues.models import Fixture, Season
from leagues.services import fixtures_generate


def find_season(label: str) -> Season:
    """A season by id ("12") or by "league-slug/season-slug"; CommandError if there is none."""
    label = label.strip()
    queryset = Season.objects.select_related("league")
    season = None
    if label.isdigit():
        season = queryset.filter(pk=int(label)).first()
    elif label.count("/") == 1:
        league_slug, season_slug = label.split("/")
        season = queryset.filter(league__slug=league_slug, slug=season_slug).first()
    if season is None:
        raise CommandError(
            f"Unknown season {label!r}: give the season's id (e.g. 3) or "
            "league-slug/season-slug (e.g. korova-league/2026-autumn)."
        )
    return season


class Command(BaseCommand):
    help = (
        "Generate a season's fixtures (double round robin, byes for an odd count, home and "
        "away balanced, venue from the home team). Fixtures without results are replaced; a "
        "season with results is refused."
    )

    def add_arguments(self, parser):
        parser.add_argument("season", help='the season id, or "league-slug/season-slug"')
        parser.add_argument(
            "--first-kickoff",
            help="date and time of round 1, e.g. 2026-09-03T19:30 (default: the season's "
            "first day at 19:30, local time)",
        )
        parser.add_argument(
            "--days-between-rounds", type=int, default=7, help="default 7 (one round a week)"
        )

    def handle(self, *args, season, first_kickoff, days_between_rounds, **options):
        season = find_season(season)
        kickoff = None
        if first_kickoff:
            try:
                kickoff = datetime.datetime.fromisoformat(first_kickoff)
            except ValueError:
                raise CommandError(
                    f"--first-kickoff {first_kickoff!r} is not a date and time; "
                    "write it like 2026-09-03T19:30."
                )
        replaced = Fixture.objects.filter(season=season).count()
        try:
            fixtures = fixtures_generate(
                season=season,
                first_kickoff=kickoff,
                days_between_rounds=days_between_rounds,
                by=None,
            )
        except DomainError as refusal:
            raise CommandError(f"{season}: {refusal_sentence(refusal)}") from None
        rounds = len({fixture.round for fixture in fixtures})
        first = timezone.localtime(fixtures[0].starts_at)
        self.stdout.write(
            self.style.SUCCESS(
                f"{season}: generated {len(fixtures)} fixtures in {rounds} rounds, "
                f"round 1 on {first:%a %d %b %Y at %H:%M}."
            )
        )
        if replaced:
            self.stdout.write(f"Replaced {replaced} earlier fixtures that had no results.")
