"""The submission key: a sheet sent twice (an offline phone sending its kept sheet again, a
double tap, an API client's retry) is saved once, and the repeat is answered as the first was.
The service, the entry page and the API; the race itself is tests/concurrency/
test_replayed_submission.py."""

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from config.errors import Invalid
from leagues.models import Fixture
from scoring.models import ResultVersion
from scoring.results.services import ResultConflict, result_submit
from tests.factories import UserFactory
from tests.scoring.results.staff_sheets import (
    FULL_GAME,
    entry_url,
    korova_post,
    make_fixture,
    player_ids,
    staff_of,
)

pytestmark = pytest.mark.django_db

KEY = "3f2b8c0e9d6a4b1c8e7f6a5b4c3d2e1f"
OTHER_ROUNDS = [[5, 5, 20, 10]] * 4  # the home team wins


def _submit(fixture, by, *, rounds=FULL_GAME, based_on=0, key=KEY):
    return result_submit(
        fixture_id=fixture.pk,
        sheet={"players": player_ids(fixture), "rounds": rounds},
        based_on_version=based_on,
        by=by,
        submission_key=key,
    )


# --- the service ---------------------------------------------------------------------------


def test_a_submission_sent_again_returns_the_version_it_wrote_and_writes_nothing(korova):
    staff = staff_of(korova)
    first = _submit(korova, staff)
    history = Fixture.history.count()

    again = _submit(korova, staff)

    assert again.pk == first.pk and again.number == 1
    assert ResultVersion.objects.filter(fixture=korova).count() == 1
    assert Fixture.history.count() == history
    assert first.submission_key == KEY


def test_a_repeat_is_not_held_to_the_version_check_it_passed_the_first_time(korova):
    staff = staff_of(korova)
    first = _submit(korova, staff)
    _submit(korova, staff, rounds=OTHER_ROUNDS, based_on=1, key="a-later-correction")

    again = _submit(korova, staff)  # still based on 0: without the key, a conflict

    assert again.pk == first.pk
    assert ResultVersion.objects.filter(fixture=korova).count() == 2
    with pytest.raises(ResultConflict):
        _submit(korova, staff, key="")


def test_the_same_key_at_another_fixture_is_another_submission(korova):
    other = make_fixture()
    _submit(korova, staff_of(korova))

    version = _submit(other, staff_of(other))

    assert version.fixture_id == other.pk and version.number == 1


def test_submissions_without_a_key_are_each_new(korova):
    staff = staff_of(korova)
    _submit(korova, staff, key="")
    _submit(korova, staff, based_on=1, key="")
    assert ResultVersion.objects.filter(fixture=korova).count() == 2


def test_who_may_not_enter_the_result_is_refused_even_with_a_saved_key(korova):
    _submit(korova, staff_of(korova))
    with pytest.raises(PermissionDenied):
        _submit(korova, UserFactory())


@pytest.mark.parametrize("key", ["has space", "x" * 65, "tab\there", "ключ"])
def test_an_unusable_key_is_refused_naming_it(korova, key):
    with pytest.raises(Invalid) as refused:
        _submit(korova, staff_of(korova), key=key)
    assert "submission_key" in refused.value.errors
    assert not ResultVersion.objects.exists()


def test_the_database_refuses_a_second_version_with_the_same_key(korova):
    """The constraint behind the lock: a writer that went around result_submit."""
    first = _submit(korova, staff_of(korova))
    with pytest.raises(IntegrityError), transaction.atomic():
        ResultVersion.objects.create(
            fixture=korova,
            number=2,
            sheet=first.sheet,
            home_score=0,
            away_score=0,
            winner="draw",
            is_current=False,
            submission_key=KEY,
        )


# --- the entry page --------------------------------------------------------------------------


def test_the_form_carries_a_fresh_key_each_time_it_is_drawn(staff_client, korova):
    keys = [
        re.search(r'name="submission_key" value="([^"]+)"', page.content.decode())[1]
        for page in (staff_client.get(entry_url(korova)), staff_client.get(entry_url(korova)))
    ]
    assert keys[0] != keys[1]
    assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key in keys)


def test_a_form_posted_twice_saves_once_and_answers_the_same_both_times(staff_client, korova):
    form = korova_post(FULL_GAME, submission_key=KEY)

    first = staff_client.post(entry_url(korova), form)
    again = staff_client.post(entry_url(korova), form, follow=True)

    assert first.status_code == 302
    assert again.redirect_chain[0] == (first["Location"], 302)
    assert "Result saved" in again.content.decode()
    assert ResultVersion.objects.filter(fixture=korova).count() == 1


def test_a_stale_form_with_a_new_key_still_gets_the_conflict_page(staff_client, korova):
    _submit(korova, staff_of(korova))
    response = staff_client.post(
        entry_url(korova), korova_post(OTHER_ROUNDS, submission_key="another-sheet")
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Not saved: the result changed" in html
    # The page names the key it answered, so that a sheet kept on the phone lets go.
    assert 'data-answered-key="another-sheet"' in html
    assert ResultVersion.objects.filter(fixture=korova).count() == 1


def test_a_damaged_key_is_refused_on_top_of_the_form(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, submission_key="a b"))
    assert response.status_code == 400
    assert "submission marker is damaged" in response.content.decode()
    assert not ResultVersion.objects.exists()


def test_a_form_without_a_key_still_saves(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME))
    assert response.status_code == 302
    assert ResultVersion.objects.get(fixture=korova).submission_key == ""


# --- the API ---------------------------------------------------------------------------------


def _api(korova):
    client = APIClient()
    client.force_login(staff_of(korova))
    return client


def _api_post(client, korova, *, key, rounds=FULL_GAME, based_on=0):
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(
        f"/api/fixtures/{korova.pk}/result/",
        {"sheet": {"players": player_ids(korova), "rounds": rounds}, "based_on_version": based_on},
        format="json",
        headers=headers,
    )


def test_the_api_answers_a_repeated_key_as_it_answered_the_first_time(korova):
    client = _api(korova)
    first = _api_post(client, korova, key=KEY)
    again = _api_post(client, korova, key=KEY)

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert ResultVersion.objects.filter(fixture=korova).count() == 1


def test_the_api_without_a_key_sees_the_repeat_as_stale(korova):
    client = _api(korova)
    assert _api_post(client, korova, key=None).status_code == 201
    assert _api_post(client, korova, key=None).status_code == 409


def test_the_api_refuses_an_unusable_key_naming_the_header(korova):
    response = _api_post(_api(korova), korova, key="x" * 65)
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()
    assert not ResultVersion.objects.exists()


def test_the_api_refuses_who_may_not_submit_before_looking_at_the_key(korova):
    _api_post(_api(korova), korova, key=KEY)
    outsider = APIClient()
    outsider.force_login(UserFactory())
    assert _api_post(outsider, korova, key=KEY).status_code == 403


def test_the_schema_offers_the_idempotency_key_header_on_submission():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    submit = schema["paths"]["/api/fixtures/{id}/result/"]["post"]
    (header,) = [p for p in submit["parameters"] if p["in"] == "header"]
    assert header["name"] == "Idempotency-Key" and not header.get("required", False)
    assert header["schema"]["pattern"] == "^[!-~]{1,64}$"
    assert "saved once" in submit["description"]
