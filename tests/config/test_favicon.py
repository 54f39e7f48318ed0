"""/favicon.ico is served (whitenoise, WHITENOISE_ROOT) and every page links its icon."""

import pytest
from django.urls import reverse


def test_the_favicon_is_served_at_the_root(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 200
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file


@pytest.mark.django_db
def test_pages_link_their_icon(client):
    html = client.get(reverse("home")).content.decode()

    assert '<link rel="icon" href="/static/root/favicon.ico"' in html
