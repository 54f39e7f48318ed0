"""Who may do what in the league: the one definition of each role, used by every service,
selector, page and API (docs/leagues.md, "Who is who").

- A **league admin** is an active user who is a superuser or holds both the *add fixture* and
  *delete fixture* permissions: they run the league (generate, void and move fixtures, set a
  season's rules, record a result before its day) and act for every venue.
- **Staff of a venue** (a StaffMembership) enter the results of that venue's fixtures.
- A season's rules may also be set by whoever may change seasons (*change season*).
- A **player of a fixture** is a user whose Player is one of the two players of its home or
  away team (TeamMember): they enter its result, which the other team's players confirm or
  dispute, and propose a new date, which the other team's players answer
  (docs/match-night.md). Their teams' **reserves** (Reserve on the season's Entry) may say
  whether they can play too.

`user` None means the command line, which is trusted where a service says so.
"""

from typing import TypeAlias

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy, gettext_noop

from .models import Entry, Fixture, Player, Reserve, StaffMembership, TeamMember

LEAGUE_ADMIN_PERMISSIONS = ("leagues.add_fixture", "leagues.delete_fixture")

# What a refusal says to someone who is not a league admin, or who does not serve the venue.
# Lazy: read in the language of the request that is refused, wherever they are raised.
NOT_LEAGUE_ADMIN = gettext_lazy("Only league admins can do this.")
NOT_VENUE_STAFF = gettext_lazy("You can only enter results for fixtures at a venue you serve.")
# (Marked for translation here, translated where they are raised.)
NOT_FIXTURE_PLAYER = gettext_noop("Only the players of the fixture's two teams can do this.")
NOT_FIXTURE_SQUAD = gettext_noop(
    "Only the players and reserves of the fixture's two teams can do this."
)

# Who a request or a service is acting for (request.user's type).
AnyUser: TypeAlias = AbstractBaseUser | AnonymousUser


def staff_grants(*, user: AnyUser) -> "QuerySet[StaffMembership]":
    """The venues `user` serves, as their StaffMembership rows (none for a visitor)."""
    if isinstance(user, AnonymousUser):
        return StaffMembership.objects.none()
    return StaffMembership.objects.filter(user_id=user.pk)


def _is_active(user) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def is_league_admin(*, user) -> bool:
    """An active superuser, or an active user holding both fixture permissions."""
    return _is_active(user) and (
        user.is_superuser or user.has_perms(list(LEAGUE_ADMIN_PERMISSIONS))
    )


def league_admins() -> "QuerySet[AbstractBaseUser]":
    """Every league admin (is_league_admin's users, as one query): the active superusers and
    the active users holding both fixture permissions, directly or through a group."""
    user_model = get_user_model()
    model_backend = "django.contrib.auth.backends.ModelBackend"  # where permissions live
    first, second = LEAGUE_ADMIN_PERMISSIONS
    holders = user_model.objects.with_perm(first, backend=model_backend).filter(
        pk__in=user_model.objects.with_perm(second, backend=model_backend).values("pk")
    )
    return user_model.objects.filter(is_active=True).filter(
        Q(is_superuser=True) | Q(pk__in=holders.values("pk"))
    )


def can_enter_results(*, user, venue_id: int) -> bool:
    """Staff of the venue, and league admins."""
    if not _is_active(user):
        return False
    if is_league_admin(user=user):
        return True
    return staff_grants(user=user).filter(venue_id=venue_id).exists()


def ensure_can_enter_results(*, user, venue_id: int) -> None:
    """Raise PermissionDenied unless `user` serves the venue (or is a league admin)."""
    if not can_enter_results(user=user, venue_id=venue_id):
        raise PermissionDenied(NOT_VENUE_STAFF)


def can_set_season_rules(*, user) -> bool:
    """League admins, and whoever may change seasons."""
    return is_league_admin(user=user) or (
        _is_active(user) and user.has_perm("leagues.change_season")
    )


def fixture_team_of(*, user, fixture: Fixture) -> int | None:
    """The id of the fixture's team that `user` plays for (a TeamMember of it), or None: a
    visitor, a user who is no player, a player of neither team. A player of both teams
    (allowed only by unusual eligibility) counts as the home team's: the side that answers
    for the result."""
    if not _is_active(user):
        return None
    teams = {fixture.home_team_id, fixture.away_team_id}
    mine = set(
        TeamMember.objects.filter(player__user_id=user.pk, team_id__in=teams).values_list(
            "team_id", flat=True
        )
    )
    return next(
        (team for team in (fixture.home_team_id, fixture.away_team_id) if team in mine), None
    )


def fixture_squad_player(*, user, fixture: Fixture) -> Player | None:
    """`user`'s Player when they play for one of the fixture's teams or are registered as a
    reserve of one in its season; None for anyone else."""
    if not _is_active(user):
        return None
    player = Player.objects.filter(user_id=user.pk).first()
    if player is None:
        return None
    teams = [fixture.home_team_id, fixture.away_team_id]
    if TeamMember.objects.filter(player=player, team_id__in=teams).exists():
        return player
    entries = Entry.objects.filter(season_id=fixture.season_id, team_id__in=teams)
    if Reserve.objects.filter(player=player, entry__in=entries).exists():
        return player
    return None
