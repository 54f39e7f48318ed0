"""The API answers a refused move in the requester's language (Accept-Language): the
engine's sentence translated, the body's shape and the move's field names unchanged."""

import pytest

from tests.factories import UserFactory
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    ada = UserFactory(username="seat0", first_name="Ada")
    client = client_for(ada)
    body = {"game": "korova", "players": 4, "bots": [1, 2, 3]}
    response = client.post("/api/tables/", body, format="json")
    assert response.status_code == 201
    return client, response.json()


@pytest.mark.parametrize(
    "language, detail",
    [
        ("ru", "карта — это целое число от 1 до 104, а не '55'"),
        ("fi", "kortti on kokonaisluku 1–104, ei '55'"),
        ("en-GB", "a card is a whole number from 1 to 104, not '55'"),
        (None, "a card is a whole number from 1 to 104, not '55'"),
    ],
)
def test_a_refused_move_is_explained_in_the_requesters_language(table, language, detail):
    client, seen = table
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = client.post(
        f"/api/tables/{seen['id']}/moves/",
        {"turn": 1, "move": {"card": "55"}},
        format="json",
        **headers,
    )
    assert response.status_code == 400
    assert response.json() == {"detail": detail}


@pytest.mark.parametrize(
    "language, words", [("ru", "у вас на руке нет"), ("fi", "ei ole kädessäsi")]
)
def test_a_card_not_in_hand_is_refused_in_russian_and_finnish(table, language, words):
    client, seen = table
    missing = next(n for n in range(1, 105) if n not in seen["view"]["hand"])
    response = client.post(
        f"/api/tables/{seen['id']}/moves/",
        {"turn": 1, "move": {"card": missing}},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith(str(missing)) and words in detail


def test_a_missing_move_names_the_field_in_english_whatever_the_language(table):
    client, seen = table
    response = client.post(
        f"/api/tables/{seen['id']}/moves/", {"turn": 1}, format="json", HTTP_ACCEPT_LANGUAGE="fi"
    )
    assert response.status_code == 400
    assert response.json()["detail"].startswith('siirto puuttuu: lähetä se kentässä "move"')
