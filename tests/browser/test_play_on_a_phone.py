"""The play pages on a 390 × 844 phone: the clock stays in sight, every control can be reached
at full size, Корова's scores fit ten players, the lost-connection notice hides nothing, and
the replay's buttons and address keep up with quick taps."""

import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.bots import bot_move
from games.engines import get_engine
from games.live import services
from games.models import Table
from tests.browser.conftest import PHONE
from tests.browser.play import check_no_sideways_scroll, keep_screenshot
from tests.factories import UserFactory
from tests.games.live.playing import finished_conquian

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TWO_EYED_JACKS = ("JC", "JD")


def seated_table(game: str, players: int, **options) -> tuple[Table, list]:
    users = [UserFactory.create(first_name=f"Pat{n}") for n in range(players)]
    table = services.table_create(
        game=game, players=players, options={"turn_seconds": 600, **options}, bots=[], by=users[0]
    )
    for user in users[1:]:
        services.table_join(table_id=table.pk, by=user)
    table.refresh_from_db()
    return table, users


def play_until(table, users, done) -> int | None:
    """Practice-bot moves through the service until `done(state, seat)` for the (first) seat
    to act; returns that seat, or None if the game ended first."""
    eng, rng = get_engine(table.game), random.Random(table.seed)
    while True:
        table.refresh_from_db()
        state = eng.load(table.state)
        if eng.is_over(state):
            return None
        seat = eng.to_act(state)[0]
        if done(state, seat):
            return seat
        move = bot_move(game=table.game, state=state, seat=seat, rng=rng)
        services.table_move(table_id=table.pk, turn=table.turn, move=move, by=users[seat])


def in_viewport(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_two_eyed_jack_is_played_through_full_size_buttons_with_the_clock_in_sight(
    live_server, phones
):
    eng = get_engine("convoy")

    def holds_a_playable_two_eyed_jack(state, seat):
        return any(
            move.get("card") in TWO_EYED_JACKS and "square" in move
            for move in eng.legal_moves(state, seat)
        )

    # The deal is random: now and then a game ends before anyone can play a two-eyed jack.
    for _attempt in range(5):
        table, users = seated_table("convoy", 4)
        seat = play_until(table, users, holds_a_playable_two_eyed_jack)
        if seat is not None:
            break
    assert seat is not None, "five games ended without a playable two-eyed jack"
    state = eng.load(table.state)
    move = next(
        move
        for move in eng.legal_moves(state, seat)
        if move.get("card") in TWO_EYED_JACKS and "square" in move
    )
    page = phones(users[seat])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    live = page.locator("#table-live")

    jack = live.locator(f'[data-hand] [data-card="{move["card"]}"]').first
    jack.tap()
    assert in_viewport(page, jack)
    # Down at the hand, the turn and its clock are still on the screen.
    assert in_viewport(page, live.locator("[data-countdown]"))
    assert in_viewport(page, live.locator(".turn-line"))

    row, column = move["square"]
    picker = live.locator(".square-picker:not([hidden])")
    expect(picker).to_have_count(1)
    picker.get_by_text(re.compile(rf"^Row {row + 1}\b")).tap()
    square = picker.get_by_role("button", name=re.compile(rf"^Column {column + 1}\b")).first
    expect(square).to_be_visible()
    box = square.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    keep_screenshot(page, "convoy-square-picker")
    turn = table.turn
    square.tap()
    expect(live.locator("[data-turn]")).to_have_attribute("data-turn", str(turn + 1))
    expect(live.locator("#move-error")).to_be_hidden()
    table.refresh_from_db()
    last = eng.view(eng.load(table.state), None)["last_move"]
    assert last["card"] == move["card"] and list(last["square"]) == [row, column]
    check_no_sideways_scroll(page)


def test_korova_heads_by_round_fit_a_phone_with_ten_players(live_server, phones):
    table, users = seated_table("korova", 10, end_score=1000)  # no early end
    eng = get_engine("korova")
    seat = play_until(table, users, lambda state, seat: len(eng.view(state, None)["sheet"]) >= 2)
    page = phones(users[seat])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))

    expect(page.locator("#sheet-title")).to_be_visible()
    wider = page.evaluate(
        """(width) => Array.from(document.querySelectorAll("main *"))
             .filter((e) => e.getBoundingClientRect().right > width + 0.5)
             .map((e) => e.tagName + "." + e.className)""",
        PHONE["width"],
    )
    assert wider == []
    scores = page.locator(".korova-scores")
    expect(scores.locator("tbody tr")).to_have_count(10)
    for total in scores.locator("tbody td.num").all():
        total.scroll_into_view_if_needed()
        expect(total).to_be_visible()
        box = total.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]


def test_the_lost_connection_notice_leaves_the_last_control_uncovered(live_server, phones):
    table, users = seated_table("korova", 4)
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    page.context.set_offline(True)
    notice = page.locator("#connection")
    expect(notice).to_be_visible()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(200)
    notice_top = notice.bounding_box()["y"]
    last_control = page.locator("button:visible, a[href]:visible").last
    box = last_control.bounding_box()
    assert box["y"] + box["height"] <= notice_top
    page.context.set_offline(False)
    expect(notice).to_be_hidden()


def test_the_replay_buttons_draw_and_the_address_keeps_up_with_quick_taps(live_server, phones):
    users = [UserFactory(username=f"r{n}", first_name=f"Rae{n}") for n in range(2)]
    table = finished_conquian(users)
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-replay", args=[table.pk]))
    nav = page.locator(".replay-nav")
    # Symbols the phone's fonts lack (⏮ ⏭) drew as boxes: the arrows are drawn, beside words.
    assert not re.search("[\u23e9-\u23ff]", nav.inner_text())
    for name in ("Start", "Back", "Forward", "End"):
        link = nav.get_by_role("button", name=name, exact=True)
        expect(link.locator("svg[aria-hidden='true']")).to_have_count(1)

    for _ in range(6):
        page.locator("#replay-forward").click(no_wait_after=True)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    shown = re.search(r"Move (\d+) of", page.locator("#replay-position").inner_text())
    assert shown, page.locator("#replay-position").inner_text()
    assert page.url.endswith(f"?step={shown.group(1)}")
