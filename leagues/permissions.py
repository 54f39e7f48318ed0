"""Who may do what in the league: the one definition of each role, used by every service,
selector, page and API (docs/leagues.md, "Who is who").

- A **league admin** is an active user who is a superuser or holds both the *add fixture* and
  *delete fixture* permissions: they run the league (generate, void and move fixtures, set a
  season's rules, record a result before its day) and act for every venue.
- **Staff of a venue** (a StaffMembership) enter the results of that venue's fixtures.
- A **player of a fixture** is a player (with a login) of one of its two teams (TeamMember):
  they enter its result, which the other team's players confirm or dispute (docs/match-night.md).
- A season's rules may also be set by whoever may change seasons (*change season*).

`user` None means the command line, which is trusted where a service says so.
"""

from typing import TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet

from .models import StaffMembership, TeamMember

LEAGUE_ADMIN_PERMISSIONS = ("leagues.add_fixture", "leagues.delete_fixture")

# What a refusal says to someone who is not a league admin, or who does not serve the venue.
NOT_LEAGUE_ADMIN = "Only league admins can do this."
NOT_VENUE_STAFF = "You can only enter results for fixtures at a venue you serve."

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


def fixture_team_of(*, user, home_team_id: int, away_team_id: int) -> int | None:
    """The team of the fixture that `user` plays for (a TeamMember of it), or None: a visitor,
    a user who is no player, a player of neither team. A player of both teams (allowed only by
    unusual eligibility) counts as the home team's: the side that answers for the result."""
    if not _is_active(user):
        return None
    team_ids = set(
        TeamMember.objects.filter(
            player__user_id=user.pk, team_id__in=[home_team_id, away_team_id]
        ).values_list("team_id", flat=True)
    )
    for team_id in (home_team_id, away_team_id):
        if team_id in team_ids:
            return team_id
    return None
