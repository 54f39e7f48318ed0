"""Phone play at 390 × 844: Convoy's board and hand in view together during a turn,
Conquian's hint of the cards and melds that go with the open card, the keyboard focus kept
when the table is redrawn, and end screens that say who won."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.engines import get_engine
from games.live import services
from games.models import Table
from tests.browser.conftest import PHONE
from tests.browser.play import ARTIFACTS, check_no_sideways_scroll, keep_screenshot
from tests.browser.test_play_on_a_phone import play_until, seated_table
from tests.factories import UserFactory
from tests.games.live.playing import finished_conquian, play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def screen_shot(page, name: str) -> None:
    """What the phone's screen shows (not the whole page)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def box_in_screen(locator) -> dict:
    box = locator.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    return box


def test_convoys_board_and_hand_are_both_in_view_during_a_turn(live_server, phones):
    table, users = seated_table("convoy", 2)
    eng = get_engine("convoy")
    # A few moves first, so that the board shows both sides' counters.
    seat = play_until(
        table, users, lambda state, seat: sum(c["counter"] is not None for row in
                                              eng.view(state, None)["board"] for c in row) >= 6
    )  # fmt: skip
    assert seat is not None
    page = phones(users[seat])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    live = page.locator("#table-live")
    expect(live.locator(".clock.mine")).to_be_visible()
    board = box_in_screen(live.locator(".convoy-board"))
    hand = box_in_screen(live.locator("[data-hand]"))
    assert hand["y"] >= board["y"] + board["height"] - 1  # the hand covers no square
    box_in_screen(live.locator(".turn-line"))
    # Counters tell apart at a glance: each fills most of its square's width.
    counter = live.locator(".convoy-board .counter").first.bounding_box()
    square = live.locator(".convoy-board .cell").first.bounding_box()
    assert counter is not None and square is not None
    assert counter["height"] >= 18 and counter["width"] >= 0.5 * square["width"]
    check_no_sideways_scroll(page)
    screen_shot(page, "convoy-turn-on-a-phone")

    # Tapping a card lights its squares; the board and hand stay where they are.
    card = live.locator("[data-hand] [data-card]").first
    card.tap()
    box_in_screen(live.locator(".convoy-board"))
    box_in_screen(card)


def test_conquian_shows_the_cards_and_the_meld_that_go_with_the_open_card(live_server, phones):
    table, users = seated_table("conquian", 2)
    eng = get_engine("conquian")

    def can_meld_with_hand_cards(state, seat):
        return any(move.get("meld") for move in eng.legal_moves(state, seat))

    seat = None
    for _attempt in range(5):  # a deal now and then ends before such an open card
        seat = play_until(table, users, can_meld_with_hand_cards)
        if seat is not None:
            break
        table, users = seated_table("conquian", 2)
    assert seat is not None
    state = eng.load(Table.objects.get(pk=table.pk).state)
    meld = min((m["meld"] for m in eng.legal_moves(state, seat) if m.get("meld")), key=len)
    page = phones(users[seat])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    live = page.locator("#table-live")
    for code in meld:
        expect(live.locator(f'[data-hand] [data-card="{code}"]')).to_have_class(re.compile("fits"))
    options = live.locator("#meld-options .meld-option")
    expect(options.first).to_be_visible()
    keep_screenshot(page, "conquian-meld-hint")
    turn = table.turn
    option = live.locator(
        f"#meld-options button[value='{{\"meld\": {str(meld).replace(chr(39), chr(34))}}}']"
    )
    expect(option).to_have_count(1)
    option.tap()
    expect(live.locator("[data-turn]")).to_have_attribute("data-turn", str(turn + 1))
    expect(live.locator("#move-error")).to_be_hidden()


def test_the_focus_stays_on_the_card_when_the_table_is_redrawn(live_server, phones):
    table, users = seated_table("korova", 2)
    eng = get_engine("korova")
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    live = page.locator("#table-live")
    hand = eng.view(eng.load(table.state), 0)["hand"]
    card = live.locator(f'[data-hand] [data-card="{hand[3]}"]')
    card.focus()
    etag = live.locator("[data-etag]").get_attribute("data-etag")
    other = eng.view(eng.load(table.state), 1)["hand"][0]
    services.table_move(table_id=table.pk, turn=1, move={"card": other}, by=users[1])
    expect(live.locator("[data-etag]")).not_to_have_attribute("data-etag", etag)  # redrawn
    assert page.evaluate("document.activeElement.dataset.card") == str(hand[3])

    # The player's own move, from the keyboard: the focus stays in the table, not the top.
    page.keyboard.press("Enter")  # selects the focused card
    put_down = live.locator("button[data-template]")
    expect(put_down).to_be_enabled()
    put_down.focus()
    page.keyboard.press("Enter")
    expect(live.locator("[data-turn]")).not_to_have_attribute("data-turn", "1")
    assert page.evaluate("document.getElementById('table-live').contains(document.activeElement)")


def test_a_control_disabled_under_the_focus_hands_it_to_its_neighbour(live_server, phones):
    """The focus is on "Put down" when the chosen card is unchosen without the focus moving
    (a screen reader's tap, say): the button is disabled under it, and the focus goes to the
    card before it, not to the top of the page."""
    table, users = seated_table("korova", 2)
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    live = page.locator("#table-live")
    card = live.locator("[data-hand] [data-card]").last
    card.focus()
    page.keyboard.press("Enter")  # chosen
    put_down = live.locator("button[data-template]")
    expect(put_down).to_be_enabled()
    put_down.focus()

    card.dispatch_event("click")  # unchosen, the focus left where it was
    expect(put_down).to_be_disabled()
    expect(card).to_be_focused()


def test_while_the_others_pick_the_move_form_holds_the_focus_and_the_next_turn_gives_it_a_card(
    live_server, phones, monkeypatch
):
    """A keyboard player's card is down and the others are still to pick: nothing in the form
    can be played, so the form holds the focus (not "Ask for a pause" after it, which a
    second Enter would press); when the next turn deals the hand back, its first card has it."""
    monkeypatch.setattr(
        "games.live.services.new_seed", lambda: 1
    )  # highest cards: no row to choose
    table, users = seated_table("korova", 3)
    eng = get_engine("korova")
    highest = [max(eng.view(eng.load(table.state), seat)["hand"]) for seat in range(3)]
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    live = page.locator("#table-live")
    live.locator(f'[data-hand] [data-card="{highest[0]}"]').focus()
    page.keyboard.press("Enter")  # chosen
    put_down = live.locator("button[data-template]")
    expect(put_down).to_be_enabled()
    put_down.focus()
    page.keyboard.press("Enter")
    expect(live.locator(".my-pick")).to_be_visible()
    expect(live.locator("#move-form")).to_be_focused()

    services.table_move(table_id=table.pk, turn=1, move={"card": highest[1]}, by=users[1])
    expect(live.locator(".recent-moves li")).to_have_count(2)  # redrawn, still waiting for Cy
    expect(live.locator("#move-form")).to_be_focused()

    services.table_move(table_id=table.pk, turn=1, move={"card": highest[2]}, by=users[2])
    expect(live.locator("[data-turn]")).not_to_have_attribute("data-turn", "1")
    expect(live.locator("[data-hand] [data-card]").first).to_be_focused()


def test_end_screens_say_who_won_and_no_deal_still_to_play(live_server, phones):
    users = [UserFactory.create(first_name=f"Pat{n}") for n in range(2)]
    conquian = finished_conquian(users)
    page = phones(users[0])
    page.goto(live_server.url + reverse("table-detail", args=[conquian.pk]))
    live = page.locator("#table-live")
    expect(live.locator(".turn-line")).to_contain_text("Game over")
    expect(live).not_to_contain_text("is worth")

    table, players = seated_table("convoy", 2)
    play_to_the_end(table, players)
    page.goto(live_server.url + reverse("table-detail", args=[table.pk]))
    counts = live.locator(".convoy-count")
    expect(counts.filter(has_text=re.compile(r"^\d+ convoys?: won$"))).to_have_count(1)
    for text in counts.all_inner_texts():
        assert " of " not in text
    keep_screenshot(page, "convoy-end-on-a-phone")
