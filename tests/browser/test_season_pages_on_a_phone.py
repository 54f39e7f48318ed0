"""Season pages on a 390 px phone: a drawn cup tie's fixture page with the decider's box (as
staff of its venue see it), a player's page with the fixtures they played as a reserve, and a
withdrawn team's note under the table. Each says what it must and never scrolls sideways."""

import datetime
import random

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import CupTie, Game, WithdrawalRule
from scoring.cups.services import cup_draw
from scoring.results.services import result_submit
from scoring.results.walkovers import entry_withdraw
from tests.browser.play import check_no_sideways_scroll
from tests.factories import StaffMembershipFactory
from tests.scoring.cups.cups import LEVEL_EVERY_ROUND, admin_user, first_round_at, make_cup, play
from tests.scoring.squads import korova_sheet, make_squads

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_drawn_cup_ties_decider_box_reads_on_a_phone(live_server, phones):
    cup = make_cup(
        2, names=["The Extraordinarily Long-Named Roundheads", "Penalty Heads of the Red Lion"]
    )
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at(), rng=random.Random(3))
    tie = CupTie.objects.get(round__cup=cup, fixture__isnull=False)
    play(tie.fixture, LEVEL_EVERY_ROUND, by=admin_user())
    page = phones(StaffMembershipFactory(venue=tie.fixture.venue).user)

    page.goto(live_server.url + reverse("fixture-detail", args=[tie.fixture_id]))

    box = page.locator(".cup-tie-box")
    expect(box).to_contain_text("Knockout Cup")
    expect(box.locator("legend")).to_contain_text("Who won")
    expect(box.get_by_label("The Extraordinarily Long-Named Roundheads")).to_be_visible()
    expect(box.get_by_role("button", name="Record the decider")).to_be_visible()
    check_no_sideways_scroll(page)


def test_a_players_reserve_appearances_read_on_a_phone(live_server, phone):
    squads = make_squads(Game.KOROVA)
    reserve = squads.reserve(0, name="Rita Reserve-Longname of the Crown and Anchor")
    home, away = squads.players(0), squads.players(1)
    result_submit(
        fixture_id=squads.fixture.pk,
        sheet=korova_sheet([home[0], reserve.pk], away),
        based_on_version=0,
        by=squads.staff,
    )

    phone.goto(live_server.url + reverse("player-detail", args=[reserve.slug]))

    section = phone.locator("section[aria-labelledby='substitute-heading']")
    expect(section.locator("h2")).to_have_text("Played as a reserve")
    expect(section).to_contain_text(f"for {squads.teams[0].name}")
    expect(section.get_by_role("link")).to_have_count(1)
    check_no_sideways_scroll(phone)


def test_a_withdrawn_teams_note_under_the_table_reads_on_a_phone(live_server, phone):
    squads = make_squads(Game.KOROVA, teams=3, withdrawal_rule=WithdrawalRule.KEEP)
    squads.fixture_between(0, 2, round=2)
    entry_withdraw(entry_id=squads.entries[0].pk, on=datetime.date(2026, 10, 1), by=None)
    season = squads.season

    phone.goto(live_server.url + reverse("season-detail", args=[season.league.slug, season.slug]))

    team = squads.teams[0].name
    expect(phone.locator("a.badge.withdrawn")).to_have_text("withdrawn")
    note = phone.locator("ol.withdrawals li")
    expect(note).to_have_count(1)
    expect(note).to_contain_text(f"{team} withdrew on")
    expect(note).to_contain_text("its played results stand")
    check_no_sideways_scroll(phone)
