"""Two phones play a Conquian table in Russian, and in Finnish: the lobby, the table, its
clock (the script's seconds too), its log, a refused move's sentence and the end of the game
speak the page's language, and `<html lang>` says which."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from games.engines import get_engine
from games.live import services
from games.models import Table
from tests.browser.play import check_no_sideways_scroll, keep_screenshot
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 84  # with the moves below, the first deal is won in 18 decisions (test_play_conquian)

# What each language's page says, and the buttons a player taps.
WORDS = {
    "ru": {
        "lobby": "Живые столы",
        "your_turn": "Ваш ход.",
        "waiting": "Ждём: ",
        "time_left": "Осталось",
        "seconds": re.compile(r"^\d+ с$"),
        "open_card": "Открытая карта",
        "your_hand": "Ваши карты",
        "recent": "Последние ходы",
        "meld": "Выложить открытую карту",
        "discard": "Сбросить выбранную карту",
        "reject": "Отказаться",
        "pass": "Пас: оставить открытой",
        "stale": "Игра ушла вперёд, пока шёл ваш ход",
        "game_over": "Игра окончена",
        "replay": "Повтор этой игры",
        "replay_position": "Раздача, до первого хода",
    },
    "fi": {
        "lobby": "Live-pöydät",
        "your_turn": "Sinun vuorosi.",
        "waiting": "Odotetaan: ",
        "time_left": "Aikaa jäljellä",
        "seconds": re.compile(r"^\d+ s$"),
        "open_card": "Keskikortti",
        "your_hand": "Kätesi",
        "recent": "Viimeisimmät siirrot",
        "meld": "Ilmoita keskikortti",
        "discard": "Heitä napauttamasi kortti pois",
        "reject": "Hylkää se",
        "pass": "Passaa: jätä se avoimeksi",
        "stale": "Peli eteni ennen kuin siirtosi ehti perille",
        "game_over": "Peli päättyi",
        "replay": "Katso pelin uusinta",
        "replay_position": "Jako ennen ensimmäistä siirtoa",
    },
}


def choose(moves: list[dict]) -> dict:
    """Meld as much as possible, else leave the card; discard the first card offered."""
    melds = [move for move in moves if "meld" in move]
    if melds:
        return max(melds, key=lambda move: len(move["meld"]))
    for move in moves:
        if move in ({"reject": True}, {"pass": True}):
            return move
    return next(move for move in moves if "discard" in move and not move.get("force"))


def play_in_page(page, move: dict, words: dict) -> None:
    """Make `move` the way a player does, by the buttons' words in the page's language. Each
    control is tapped once it is there and enabled, without waiting for it to stand still: a
    fast answer redraws the table under the tap, and a second tap would toggle a card back."""
    live = page.locator("#table-live")
    actions = live.locator(".actions")

    def tap(control) -> None:
        expect(control).to_be_enabled()
        control.tap(force=True)

    if "meld" in move:
        for card in move["meld"]:
            tap(live.locator(f'[data-hand] [data-card="{card}"]'))
        tap(actions.get_by_role("button", name=words["meld"]).first)
    elif "discard" in move:
        tap(live.locator(f'[data-hand] [data-card="{move["discard"]}"]'))
        tap(actions.get_by_role("button", name=words["discard"]))
    elif "reject" in move:
        tap(actions.get_by_role("button", name=words["reject"]))
    else:
        tap(actions.get_by_role("button", name=words["pass"]))


def speaking(page, live_server, language: str):
    """The phone's page with the language chosen (the switcher's cookie)."""
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    return page


@pytest.mark.parametrize("language", ["ru", "fi"])
def test_two_phones_play_conquian_in_the_page_language(live_server, phones, language):
    words = WORDS[language]
    ann_user = UserFactory(username="ann", first_name="Ann")
    cy_user = UserFactory(username="cy", first_name="Cy")
    table = services.table_create(
        game="conquian", players=2, options={"target": 1, "turn_seconds": 120}, bots=[],
        by=ann_user,
    )  # fmt: skip
    Table.objects.filter(pk=table.pk).update(seed=SEED)
    ann = speaking(phones(ann_user), live_server, language)
    cy = speaking(phones(cy_user), live_server, language)

    ann.goto(live_server.url + reverse("table-lobby"))
    expect(ann.locator("html")).to_have_attribute("lang", language)
    expect(ann.get_by_role("heading", level=1)).to_have_text(words["lobby"])

    services.table_join(table_id=table.pk, by=cy_user)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    page_of = {seat.seat: (ann if seat.user == ann_user else cy) for seat in table.seats.all()}
    for page in (ann, cy):
        page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator(".clock")).to_contain_text(words["time_left"])
        expect(page.locator("#table-live .open-card")).to_contain_text(words["open_card"])
        expect(page.locator("#table-live .hand-title")).to_have_text(words["your_hand"])
    check_no_sideways_scroll(ann)
    # The countdown ticks in the script, in the page's language (the /jsi18n/ catalogue).
    ann.wait_for_timeout(1500)
    expect(ann.locator("[data-countdown]")).to_have_text(words["seconds"])

    eng = get_engine("conquian")
    state = eng.load(table.state)
    (seat,) = eng.to_act(state)
    page, other = page_of[seat], page_of[1 - seat]
    expect(page.locator("#table-live .turn-line")).to_have_text(words["your_turn"])
    expect(other.locator("#table-live .turn-line")).to_contain_text(words["waiting"])

    # A move sent for a turn the table has left is refused, in the page's language.
    page.locator('#move-form input[name="turn"]').evaluate("input => input.value = '0'")
    page.locator("#table-live .actions button:enabled").first.tap(force=True)
    expect(page.locator("#move-error")).to_be_visible()
    expect(page.locator("#move-error")).to_contain_text(words["stale"])
    keep_screenshot(page, f"conquian-refusal-{language}")
    table.refresh_from_db()
    assert table.turn == 1

    decisions, shot = 0, False
    while True:
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        state = eng.load(table.state)
        (seat,) = eng.to_act(state)
        page = page_of[seat]
        expect(page.locator("#table-live [data-turn]")).to_have_attribute(
            "data-turn", str(table.turn)
        )
        move = choose(eng.legal_moves(state, seat))
        if decisions >= 2 and not shot:
            # the other player's move is told in a whole sentence of the page's language
            expect(page.locator("#recent-title")).to_have_text(words["recent"])
            keep_screenshot(page, f"conquian-{language}")
            shot = True
        play_in_page(page, move, words)
        # the move's answer is drawn: the page has left the turn it was made in
        page.wait_for_function(
            """turn => {
                const head = document.querySelector("#table-live [data-turn]");
                return head.dataset.turn !== turn || head.dataset.status === "finished";
            }""",
            arg=str(table.turn),
        )
        expect(page.locator("#move-error")).to_be_hidden()
        decisions += 1
        assert decisions < 60, "the game went on too long"

    for page in (ann, cy):
        expect(page.locator("#table-live .turn-line")).to_contain_text(words["game_over"])
        page.get_by_role("button", name=words["replay"]).tap()
        expect(page.locator("html")).to_have_attribute("lang", language)
        expect(page.locator("#replay-position")).to_contain_text(words["replay_position"])
    keep_screenshot(ann, f"conquian-replay-{language}")
