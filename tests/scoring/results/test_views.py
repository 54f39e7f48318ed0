"""Staff pages: the result-entry sheets of the three games, the history and the staff home."""

import re

import pytest
from django.urls import reverse

from leagues.models import Fixture, Game, TeamMember
from scoring.models import ResultVersion
from scoring.publishing.services import venue_screen_issue
from scoring.results.services import result_submit
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def make_fixture(game=Game.KOROVA, **season):
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game=game), **season)
    home = TeamFactory(
        home_venue=venue, members=[PlayerFactory(name="Ann"), PlayerFactory(name="Bea")]
    )
    away = TeamFactory(members=[PlayerFactory(name="Cy"), PlayerFactory(name="Dot")])
    return FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)


def staff_of(fixture):
    return StaffMembershipFactory(venue=fixture.venue).user


def entry_url(fixture):
    return reverse("result-entry", args=[fixture.pk])


def history_url(fixture):
    return reverse("result-history", args=[fixture.pk])


def korova_post(rounds, based_on=0, **extra):
    data = {"based_on_version": str(based_on), "action": "save"}
    for index, row in enumerate(rounds):
        for seat, heads in enumerate(row):
            data[f"rounds.{index}.{seat}"] = str(heads)
    data.update(extra)
    return data


# Ann reaches 80 in round 4: home 100 heads, away 60, the away team wins.
FULL_GAME = [[20, 5, 10, 5]] * 4


def player_ids(fixture):
    return [
        m.player_id
        for team in (fixture.home_team, fixture.away_team)
        for m in team.members.order_by("position")
    ]


@pytest.fixture
def korova():
    return make_fixture()


@pytest.fixture
def staff_client(client, korova):
    client.force_login(staff_of(korova))
    return client


# --- permissions -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["result-entry", "result-history"])
def test_an_anonymous_visitor_is_sent_to_log_in(client, korova, name):
    url = reverse(name, args=[korova.pk])

    response = client.get(url)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_an_anonymous_post_is_sent_to_log_in_and_saves_nothing(client, korova):
    response = client.post(entry_url(korova), korova_post(FULL_GAME))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize("who", ["other_venue_staff", "player"])
@pytest.mark.parametrize("name", ["result-entry", "result-history"])
def test_staff_of_another_venue_and_players_are_refused(client, korova, who, name):
    if who == "player":
        user = UserFactory()
        PlayerFactory(user=user)
    else:
        user = StaffMembershipFactory().user
    client.force_login(user)

    assert client.get(reverse(name, args=[korova.pk])).status_code == 403


@pytest.mark.parametrize("who", ["other_venue_staff", "player"])
def test_a_refused_post_saves_nothing(client, korova, who):
    if who == "player":
        user = UserFactory()
        PlayerFactory(user=user)
    else:
        user = StaffMembershipFactory().user
    client.force_login(user)

    response = client.post(entry_url(korova), korova_post(FULL_GAME))

    assert response.status_code == 403
    assert not ResultVersion.objects.exists()
    korova.refresh_from_db()
    assert korova.status == Fixture.Status.SCHEDULED


def test_a_superuser_may_open_any_sheet(client, korova):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))

    assert client.get(entry_url(korova)).status_code == 200
    assert client.get(history_url(korova)).status_code == 200


def test_an_unknown_fixture_is_404(staff_client):
    assert staff_client.get(reverse("result-entry", args=[999999])).status_code == 404


def test_other_methods_are_not_allowed(staff_client, korova):
    assert staff_client.put(entry_url(korova)).status_code == 405


# --- Корова sheet ----------------------------------------------------------------------------


def test_the_korova_sheet_shows_the_four_players_and_a_numeric_grid(staff_client, korova):
    response = staff_client.get(entry_url(korova))

    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Ann", "Bea", "Cy", "Dot"):
        assert name in html
    assert 'name="rounds.0.3"' in html
    assert 'inputmode="numeric"' in html
    assert re.search(r'name="based_on_version" value="0"', html)
    assert 'hx-trigger="input changed delay:300ms"' in html


def test_typing_redraws_only_the_running_totals(staff_client, korova):
    data = korova_post([[20, 5, 10, 5], [20, 5, 10, ""]], action="preview")

    response = staff_client.post(entry_url(korova), data, **HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="korova-totals"')
    assert "<html" not in html
    assert 'id="home-total"><strong>50</strong>' in html
    assert 'id="away-total"><strong>25</strong>' in html
    assert "nobody has reached 66 yet" in html


def test_the_totals_show_the_end_of_the_game_the_winner_and_league_points(staff_client, korova):
    response = staff_client.post(
        entry_url(korova), korova_post(FULL_GAME, action="preview"), **HTMX
    )

    html = response.content.decode()
    assert "Game over in round 4: Ann reached 66" in html
    assert f"{korova.away_team.name} win" in html
    assert f"League points: {korova.home_team.name} 0, {korova.away_team.name} 3" in html
    assert 'value="add_round"' not in html  # no round after the end


def test_the_preview_shows_an_unreadable_cell_beside_it_as_save_would(staff_client, korova):
    response = staff_client.post(
        entry_url(korova), korova_post([[20, "x7", 10, 5]], action="preview"), **HTMX
    )

    assert response.status_code == 200
    html = response.content.decode()
    slot = re.search(r'<span[^>]*id="err-rounds-0-1"[^>]*hx-swap-oob="true"[^>]*>([^<]*)<', html)
    assert "must be a whole number, not &#x27;x7&#x27;" in slot.group(1)


def test_saving_a_whole_sheet_creates_version_one_and_goes_to_the_fixture(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, note="Good game"))

    assert response.status_code == 302
    assert response.url == reverse("fixture-detail", args=[korova.pk])
    version = ResultVersion.objects.get(fixture=korova)
    assert (version.number, version.home_score, version.away_score) == (1, 100, 60)
    assert version.sheet == {"players": player_ids(korova), "rounds": FULL_GAME}
    assert version.note == "Good game"
    assert version.lineup == {"home": player_ids(korova)[:2], "away": player_ids(korova)[2:]}
    korova.refresh_from_db()
    assert korova.status == Fixture.Status.PLAYED


def test_the_success_message_follows_the_redirect(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME), follow=True)

    assert "Result saved" in response.content.decode()


def test_a_round_after_the_end_is_refused_next_to_that_round(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME + [[1, 1, 20, 5]]))

    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="errors-5"' in html
    assert "Round 5 comes after the game ended" in html
    assert not ResultVersion.objects.exists()


def test_an_unfinished_sheet_is_refused_in_plain_words(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME[:2]))

    assert response.status_code == 400
    assert "The game is not finished" in response.content.decode()
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("abc", "must be a whole number"),
        ("-3", "cannot take fewer than 0"),
        ("", "enter the heads"),
        ("999", "the deck holds only"),
    ],
)
def test_a_bad_cell_is_refused_beside_it_and_kept_in_the_form(staff_client, korova, cell, message):
    rounds = [list(row) for row in FULL_GAME]
    rounds[1][2] = cell

    response = staff_client.post(entry_url(korova), korova_post(rounds))

    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    cell_input = re.search(r'<input[^>]*name="rounds\.1\.2"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in cell_input
    assert f'value="{cell}"' in cell_input
    assert not ResultVersion.objects.exists()


@pytest.mark.parametrize("based_on", ["", "x", "-1", "1e9999"])
def test_a_tampered_version_marker_is_refused_without_a_500(staff_client, korova, based_on):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, based_on=based_on))

    assert response.status_code == 400
    assert "reload the page" in response.content.decode()
    assert not ResultVersion.objects.exists()


def test_tampered_grid_names_are_ignored_without_a_500(staff_client, korova):
    data = korova_post(FULL_GAME)
    data.update({"rounds.99999.0": "5", "rounds.0.9": "5", "players.0": "1", "rounds.x.0": "1"})

    response = staff_client.post(entry_url(korova), data)

    assert response.status_code == 302
    assert ResultVersion.objects.get().sheet["rounds"] == FULL_GAME


def test_an_unknown_action_is_a_bad_request_that_keeps_the_input(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, action="explode"))

    assert response.status_code == 400
    assert 'name="rounds.3.0"' in response.content.decode()
    assert not ResultVersion.objects.exists()


def test_a_note_that_is_too_long_is_refused_beside_it(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, note="x" * 300))

    assert response.status_code == 400
    assert "Keep the note to 250 characters" in response.content.decode()


def test_add_round_adds_an_empty_round_and_keeps_what_was_typed(staff_client, korova):
    data = korova_post([[20, 5, 10, 5]], action="add_round")

    response = staff_client.post(entry_url(korova), data)

    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'name="rounds\.0\.0"[^>]*value="20"', html)
    assert re.search(r'name="rounds\.1\.0"[^>]*value=""[^>]*autofocus', html, re.S)
    assert not ResultVersion.objects.exists()


def test_add_round_is_refused_after_the_end_of_the_game(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, action="add_round"))

    html = response.content.decode()
    assert "The game ended in round 4" in html
    assert 'name="rounds.4.0"' not in html


def test_remove_round_drops_the_last_round(staff_client, korova):
    response = staff_client.post(entry_url(korova), korova_post(FULL_GAME, action="remove_round"))

    html = response.content.decode()
    assert 'name="rounds.2.0"' in html
    assert 'name="rounds.3.0"' not in html


def test_a_correction_loads_the_saved_sheet_and_saves_version_two(staff_client, korova):
    staff_client.post(entry_url(korova), korova_post(FULL_GAME))

    page = staff_client.get(entry_url(korova)).content.decode()
    assert re.search(r'name="based_on_version" value="1"', page)
    assert re.search(r'name="rounds\.3\.0"[^>]*value="20"', page)

    response = staff_client.post(entry_url(korova), korova_post([[5, 5, 20, 10]] * 4, based_on=1))

    assert response.status_code == 302
    assert list(
        ResultVersion.objects.order_by("number").values_list("number", "is_current", "winner")
    ) == [(1, False, "away"), (2, True, "home")]


# --- conflicts ---------------------------------------------------------------------------


def test_saving_over_a_newer_version_shows_both_and_keeps_the_input(client, korova):
    first, second = staff_of(korova), staff_of(korova)
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": player_ids(korova), "rounds": FULL_GAME},
        based_on_version=0,
        by=first,
    )
    client.force_login(second)
    mine = [[20, 5, 10, 5]] * 3 + [[20, 5, 5, 10]]

    response = client.post(entry_url(korova), korova_post(mine, based_on=0))

    assert response.status_code == 409
    html = response.content.decode()
    assert "Not saved: the result changed" in html
    assert first.username in html and "version 1" in html
    # Both typed round 4 differently (Cy and Dot): side by side, a choice each.
    clashes = html.split('id="conflict-clashes"')[1].split("</fieldset>")[0]
    assert re.search(
        r"Round 4, Cy</p>.*Keep saved: <strong>10</strong>.*Use yours: <strong>5</strong>",
        clashes,
        re.S,
    )
    # The form holds the saved version until the user chooses, now based on it.
    assert re.search(r'name="rounds\.3\.3"[^>]*value="5"', html)
    assert re.search(r'name="based_on_version" value="1"', html)
    assert ResultVersion.objects.count() == 1

    resubmitted = client.post(entry_url(korova), korova_post(mine, based_on=1))

    assert resubmitted.status_code == 302
    current = ResultVersion.objects.get(is_current=True)
    assert (current.number, current.created_by) == (2, second)
    assert current.sheet["rounds"][3] == [20, 5, 5, 10]


# --- unavailable fixtures ----------------------------------------------------------------


def test_a_void_fixture_takes_no_result(staff_client, korova):
    Fixture.objects.filter(pk=korova.pk).update(status=Fixture.Status.VOID)

    page = staff_client.get(entry_url(korova))
    posted = staff_client.post(entry_url(korova), korova_post(FULL_GAME))

    assert page.status_code == 200 and "void" in page.content.decode()
    assert posted.status_code == 200 and 'name="rounds.0.0"' not in posted.content.decode()
    assert not ResultVersion.objects.exists()


def test_a_team_without_its_two_players_cannot_be_scored(staff_client, korova):
    TeamMember.objects.filter(team=korova.away_team, position=2).delete()

    response = staff_client.get(entry_url(korova))

    assert response.status_code == 200
    assert "each team needs its two players" in response.content.decode()


# --- Conquian ----------------------------------------------------------------------------


def conquian_post(deals_0, deals_1, based_on=0, **extra):
    data = {"based_on_version": str(based_on), "action": "save"}
    for single, deals in enumerate((deals_0, deals_1)):
        for index, deal in enumerate(deals):
            data[f"singles.{single}.deals.{index}"] = deal
    data.update(extra)
    return data


@pytest.fixture
def conquian():
    return make_fixture(Game.CONQUIAN)


def test_the_conquian_sheet_pairs_home_one_with_away_one(client, conquian):
    client.force_login(staff_of(conquian))

    html = client.get(entry_url(conquian)).content.decode()

    assert "Single 1: Ann v Cy" in html
    assert "Single 2: Bea v Dot" in html
    assert 'value="add:0:home"' in html


def test_adding_a_drawn_deal_shows_the_next_deal_doubled(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["draw"], [], action="add:0:draw"), **HTMX
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="conquian-singles"')
    assert 'name="singles.0.deals.1"' in html
    assert "next deal worth 4" in html  # two drawn deals in a row: 1 → 2 → 4


def test_a_finished_single_takes_no_more_deals(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["home"] * 5, [], action="add:0:home")
    )

    html = response.content.decode()
    assert "Single 1 is over" in html
    assert 'name="singles.0.deals.5"' not in html
    assert "Ann won the single" in html


def test_undo_removes_the_last_deal(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["home", "away"], [], action="undo:0"), **HTMX
    )

    html = response.content.decode()
    assert 'name="singles.0.deals.0"' in html
    assert 'name="singles.0.deals.1"' not in html


def test_saving_a_conquian_sheet_and_a_deal_after_the_target(client, conquian):
    client.force_login(staff_of(conquian))

    refused = client.post(entry_url(conquian), conquian_post(["home"] * 6, ["away"] * 5))
    assert refused.status_code == 400
    assert "Deal 6 comes after the single was won" in refused.content.decode()
    assert not ResultVersion.objects.exists()

    saved = client.post(entry_url(conquian), conquian_post(["home"] * 5, ["draw"] + ["away"] * 4))
    assert saved.status_code == 302
    version = ResultVersion.objects.get()
    assert (version.home_score, version.away_score, version.winner) == (5, 5, "draw")


def test_a_tampered_deal_is_refused_beside_it(client, conquian):
    client.force_login(staff_of(conquian))

    response = client.post(
        entry_url(conquian), conquian_post(["home", "sideways"] + ["home"] * 4, ["away"] * 5)
    )

    assert response.status_code == 400
    html = response.content.decode()
    select = re.search(r'<select[^>]*name="singles\.0\.deals\.1"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in select
    home, away = conquian.home_team, conquian.away_team
    assert "must be won by" in html and "or drawn; not &#x27;sideways&#x27;" in html
    assert "home or away" not in html and (home.name in html and away.name in html)


# --- Convoy ------------------------------------------------------------------------------


@pytest.fixture
def convoy():
    return make_fixture(Game.CONVOY, fixture_format={"games": 3})


def convoy_post(games, based_on=0, **extra):
    data = {"based_on_version": str(based_on), "action": "save"}
    for index, (winner, home, away) in enumerate(games):
        if winner:
            data[f"games.{index}.winner"] = winner
        data[f"games.{index}.convoys.home"] = str(home)
        data[f"games.{index}.convoys.away"] = str(away)
    data.update(extra)
    return data


def test_the_convoy_sheet_has_a_block_per_game_of_the_best_of(client, convoy):
    client.force_login(staff_of(convoy))

    html = client.get(entry_url(convoy)).content.decode()

    assert "Best of 3" in html
    for index in range(3):
        assert f'name="games.{index}.winner"' in html
    assert 'name="games.3.winner"' not in html


def test_a_convoy_best_of_three_is_saved_without_the_unneeded_game(client, convoy):
    client.force_login(staff_of(convoy))

    response = client.post(
        entry_url(convoy), convoy_post([("home", 3, 1), ("home", 3, 2), ("", "", "")])
    )

    assert response.status_code == 302
    version = ResultVersion.objects.get()
    assert len(version.sheet["games"]) == 2
    assert (version.home_score, version.away_score, version.winner) == (6, 3, "home")


def test_a_winner_without_three_convoys_is_refused_beside_the_count(client, convoy):
    client.force_login(staff_of(convoy))

    response = client.post(entry_url(convoy), convoy_post([("home", 2, 2), ("home", 3, 0)]))

    assert response.status_code == 400
    html = response.content.decode()
    count = re.search(r'<input[^>]*name="games\.0\.convoys\.home"[^>]*>', html, re.S).group(0)
    assert 'aria-invalid="true"' in count
    assert f"Game 1: {convoy.home_team.name} won" in html


def test_the_convoy_summary_shows_the_outcome_before_saving(client, convoy):
    client.force_login(staff_of(convoy))

    response = client.post(
        entry_url(convoy),
        convoy_post([("away", 1, 3), ("away", 0, 3)], action="preview"),
        **HTMX,
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="convoy-summary"')
    assert f"{convoy.away_team.name} win" in html
    assert f"League points: {convoy.home_team.name} 0, {convoy.away_team.name} 3" in html


# --- history -----------------------------------------------------------------------------


def test_the_history_shows_every_version_with_who_when_source_and_changes(client, korova):
    first, second = staff_of(korova), staff_of(korova)
    players = player_ids(korova)
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": players, "rounds": FULL_GAME},
        based_on_version=0,
        by=first,
    )
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": players, "rounds": FULL_GAME[:3] + [[20, 5, 5, 10]]},
        based_on_version=1,
        by=second,
        note="Cy and Dot were swapped",
    )
    client.force_login(first)

    response = client.get(history_url(korova))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Version 2" in html and "Version 1" in html
    assert first.username in html and second.username in html
    assert "Staff entry" in html
    assert "Cy and Dot were swapped" in html
    assert re.search(r"Round 4, Cy</th><td>10</td><td><strong>5</strong>", html)
    assert re.search(r"Round 4, Dot</th><td>5</td><td><strong>10</strong>", html)
    assert "The first result entered" in html


def test_the_history_of_a_fixture_without_a_result_says_so(client, korova):
    client.force_login(staff_of(korova))

    response = client.get(history_url(korova))

    assert response.status_code == 200
    assert "No result has been saved" in response.content.decode()


# --- staff home --------------------------------------------------------------------------


def test_staff_home_lists_only_fixtures_at_the_users_venues(client, korova):
    elsewhere = make_fixture()
    user = staff_of(korova)
    client.force_login(user)

    response = client.get(reverse("staff-home"))

    assert response.status_code == 200
    html = response.content.decode()
    assert entry_url(korova) in html
    assert entry_url(elsewhere) not in html
    assert korova.venue.name in html


def test_staff_home_shows_the_result_status(client, korova):
    user = staff_of(korova)
    Fixture.objects.filter(pk=korova.pk).update(starts_at=korova.starts_at.replace(year=2025))
    result_submit(
        fixture_id=korova.pk,
        sheet={"players": player_ids(korova), "rounds": FULL_GAME},
        based_on_version=0,
        by=user,
    )
    client.force_login(user)

    html = client.get(reverse("staff-home")).content.decode()

    recent = html.split('id="section-recent"')[1]
    assert "v1 · 100–60" in recent


def test_staff_home_refuses_users_who_serve_no_venue(client):
    client.force_login(UserFactory())

    assert client.get(reverse("staff-home")).status_code == 403


def test_staff_home_sends_anonymous_visitors_to_log_in(client):
    response = client.get(reverse("staff-home"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_staff_home_shows_the_tv_address_of_each_venue_the_user_serves(client, korova):
    user = staff_of(korova)
    screen = venue_screen_issue(venue_id=korova.venue_id)
    other = venue_screen_issue(venue_id=make_fixture().venue_id)
    unscreened = StaffMembershipFactory(user=user, venue=VenueFactory(name="The Quiet Pub")).venue
    client.force_login(user)

    html = client.get(reverse("staff-home")).content.decode()

    tv = html.split('id="section-tv"')[1]
    address = "http://testserver" + reverse("tv-screen", args=[korova.venue.slug, screen.token])
    assert f'href="{address}"' in tv
    assert other.token not in html  # another venue's screen stays secret
    assert unscreened.name in tv and "No TV address yet" in tv


def test_staff_home_shows_no_tv_addresses_to_a_league_admin_serving_no_venue(client, korova):
    screen = venue_screen_issue(venue_id=korova.venue_id)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))

    html = client.get(reverse("staff-home")).content.decode()

    assert 'id="section-tv"' not in html and screen.token not in html
