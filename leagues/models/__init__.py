"""Venues, players, teams of two, seasons and fixtures. Nothing here knows about scoring.

The models live by subject in this package's modules; every model is imported here, so that
Django finds them and `from leagues.models import Fixture` reads as before.
"""

from .cups import Cup, CupRound, CupTie
from .fixtures import Availability, Fixture, RescheduleProposal
from .people import Player, Profile, Team, TeamMember
from .seasons import (
    Division,
    Eligibility,
    Entry,
    Game,
    League,
    Reserve,
    Season,
    WithdrawalRule,
    default_tie_breakers,
)
from .venues import StaffMembership, Venue

__all__ = [
    "Availability",
    "Cup",
    "CupRound",
    "CupTie",
    "Division",
    "Eligibility",
    "Entry",
    "Fixture",
    "Game",
    "League",
    "Player",
    "Profile",
    "Reserve",
    "RescheduleProposal",
    "Season",
    "StaffMembership",
    "Team",
    "TeamMember",
    "Venue",
    "WithdrawalRule",
    "default_tie_breakers",
]
