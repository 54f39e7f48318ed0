"""The pages' side of the one error model (config/page_errors.py): a refusal or a missing row
that escapes a page's view is the 404, 403 or 400 page, and a form post's refusal comes back
as a message beside a redirect, with no view catching either by hand."""

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import path

from config.errors import Conflict, Forbidden, Invalid, NotFound
from config.page_errors import refusal_as_message
from leagues.models import League

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.config.test_page_errors")]


def raising(exc: Exception):
    def view(request):
        raise exc

    return view


def missing_league(request):
    League.objects.get(slug="nowhere")
    return HttpResponse("found")


def form_post(request, kind: str):
    refusal = {"invalid": Invalid("Pick a side."), "forbidden": Forbidden("Staff only.")}[kind]
    with refusal_as_message(request, kinds=(Invalid, Conflict)) as refused:
        raise refusal
    return redirect("/back/" if refused else "/done/")


urlpatterns = [
    path("missing/", missing_league),
    path("not-found/", raising(NotFound("No such screen."))),
    path("forbidden/", raising(Forbidden("Only staff of the venue."))),
    path("invalid/", raising(Invalid("That is not a date."))),
    path("conflict/", raising(Conflict("Too late."))),
    path("post/<str:kind>/", form_post),
]


@pytest.mark.parametrize(
    ("address", "status"),
    [("/missing/", 404), ("/not-found/", 404), ("/forbidden/", 403), ("/invalid/", 400)],
)
def test_what_escapes_a_page_is_the_error_page_of_its_kind(client, address, status):
    assert client.get(address).status_code == status


def test_a_conflict_is_not_the_pages_to_map(client):
    client.raise_request_exception = True
    with pytest.raises(Conflict):
        client.get("/conflict/")


def test_a_form_posts_refusal_comes_back_as_a_message_and_a_redirect(client):
    response = client.post("/post/invalid/")
    assert response.status_code == 302 and response["Location"] == "/back/"
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Pick a side."]


def test_a_refusal_of_a_kind_not_named_is_its_error_page_with_no_message(client):
    response = client.post("/post/forbidden/")
    assert response.status_code == 403
    assert list(get_messages(response.wsgi_request)) == []
