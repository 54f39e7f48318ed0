"""The entry pages' service worker is served from /staff/ (so that its scope covers them), as
JavaScript, to anyone (an update check after the session ended must not get the login page)."""

from django.urls import reverse


def test_the_worker_is_javascript_under_staff_for_anyone_and_always_revalidated(client):
    response = client.get(reverse("entry-service-worker"))

    assert response.status_code == 200
    assert reverse("entry-service-worker") == "/staff/entry-sw.js"
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert 'addEventListener("fetch"' in body and "caches.open" in body


def test_the_worker_only_answers_gets(client):
    assert client.post(reverse("entry-service-worker")).status_code == 405
