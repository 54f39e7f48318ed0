"""Load the demo league used by `make run`; running it again changes nothing.

Two venues, eight teams of two, one season per game, fixtures for a double
round robin, and the first half of the rounds played. The sheets are realistic
because they come from random games played by the engines themselves (each game's demo:
scoring.demo). Each venue always has a fixture tonight without a
result, so that staff entry and a fixture's live tables (both open on the fixture's day)
can be tried on the first evening, whatever day the demo is loaded again.
"""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from leagues.models import (
    Fixture,
    League,
    Player,
    Season,
    StaffMembership,
    Team,
    TeamMember,
    Venue,
)
from leagues.selectors import team_player_ids
from leagues.services import fixture_status_change, fixtures_generate
from scoring.demo import DEMO_GAMES, schedule
from scoring.demo import divisions as divisions_demo
from scoring.demo.cups import demo_cup_load
from scoring.demo.match_night import match_night_demo
from scoring.demo.squads import load_squads_demo
from scoring.kinds import all_kinds
from scoring.models import VenueScreen
from scoring.publishing.services import venue_screen_issue
from scoring.results.services import result_submit

ADMIN_LOGIN = ("admin", "roundel-admin")
VENUES = {
    "the-crown-and-anchor": ("The Crown & Anchor", "12 Quay Street", ("crown", "crown-staff-pass")),
    "the-red-lion": ("The Red Lion", "3 Market Square", ("lion", "lion-staff-pass")),
}
TEAMS = [
    ("Roundheads", "the-crown-and-anchor", "Ada Finch", "Bo Marsh"),
    ("Full Convoy", "the-crown-and-anchor", "Cal Reyes", "Dee Okafor"),
    ("Sixth Cow", "the-crown-and-anchor", "Eli Novak", "Fay Lund"),
    ("Open Card", "the-crown-and-anchor", "Gus Hale", "Hana Sato"),
    ("Dead Pile", "the-red-lion", "Ivo Petrov", "Jo Banks"),
    ("Two-Eyed Jacks", "the-red-lion", "Kit Moore", "Lev Ortiz"),
    ("Last Orders", "the-red-lion", "Mia Costa", "Ned Quinn"),
    ("Penalty Heads", "the-red-lion", "Oona Pike", "Pat Silva"),
]
WEEKS_PLAYED = 7  # of the 14 rounds eight teams play
KICK_OFF = datetime.time(20, 0)  # local time (TIME_ZONE, Europe/London by default)


def slugify_name(name: str) -> str:
    return name.lower().replace(" ", "-").replace("'", "")


class Command(BaseCommand):
    help = (
        "Load the demo league (idempotent) and print the demo logins. It creates users with "
        "published passwords, so it runs only with DEBUG=1 unless --force is given."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load it with DEBUG off too (a demo server): the demo passwords are public.",
        )
        parser.add_argument(
            "--site-url",
            default="http://127.0.0.1:8000",
            help="The address the site is served at, for the login link it prints "
            "(default http://127.0.0.1:8000; make run passes its PORT).",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "DEBUG is off: the demo creates an admin and staff with published passwords. "
                "Use --force if this really is a demo server."
            )
        with transaction.atomic():
            admin = self.ensure_admin()
            staff = self.ensure_venues_and_staff()
            teams = self.ensure_teams()
            self.ensure_player_logins()
            seasons = self.ensure_seasons(teams)
            divisions_demo.divisions_demo_ensure(seasons=seasons, by=admin)
        load_squads_demo(
            seasons=seasons, admin=admin, stdout=self.stdout, site_url=options["site_url"]
        )
        for season in seasons:
            self.play_first_half(season, staff, admin)
        tonight = [
            self.ensure_fixture_tonight(venue, admin) for venue in Venue.objects.order_by("name")
        ]
        self.print_logins(site_url=options["site_url"])
        self.print_tonight(tonight, site_url=options["site_url"])
        self.print_screens(site_url=options["site_url"])
        self.stdout.write(divisions_demo.divisions_demo_where(site_url=options["site_url"]))
        self.stdout.write(demo_cup_load(admin=admin, site_url=options["site_url"]))
        self.stdout.write(schedule.load(site_url=options["site_url"]))
        match_night_demo(
            stdout=self.stdout, site_url=options["site_url"], login_of=player_login, tonight=tonight
        )

    def ensure_admin(self):
        username, password = ADMIN_LOGIN
        user_model = get_user_model()
        admin = user_model.objects.filter(username=username).first()
        return admin or user_model.objects.create_superuser(username, "admin@example.com", password)

    def ensure_venues_and_staff(self):
        staff = {}
        user_model = get_user_model()
        for slug, (name, address, (username, password)) in VENUES.items():
            venue, _ = Venue.objects.get_or_create(
                slug=slug, defaults={"name": name, "address": address}
            )
            user = user_model.objects.filter(username=username).first()
            if user is None:
                user = user_model.objects.create_user(username, password=password)
            StaffMembership.objects.get_or_create(user=user, venue=venue)
            staff[venue.pk] = user
        return staff

    def ensure_teams(self):
        teams = []
        for name, venue_slug, *player_names in TEAMS:
            team, created = Team.objects.get_or_create(
                slug=slugify_name(name),
                defaults={"name": name, "home_venue": Venue.objects.get(slug=venue_slug)},
            )
            if created:
                for position, player_name in enumerate(player_names, 1):
                    player, _ = Player.objects.get_or_create(
                        slug=slugify_name(player_name), defaults={"name": player_name}
                    )
                    TeamMember.objects.create(team=team, player=player, position=position)
            teams.append(team)
        return teams

    def ensure_player_logins(self):
        """Every demo player can log in (to play at a live table): `ada-finch` / `ada-finch-plays`."""
        user_model = get_user_model()
        for player in Player.objects.filter(slug__in=PLAYER_SLUGS, user__isnull=True):
            username, password = player_login(player.name)
            user = user_model.objects.filter(username=username).first()
            if user is None:
                first, _, last = player.name.partition(" ")
                user = user_model.objects.create_user(
                    username, password=password, first_name=first, last_name=last
                )
            player.user = user
            player.save(update_fields=["user"])

    def ensure_seasons(self, teams):
        seasons = []
        today = timezone.localdate()
        starts_on = today - datetime.timedelta(weeks=WEEKS_PLAYED)  # so round 8 is tonight
        for kind in all_kinds():
            game, slug = kind.game, f"{kind.game}-pub-league"
            name, rule_options, fixture_format = DEMO_GAMES.get(game).league
            league, _ = League.objects.get_or_create(
                slug=slug, defaults={"name": name, "game": game}
            )
            season, created = Season.objects.get_or_create(
                league=league,
                slug="autumn",
                defaults={
                    "name": "Autumn",
                    "starts_on": starts_on,
                    "rule_options": rule_options,
                    "fixture_format": fixture_format,
                },
            )
            if created:
                season.entries.bulk_create(
                    [season.entries.model(season=season, team=team) for team in teams]
                )
                first_kickoff = timezone.make_aware(datetime.datetime.combine(starts_on, KICK_OFF))
                fixtures_generate(season=season, first_kickoff=first_kickoff)
            seasons.append(season)
        return seasons

    def play_first_half(self, season, staff, admin):
        fixtures = season.fixtures.filter(
            stage=Fixture.Stage.LEAGUE, round__lte=WEEKS_PLAYED, result_versions__isnull=True
        )
        for fixture in fixtures.select_related("home_team", "away_team").order_by("round", "pk"):
            players = team_player_ids(team_ids=[fixture.home_team_id, fixture.away_team_id])
            sheet = DEMO_GAMES.get(season.game).sheet(
                home_player_ids=players[fixture.home_team_id],
                away_player_ids=players[fixture.away_team_id],
                rule_options=season.rule_options,
                fixture_format=season.fixture_format,
                seed=fixture.pk,
            )
            result_submit(
                fixture_id=fixture.pk,
                sheet=sheet,
                based_on_version=0,
                by=staff.get(fixture.venue_id, admin),
            )

    def ensure_fixture_tonight(self, venue, admin) -> Fixture | None:
        """A fixture at `venue` tonight without a result: the first one to play there from
        today on (the latest unplayed one once the seasons are over) is moved to tonight if
        none is on today already; None if the venue has no unplayed fixture at all."""
        today = timezone.localdate()
        unplayed = Fixture.objects.filter(
            venue=venue, status=Fixture.Status.SCHEDULED, result_versions__isnull=True
        ).select_related("home_team", "away_team", "season__league")
        start_of_today = timezone.make_aware(datetime.datetime.combine(today, datetime.time()))
        upcoming = unplayed.filter(starts_at__gte=start_of_today).order_by("starts_at", "pk")
        fixture = upcoming.first() or unplayed.order_by("-starts_at", "-pk").first()
        if fixture is None or timezone.localdate(fixture.starts_at) == today:
            return fixture
        return fixture_status_change(
            fixture_id=fixture.pk,
            status=Fixture.Status.SCHEDULED,
            starts_at=timezone.make_aware(datetime.datetime.combine(today, KICK_OFF)),
            by=admin,
        )

    def print_tonight(self, fixtures, *, site_url: str):
        """Where a newcomer tries the fixture day: staff entry and the fixture's live tables."""
        self.stdout.write("Fixtures tonight (staff enter results, players play their live tables):")
        for fixture in filter(None, fixtures):
            page = site_url.rstrip("/") + reverse("fixture-detail", args=[fixture.pk])
            self.stdout.write(
                f"  {fixture.venue.name}: {fixture.home_team.name} v {fixture.away_team.name} "
                f"({fixture.season.league.name}) {page}"
            )

    def print_logins(self, *, site_url: str):
        admin_name, admin_password = ADMIN_LOGIN
        self.stdout.write(f"Demo logins ({site_url.rstrip('/')}/accounts/login/):")
        self.stdout.write(f"  league admin: {admin_name} / {admin_password}  (/admin/)")
        for name, _, (username, password) in VENUES.values():
            self.stdout.write(f"  staff of {name}: {username} / {password}  (/staff/)")
        for _, _, *player_names in TEAMS:
            for name in player_names:
                username, password = player_login(name)
                self.stdout.write(f"  {name}: {username} / {password}")

    def print_screens(self, *, site_url: str):
        """The pubs' TV screen addresses (docs/calendars-print-tv.md), issued once."""
        self.stdout.write("Pub TV screens:")
        for slug, (name, _, _) in VENUES.items():
            venue = Venue.objects.get(slug=slug)
            screen = VenueScreen.objects.filter(venue=venue).first()
            screen = screen or venue_screen_issue(venue_id=venue.pk)
            path = reverse("tv-screen", args=[slug, screen.token])
            self.stdout.write(f"  {name}: {site_url.rstrip('/')}{path}")


def player_login(name: str) -> tuple[str, str]:
    """A demo player's username and password."""
    return slugify_name(name), f"{slugify_name(name)}-plays"


PLAYER_SLUGS = [slugify_name(name) for _, _, *names in TEAMS for name in names]
