"""Django admin for the league: venues and their staff, players, teams, leagues, fixtures.

Seasons are registered by scoring (scoring/season_admin.py): their rules are scoring's.
Every write with a rule goes through leagues.services; the forms only show its refusals next
to the field. Who sees what: leagues/admin/access.py.
"""

from . import fixtures, league, teams, venues
from .access import HistoryAdmin, LeagueAdminsOnly, VenueScopedAdminMixin, served_venue_ids

__all__ = [
    "HistoryAdmin",
    "LeagueAdminsOnly",
    "VenueScopedAdminMixin",
    "fixtures",
    "league",
    "served_venue_ids",
    "teams",
    "venues",
]
