"""One error model: a refusal raised anywhere below an API view reaches the client as the
status and JSON body its kind says, without the view mapping it (config/errors.py)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from config.errors import Conflict, Forbidden, Invalid, NotFound, page_refusal, refusal_sentence
from games.engines import IllegalMove


class TooEarly(Conflict):
    code = "too_early"


def answer_to(refusal: Exception):
    class RefusingApi(APIView):
        authentication_classes: list = []
        permission_classes: list = []

        def post(self, request):
            raise refusal

    return RefusingApi.as_view()(APIRequestFactory().post("/api/anything/"))


def test_a_field_refusal_is_400_naming_the_field():
    response = answer_to(Invalid(errors={"players": "Choose 2 to 10 players."}))
    assert response.status_code == 400
    assert response.data == {"players": ["Choose 2 to 10 players."]}


def test_a_conflict_is_409_with_what_the_client_needs_to_recover():
    response = answer_to(
        Conflict("That move answers turn 3; the table is at 4.", extra={"turn": 4})
    )
    assert response.status_code == 409
    assert response.data == {"detail": "That move answers turn 3; the table is at 4.", "turn": 4}


def test_a_refusal_with_a_code_carries_it():
    response = answer_to(TooEarly("Not before the fixture's day."))
    assert response.data == {"detail": "Not before the fixture's day.", "code": "too_early"}


@pytest.mark.parametrize(("refusal", "status"), [(Forbidden("No."), 403), (NotFound("No."), 404)])
def test_each_kind_answers_its_status(refusal, status):
    response = answer_to(refusal)
    assert (response.status_code, response.data) == (status, {"detail": "No."})


def test_an_engine_refusal_is_400_with_the_engines_sentence():
    response = answer_to(IllegalMove("the two of clubs is not in your hand"))
    assert (response.status_code, response.data) == (
        400,
        {"detail": "the two of clubs is not in your hand"},
    )


@pytest.mark.django_db
def test_a_missing_row_is_404_naming_the_thing():
    user_model = get_user_model()
    try:
        user_model.objects.get(pk=987654321)
    except user_model.DoesNotExist as missing:
        response = answer_to(missing)
    assert (response.status_code, response.data) == (404, {"detail": "No such user."})


def test_a_page_refusal_renders_with_the_refusals_status(tmp_path, settings):
    (tmp_path / "refused.html").write_text("{{ refusal.detail }}|{{ refusal.errors.turn.0 }}")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    request = RequestFactory().post("/tables/1/")
    refusal = Invalid(errors={"turn": "The turn is a whole number."})
    response = page_refusal(request, refusal, template="refused.html").render()
    assert response.status_code == 400
    assert (
        response.content.decode() == "turn: The turn is a whole number.|The turn is a whole number."
    )


def test_a_pages_message_tells_the_field_sentences_without_the_field_names():
    refusal = Invalid(errors={"players": "Choose 2 to 10 players.", "bots": ["Seat 0 is yours."]})
    assert refusal_sentence(refusal) == "Choose 2 to 10 players. Seat 0 is yours."
    assert refusal_sentence(Conflict("The game is over.")) == "The game is over."
