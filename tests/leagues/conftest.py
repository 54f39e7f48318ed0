"""Shared pytest fixtures: a staff member of a venue, and a league fixture played at that venue."""

import pytest

from tests.factories import FixtureFactory, StaffMembershipFactory, TeamFactory


@pytest.fixture
def venue_staff():
    return StaffMembershipFactory()


@pytest.fixture
def fixture_at_venue(venue_staff):
    home = TeamFactory(home_venue=venue_staff.venue)
    return FixtureFactory(home_team=home)
