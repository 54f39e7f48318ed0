"""The conflict page (scoring.results.conflicts through the staff view): someone saved while this
sheet was open; the page merges by field, and saving it as shown never undoes their change."""

import re
from html.parser import HTMLParser

import pytest

from scoring.models import ResultVersion
from scoring.results.services import result_submit
from tests.scoring.results.staff_sheets import (
    FULL_GAME,
    entry_url,
    korova_post,
    make_fixture,
    player_ids,
    staff_of,
)

pytestmark = pytest.mark.django_db


class _SheetForm(HTMLParser):
    """The fields the browser would post from #sheet-form: its inputs and those that name it
    with form="sheet-form" (the conflict choices), checked radios only; not a <template>'s
    (a row for the page to add offline)."""

    def __init__(self):
        super().__init__()
        self.fields, self._depth, self._templates = {}, 0, 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._depth += attrs.get("id") == "sheet-form"
        self._templates += tag == "template"
        if (
            self._templates
            or tag != "input"
            or "name" not in attrs
            or attrs.get("name") == "action"
        ):
            return
        if not (self._depth or attrs.get("form") == "sheet-form"):
            return
        if attrs.get("type") in ("radio", "checkbox") and "checked" not in attrs:
            return
        self.fields[attrs["name"]] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "template" and self._templates:
            self._templates -= 1
        if tag == "form" and self._depth:
            self._depth -= 1


def form_as_shown(html: str, **changes) -> dict:
    parser = _SheetForm()
    parser.feed(html)
    return {**parser.fields, "action": "save", **changes}


@pytest.fixture
def korova():
    return make_fixture()


@pytest.fixture
def saved_twice(korova):
    """Version 1 is FULL_GAME; then someone else fixes round 2, Cy (10 → 12): version 2."""
    other = staff_of(korova)
    sheet = {"players": player_ids(korova), "rounds": [list(row) for row in FULL_GAME]}
    result_submit(fixture_id=korova.pk, sheet=sheet, based_on_version=0, by=other)
    sheet["rounds"][1][2] = 12
    result_submit(fixture_id=korova.pk, sheet=sheet, based_on_version=1, by=other)
    return other


def test_my_fix_is_added_to_theirs_and_saving_as_shown_keeps_both(client, korova, saved_twice):
    client.force_login(staff_of(korova))
    mine = [list(row) for row in FULL_GAME]
    mine[2][1] = 7  # I fix round 3, Bea (5 → 7), from version 1

    page = client.post(entry_url(korova), korova_post(mine, based_on=1))

    assert page.status_code == 409
    html = page.content.decode()
    assert 'id="conflict-clashes"' not in html  # nothing to choose
    assert "Round 3, Bea: 5 → <strong>7</strong>" in html.split('id="conflict-applied"')[1]
    assert "Round 2, Cy: 10 → <strong>12</strong>" in html.split('id="conflict-theirs"')[1]
    saved = client.post(entry_url(korova), form_as_shown(html))
    assert saved.status_code == 302
    version = ResultVersion.objects.get(is_current=True)
    assert version.number == 3
    assert version.sheet["rounds"][1][2] == 12  # their fix stays
    assert version.sheet["rounds"][2][1] == 7  # mine is in


def test_a_field_we_both_changed_is_a_choice_and_saving_without_one_keeps_theirs(
    client, korova, saved_twice
):
    client.force_login(staff_of(korova))
    mine = [list(row) for row in FULL_GAME]
    mine[1][2] = 11  # I "fix" round 2, Cy too, differently
    mine[3][0] = 21

    html = client.post(entry_url(korova), korova_post(mine, based_on=1)).content.decode()

    clashes = html.split('id="conflict-clashes"')[1].split("</fieldset>")[0]
    assert "Round 2, Cy" in clashes
    assert (
        "Keep saved: <strong>12</strong>" in clashes and "Use yours: <strong>11</strong>" in clashes
    )
    assert re.search(r'name="clash\.rounds\.1\.2" value="saved" checked', clashes)
    assert re.search(r'name="rounds\.1\.2"[^>]*value="12"', html)
    client.post(entry_url(korova), form_as_shown(html))
    version = ResultVersion.objects.get(is_current=True)
    assert (version.number, version.sheet["rounds"][1][2], version.sheet["rounds"][3][0]) == (
        3,
        12,
        21,
    )


def test_choosing_mine_for_a_clash_saves_mine(client, korova, saved_twice):
    client.force_login(staff_of(korova))
    mine = [list(row) for row in FULL_GAME]
    mine[1][2] = 11

    html = client.post(entry_url(korova), korova_post(mine, based_on=1)).content.decode()
    client.post(entry_url(korova), form_as_shown(html, **{"clash.rounds.1.2": "mine"}))

    assert ResultVersion.objects.get(is_current=True).sheet["rounds"][1][2] == 11


def test_what_i_type_after_choosing_wins_over_the_choice(client, korova, saved_twice):
    client.force_login(staff_of(korova))
    mine = [list(row) for row in FULL_GAME]
    mine[1][2] = 11

    html = client.post(entry_url(korova), korova_post(mine, based_on=1)).content.decode()
    typed = form_as_shown(html, **{"clash.rounds.1.2": "mine", "rounds.1.2": "13"})
    client.post(entry_url(korova), typed)

    assert ResultVersion.objects.get(is_current=True).sheet["rounds"][1][2] == 13


def test_removing_a_round_they_changed_is_one_choice_for_the_whole_round(client, korova):
    other = staff_of(korova)
    five = [list(row) for row in FULL_GAME[:3]] + [[2, 8, 8, 8], [20, 5, 10, 5]]
    sheet = {"players": player_ids(korova), "rounds": five}
    result_submit(fixture_id=korova.pk, sheet=sheet, based_on_version=0, by=other)
    fixed = [list(row) for row in five]
    fixed[4] = [20, 5, 9, 6]
    result_submit(
        fixture_id=korova.pk, sheet={**sheet, "rounds": fixed}, based_on_version=1, by=other
    )
    client.force_login(staff_of(korova))
    mine = five[:4]  # I remove round 5 instead

    html = client.post(entry_url(korova), korova_post(mine, based_on=1)).content.decode()

    clashes = html.split('id="conflict-clashes"')[1].split("</fieldset>")[0]
    assert "Round 5</p>" in clashes and "removed / blank" in clashes
    client.post(entry_url(korova), form_as_shown(html))
    assert ResultVersion.objects.get(is_current=True).sheet["rounds"][4] == [20, 5, 9, 6]


@pytest.mark.parametrize(
    "mine_json, status, cy",
    [
        ("{not json", 302, 10),  # unreadable: no choice, the field as posted
        ("9" * 3000, 302, 10),  # too long to read
        ('{"a": 1}', 400, 12),  # a shape no field has: the cell goes blank, nothing saved
    ],
)
def test_a_tampered_choice_never_breaks_the_page(
    client, korova, saved_twice, mine_json, status, cy
):
    client.force_login(staff_of(korova))
    post = korova_post(FULL_GAME, based_on=2)
    post.update({"clash.rounds.1.2": "mine", "clash-mine.rounds.1.2": mine_json})
    post["clash-saved.rounds.1.2"] = "10"

    response = client.post(entry_url(korova), post)

    assert response.status_code == status
    assert ResultVersion.objects.get(is_current=True).sheet["rounds"][1][2] == cy
