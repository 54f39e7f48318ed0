"""A member of staff enters a Корова sheet on a phone in Russian, and in Finnish: the labels,
buttons, the running status and the success message speak the staff's language, and the page
says which (<html lang>). Screenshots are kept (tests/browser/play.py, keep_screenshot)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import ResultVersion
from tests.browser.play import check_no_sideways_scroll, keep_screenshot, phone_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Penalty heads per round: Ann, Bea (home), Cy, Dot (away). Ann reaches 66 in round 5.
ROUNDS = [
    [8, 3, 12, 6],
    [15, 7, 2, 9],
    [11, 14, 5, 3],
    [22, 6, 10, 4],
    [13, 9, 4, 7],
]

WORDS = {
    "ru": {
        "staff_heading": "Результаты для ввода",
        "round": "Тур {number}, {player}",
        "add_round": "+ Добавить тур",
        "game_on": "никто ещё не набрал 66",
        "game_over": "Игра окончена в туре 5: 66 набрано (Ann).",
        "outcome": "Night Owls побеждают: меньше штрафных очков (62 : 108)",
        "save": "Сохранить результат",
        "saved": "Результат сохранён: Red Lions — Night Owls.",
    },
    "fi": {
        "staff_heading": "Syötettävät tulokset",
        "round": "Kierros {number}, {player}",
        "add_round": "+ Lisää kierros",
        "game_on": "kukaan ei ole vielä saavuttanut 66",
        "game_over": "Peli päättyi kierroksella 5: 66 saavutettu (Ann).",
        "outcome": "Night Owls voittaa vähemmillä häränpäillä (62–108)",
        "save": "Tallenna tulos",
        "saved": "Tulos tallennettu: Red Lions – Night Owls.",
    },
}


@pytest.mark.parametrize("language", ["ru", "fi"])
def test_staff_enter_a_korova_sheet_in_their_language(
    chromium, live_server, cow_league_fixture, language
):
    season, fixture, staff = cow_league_fixture
    words = WORDS[language]
    context, page = phone_for(chromium, live_server, staff)
    try:
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        page.goto(live_server.url + reverse("staff-home"))
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.get_by_role("heading", level=1)).to_have_text(words["staff_heading"])
        page.locator(".staff-fixtures a").filter(has_text="Red Lions").first.tap()
        expect(page.get_by_role("heading", level=1)).to_contain_text("Red Lions")
        expect(page.locator("html")).to_have_attribute("lang", language)
        check_no_sideways_scroll(page)

        for index, heads in enumerate(ROUNDS):
            number = index + 1
            for seat, player in enumerate(["Ann", "Bea", "Cy", "Dot"]):
                label = words["round"].format(number=number, player=player)
                page.get_by_label(label, exact=True).fill(str(heads[seat]))
            if number < len(ROUNDS):
                expect(page.locator("#game-status")).to_contain_text(words["game_on"])
                add = page.locator("#add-round")
                expect(add).to_have_text(words["add_round"])
                add.tap()
                next_label = words["round"].format(number=number + 1, player="Ann")
                expect(page.get_by_label(next_label, exact=True)).to_be_focused()

        expect(page.locator("#game-status")).to_have_text(words["game_over"])
        expect(page.locator("#outcome")).to_contain_text(words["outcome"])
        save = page.locator("#save-result")
        expect(save).to_have_text(words["save"])
        keep_screenshot(page, f"korova-entry-{language}")

        save.tap()
        expect(page.get_by_role("status").filter(has_text=words["saved"])).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", language)
        keep_screenshot(page, f"korova-entry-{language}-saved")
        assert page.url == live_server.url + reverse("fixture-detail", args=[fixture.pk])
        version = ResultVersion.objects.get(fixture=fixture)
        assert (version.home_score, version.away_score) == (108, 62)
    finally:
        context.close()
