"""Who is a league admin (leagues/permissions.py): the predicate for one user and the query for
all of them say the same, so a notice to "the league admins" reaches exactly those a page lets
act as one."""

import pytest
from django.contrib.auth.models import Group, Permission

from leagues.permissions import is_league_admin, league_admins
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def fixture_permissions(*codenames: str) -> list[Permission]:
    return list(
        Permission.objects.filter(content_type__app_label="leagues", codename__in=codenames)
    )


def test_the_league_admins_are_the_users_the_predicate_names_and_no_others():
    users = {
        "superuser": UserFactory(is_superuser=True),
        "closed superuser": UserFactory(is_superuser=True, is_active=False),
        "both permissions": UserFactory(),
        "one permission": UserFactory(),
        "closed holder": UserFactory(is_active=False),
        "group holder": UserFactory(),
        "nobody": UserFactory(),
    }
    both = fixture_permissions("add_fixture", "delete_fixture")
    users["both permissions"].user_permissions.set(both)
    users["closed holder"].user_permissions.set(both)
    users["one permission"].user_permissions.set(fixture_permissions("add_fixture"))
    group = Group.objects.create(name="Fixtures")
    group.permissions.set(both)
    users["group holder"].groups.add(group)

    admins = {user.pk for user in league_admins()}
    expected = {"superuser", "both permissions", "group holder"}
    assert {name for name, user in users.items() if user.pk in admins} == expected
    assert {name for name, user in users.items() if is_league_admin(user=user)} == expected
