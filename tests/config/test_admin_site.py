"""Admin addresses take ids of ASCII digits only: a bad id in a history view is a 404 (it was a
500), and an Arabic-Indic digit no longer opens the object with that number."""

from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import models

from config.admin_site import WholeNumberIdsAdminMixin
from tests.api.conftest import build_world

pytestmark = pytest.mark.django_db

MODELS = ["fixture", "team", "player", "venue", "season"]
ARABIC_INDIC_THREE = "%D9%A3"


@pytest.fixture
def admin_client(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    world = build_world()
    client.force_login(world.admin)
    return client


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("bad", ["abc", "1.5", ARABIC_INDIC_THREE, "1e3", "99999999999999999999"])
def test_a_history_view_with_a_bad_id_is_404(admin_client, model, bad):
    assert admin_client.get(f"/admin/leagues/{model}/{bad}/history/").status_code == 404


def arabic_indic(number: int) -> str:
    """3 → "٣" (U+0663), URL-quoted: the digits int() reads as well as ASCII ones."""
    return quote("".join(chr(0x0660 + int(digit)) for digit in str(number)))


@pytest.mark.parametrize("model", MODELS)
def test_an_arabic_indic_digit_id_opens_nothing(admin_client, model):
    pk = apps.get_model("leagues", model).objects.order_by("pk").values_list("pk", flat=True)[0]
    assert admin_client.get(f"/admin/leagues/{model}/{pk}/history/").status_code == 200
    for view in ["change/", "delete/"]:
        response = admin_client.get(f"/admin/leagues/{model}/{arabic_indic(pk)}/{view}")
        assert response.status_code == 302, view
        assert response["Location"] == "/admin/"


def test_the_ids_rule_covers_every_model_admin_on_the_site():
    integer_keyed = [
        model
        for model in admin.site._registry
        if isinstance(model._meta.pk, models.IntegerField | models.AutoField)
    ]
    assert len(integer_keyed) >= 8
    for model in integer_keyed:
        assert isinstance(admin.site._registry[model], WholeNumberIdsAdminMixin), model
