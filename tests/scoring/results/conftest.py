"""A Корова fixture and a client logged in as staff of its venue, for the staff-page tests."""

import pytest

from tests.scoring.results.staff_sheets import make_fixture, staff_of


@pytest.fixture
def korova():
    return make_fixture()


@pytest.fixture
def staff_client(client, korova):
    client.force_login(staff_of(korova))
    return client
