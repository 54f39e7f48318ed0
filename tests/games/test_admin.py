"""Live tables in the admin: listed and shown, never editable by hand, no hands shown."""

import pytest

from games import services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_an_admin_sees_a_table_but_not_its_state_and_cannot_change_it(client):
    admin = UserFactory(is_staff=True, is_superuser=True)
    table = services.table_create(game="korova", players=2, options={}, bots=[1], by=admin)
    client.force_login(admin)
    assert client.get("/admin/games/table/").status_code == 200
    page = client.get(f"/admin/games/table/{table.pk}/change/")
    assert page.status_code == 200
    assert str(table.seed) not in page.content.decode()
    assert "hands" not in page.content.decode()
    assert client.post(f"/admin/games/table/{table.pk}/change/", {}).status_code == 403
    assert client.get("/admin/games/table/add/").status_code == 403
