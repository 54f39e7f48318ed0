"""The rows an entry page adds without the network (static/entry_offline_rows.js) come from a
<template> the server draws beside the grid: filled in, it is the very row the server draws
for "+ Add round" or a deal's button, with the field names the server reads."""

import re

import pytest

from leagues.models import Game
from scoring.models import ResultVersion
from tests.scoring.results.staff_sheets import (
    entry_url,
    korova_post,
    make_fixture,
    player_ids,
    staff_of,
)

pytestmark = pytest.mark.django_db


def template(html: str, template_id: str) -> str:
    found = re.search(rf'<template id="{template_id}"[^>]*>(.*?)</template>', html, re.S)
    assert found, template_id
    return found.group(1)


def filled(markup: str, **values) -> str:
    return re.sub(r"__(index|number|value)__", lambda m: str(values[m.group(1)]), markup)


def squeezed(markup: str) -> str:
    return re.sub(r"\s+", " ", markup.replace(" autofocus", "")).replace("> <", "><").strip()


def test_the_korova_round_template_is_the_round_the_server_adds(staff_client, korova):
    page = staff_client.get(entry_url(korova)).content.decode()
    offline = filled(template(page, "round-template"), index=1, number=2)

    added = staff_client.post(
        entry_url(korova), korova_post([[8, 3, 12, 6]], action="add_round")
    ).content.decode()
    drawn = re.search(r'<tr id="round-2">.*?</td></tr>', added, re.S).group(0)

    assert squeezed(offline) == squeezed(drawn)
    assert 'name="rounds.1.0"' in offline and 'aria-label="Round 2, Dot"' in offline


def test_a_sheet_with_rounds_added_from_the_template_is_saved_whole(staff_client, korova):
    page = staff_client.get(entry_url(korova)).content.decode()
    names = re.findall(r'name="(rounds\.[^"]+)"', template(page, "round-template"))
    data = korova_post([[20, 5, 10, 5]])
    for index in (1, 2, 3):
        data.update({filled(name, index=index): v for name, v in zip(names, [20, 5, 10, 5])})

    staff_client.post(entry_url(korova), data)

    saved = ResultVersion.objects.get(fixture=korova)
    assert saved.sheet == {"players": player_ids(korova), "rounds": [[20, 5, 10, 5]] * 4}


def test_the_conquian_deal_template_is_the_deal_the_server_adds(client):
    conquian = make_fixture(Game.CONQUIAN)
    client.force_login(staff_of(conquian))
    page = client.get(entry_url(conquian)).content.decode()
    assert 'id="single-0-undo-template"' in page  # no deal yet: "Remove last deal" comes with one
    offline = filled(template(page, "single-0-deal-template"), index=1, number=2, value=2)

    data = {"based_on_version": "0", "singles.0.deals.0": "draw", "action": "add:0:away"}
    added = client.post(entry_url(conquian), data).content.decode()
    drawn = re.search(r'<li>\s*<label for="cell-singles-0-deals-1">.*?</li>', added, re.S).group(0)

    assert 'name="singles.0.deals.1"' in offline and "Deal 2, worth 2" in offline
    # The same markup but for the choice, which the page sets (and drops "Choose…").
    unchosen = re.sub(r" selected(?=>)", "", drawn)
    choose = '<option value="" selected>Choose…</option>'
    assert squeezed(offline).replace(choose, "") == squeezed(unchosen)
