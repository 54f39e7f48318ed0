"""The season's admin page (scoring/season_admin.py, scoring/season_rules_form.py): the rules
as a form built from the game's options, refusals next to the field, the "Generate fixtures"
button and action."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from leagues.models import Entry, Fixture, Season
from scoring.models import PointsAdjustment, ResultVersion
from tests.admin_pages import change_url
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
)
from tests.scoring.division_builders import two_divisions

pytestmark = pytest.mark.django_db


def season_form(league, **fields):
    """The season's form as the browser posts it: blank options follow the game's defaults."""
    data = {
        "league": league.pk,
        "name": "Autumn 2026",
        "slug": "autumn-2026",
        "starts_on": "2026-09-01",
        "points_win": 3,
        "points_draw": 1,
        "points_loss": 0,
        "tie_breaker_1": "points",
        "tie_breaker_2": "difference",
        "tie_breaker_3": "head_to_head",
        "tie_breaker_4": "wins",
        "entries-TOTAL_FORMS": 0,
        "entries-INITIAL_FORMS": 0,
        "entries-MIN_NUM_FORMS": 0,
        "entries-MAX_NUM_FORMS": 1000,
        "divisions-TOTAL_FORMS": 0,
        "divisions-INITIAL_FORMS": 0,
        "divisions-MIN_NUM_FORMS": 0,
        "divisions-MAX_NUM_FORMS": 1000,
    }
    data.update(fields)
    return data


def season_change_form(season, **fields):
    data = season_form(season.league, name=season.name, slug=season.slug)
    data["starts_on"] = season.starts_on.isoformat()
    data.update(fields)
    return data


def test_the_rules_are_fields_built_from_the_games_options(client, superuser):
    season = SeasonFactory(league=LeagueFactory(game="korova"), rule_options={"end_score": 66})
    client.force_login(superuser)
    response = client.get(change_url(season))
    form = response.context["adminform"].form
    assert form.fields["option_end_score"].label == "Game ends at"
    assert form.fields["option_end_score"].initial == 66
    assert 'min="1"' in str(form["option_end_score"]) and 'max="1000"' in str(
        form["option_end_score"]
    )
    editions = dict(form.fields["option_edition"].choices)
    assert editions["classic"] == "Classic (55 has 7 heads)"
    assert editions[""].startswith("Default (Корова 006")
    assert [value for value, _ in form.fields["option_tactical"].choices] == ["", "true", "false"]
    assert dict(form.fields["tie_breaker_2"].choices)["head_to_head"] == "Head to head"
    assert "rule_options" not in form.fields and "tie_breakers" not in form.fields
    assert "format_games" not in form.fields  # Корова has no fixture format


def test_a_convoy_season_sets_its_best_of_n(client, superuser):
    season = SeasonFactory(league=LeagueFactory(game="convoy"))
    client.force_login(superuser)
    response = client.post(change_url(season), season_change_form(season, format_games=3))
    assert response.status_code == 302, response.context["adminform"].form.errors
    season.refresh_from_db()
    assert season.fixture_format == {"games": 3}


def test_an_admin_sets_the_seasons_language_on_its_page(client, superuser):
    """Its printed sheets and calendar read in it (leagues.models.Season.language)."""
    season = SeasonFactory(league=LeagueFactory(game="korova"))
    assert season.language == "en-gb"
    client.force_login(superuser)
    page = client.get(change_url(season))
    field = page.context["adminform"].form.fields["language"]
    assert dict(field.choices)["fi"] == "Suomi"
    assert 'name="language"' in page.content.decode()
    response = client.post(change_url(season), season_change_form(season, language="fi"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    season.refresh_from_db()
    assert season.language == "fi"


def test_a_post_without_the_language_keeps_the_seasons_language(client, superuser):
    season = SeasonFactory(league=LeagueFactory(game="korova"), language="ru")
    client.force_login(superuser)
    response = client.post(change_url(season), season_change_form(season, name="Renamed"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    season.refresh_from_db()
    assert season.name == "Renamed" and season.language == "ru"
    response = client.post(change_url(season), season_change_form(season, language=""))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.language == "ru"
    client.post(reverse("admin:leagues_season_add"), season_form(LeagueFactory(), slug="new"))
    assert Season.objects.get(slug="new").language == "en-gb"


def test_the_season_page_reads_in_finnish(client, superuser):
    season = SeasonFactory(league=LeagueFactory(game="korova"))
    FixtureFactory(season=season)
    client.force_login(superuser)
    page = client.get(change_url(season), headers={"accept-language": "fi"}).content.decode()
    for words in ("Sarjapisteet ja järjestys", "Pisteet voitosta", "Pelin Корова 006 säännöt"):
        assert words in page, words
    for english in ("League points and order", "Points for a win", "Order the table by"):
        assert english not in page, english


@pytest.mark.parametrize(
    ("game", "field", "value", "message"),
    [
        ("korova", "option_end_score", "0", "must be at least 1."),
        ("korova", "option_end_score", "1001", "must be at most 1000."),
        ("korova", "option_end_score", "sixty", "Enter a whole number."),
        ("korova", "option_end_score", "9" * 5000, "whole number"),
        ("korova", "option_edition", "deluxe", "Select a valid choice."),
        ("conquian", "option_carry_over", "triple", "Select a valid choice."),
        ("convoy", "format_games", "16", "from 1 to 15"),
        ("convoy", "format_games", "0", "from 1 to 15"),
        ("korova", "tie_breaker_2", "luck", "Select a valid choice."),
        ("korova", "tie_breaker_2", "points", "only once"),
        ("korova", "tie_breaker_1", "", "This field is required."),
        ("korova", "points_draw", "4", "win ≥ draw ≥ loss"),
        ("korova", "points_win", "100", "from 0 to 99"),
        ("korova", "points_loss", "-1", "from 0 to 99"),
    ],
)
def test_bad_rules_show_a_message_next_to_the_field_and_save_nothing(
    client, superuser, game, field, value, message
):
    season = SeasonFactory(league=LeagueFactory(game=game))
    before = season.history.count()
    client.force_login(superuser)
    response = client.post(change_url(season), season_change_form(season, **{field: value}))
    assert response.status_code == 200
    assert message in " ".join(response.context["adminform"].form.errors[field])
    season.refresh_from_db()
    assert season.history.count() == before


def test_a_new_season_then_its_games_options(client, superuser):
    team = TeamFactory()
    league = LeagueFactory(game="conquian")
    client.force_login(superuser)
    add = client.get(reverse("admin:leagues_season_add"))
    assert "option_target" not in add.context["adminform"].form.fields
    data = season_form(league, **{"entries-TOTAL_FORMS": 1, "entries-0-team": team.pk})
    response = client.post(reverse("admin:leagues_season_add"), data)
    season = Season.objects.get(slug="autumn-2026")
    assert response["Location"] == change_url(season)  # on to the game's options
    assert Entry.objects.filter(season=season, team=team).exists()
    response = client.post(
        change_url(season),
        season_change_form(
            season, option_target="7", option_carry_over="add", option_forcing="false"
        ),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.rule_options == {"target": 7, "carry_over": "add", "forcing": False}
    latest = season.history.first()
    assert latest.history_user == superuser
    assert latest.history_change_reason == "Rules changed: rule options"
    page = client.get(reverse("season-detail", args=[league.slug, season.slug])).content.decode()
    assert "7 deal points" in page and "add one to the next deal" in page


def test_the_add_page_linked_from_a_league_shows_its_games_options(client, superuser):
    league = LeagueFactory(game="korova")
    client.force_login(superuser)
    response = client.get(reverse("admin:leagues_season_add") + f"?league={league.pk}")
    assert "option_end_score" in response.context["adminform"].form.fields
    for bad in ("abc", "٣", "99999999999999999999"):
        response = client.get(reverse("admin:leagues_season_add") + f"?league={bad}")
        assert response.status_code == 200


def test_a_season_with_results_keeps_its_game_rules_but_changes_its_points(client, superuser):
    fixture = FixtureFactory(season=SeasonFactory(league=LeagueFactory(game="korova")))
    season = fixture.season
    ResultVersion.objects.create(
        fixture=fixture, number=1, sheet={}, home_score=1, away_score=2, winner="home"
    )
    client.force_login(superuser)
    form = client.get(change_url(season)).context["adminform"].form
    assert form.fields["option_end_score"].disabled
    response = client.post(
        change_url(season), season_change_form(season, option_end_score="50", points_win="2")
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.rule_options == {} and season.points_win == 2


def test_the_generate_button_saves_the_season_and_makes_its_fixtures(client, superuser):
    season = SeasonFactory(league=LeagueFactory(game="korova"))
    for _ in range(4):
        EntryFactory(season=season)
    client.force_login(superuser)
    page = client.get(change_url(season)).content.decode()
    assert 'name="_generate_fixtures"' in page
    response = client.post(
        change_url(season),
        season_change_form(season, name="Autumn 2026 (b)", _generate_fixtures="Generate fixtures"),
        follow=True,
    )
    assert response.redirect_chain[-1][0] == change_url(season)
    assert season.fixtures.count() == 12
    season.refresh_from_db()
    assert season.name == "Autumn 2026 (b)"
    shown = [str(message) for message in response.context["messages"]]
    assert any("12 fixtures in 6 rounds" in message for message in shown)


def test_the_generate_button_says_why_it_made_nothing(client, superuser):
    season = SeasonFactory(league=LeagueFactory(game="korova"), name="Autumn")
    EntryFactory(season=season)
    client.force_login(superuser)
    response = client.post(
        change_url(season), season_change_form(season, _generate_fixtures="1"), follow=True
    )
    shown = [str(message) for message in response.context["messages"]]
    assert any("needs at least two teams" in message for message in shown)
    assert not season.fixtures.exists()


def test_a_message_names_the_season_once(client, superuser):
    """Not "Корова Pub League Autumn: Корова Pub League Autumn already has…"."""
    fixture = FixtureFactory(season=SeasonFactory(name="Autumn"))
    season = fixture.season
    EntryFactory(season=season, team=fixture.home_team)
    EntryFactory(season=season, team=fixture.away_team)
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)
    client.force_login(superuser)
    response = client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "generate_fixtures", "_selected_action": [season.pk]},
        follow=True,
    )
    (message,) = [str(message) for message in response.context["messages"]]
    assert message.count(str(season)) == 1
    assert message.startswith(f"{season}: The season already has results")


def test_staff_without_the_permission_see_no_generate_button(client):
    user = UserFactory(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_season"))
    season = SeasonFactory()
    client.force_login(user)
    page = client.get(change_url(season)).content.decode()
    assert 'name="_generate_fixtures"' not in page
    client.post(change_url(season), season_change_form(season, _generate_fixtures="1"))
    assert not season.fixtures.exists()


def test_superuser_runs_generate_fixtures_from_the_season_list(client, superuser):
    season = SeasonFactory()
    for _ in range(4):
        EntryFactory(season=season)
    lonely = SeasonFactory(name="Lonely")
    EntryFactory(season=lonely)
    client.force_login(superuser)
    response = client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "generate_fixtures", "_selected_action": [season.pk, lonely.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert season.fixtures.count() == 12
    assert not lonely.fixtures.exists()
    shown = [str(message) for message in response.context["messages"]]
    assert any("12 fixtures in 6 rounds" in message for message in shown)
    assert any("Lonely" in message and "at least two teams" in message for message in shown)
    history = Fixture.history.filter(season_id=season.pk)
    assert set(history.values_list("history_user", flat=True)) == {superuser.pk}


def test_season_page_lists_its_fixtures_by_round(client, superuser):
    fixture = FixtureFactory(round=3)
    client.force_login(superuser)
    page = client.get(change_url(fixture.season)).content.decode()
    assert f"{fixture.home_team} v {fixture.away_team}" in page
    assert change_url(fixture) in page


def test_venue_staff_cannot_run_generate_fixtures(client, crown_staff):
    season = SeasonFactory()
    EntryFactory(season=season)
    EntryFactory(season=season)
    client.force_login(crown_staff.user)
    response = client.post(
        reverse("admin:leagues_season_changelist"),
        {"action": "generate_fixtures", "_selected_action": [season.pk]},
    )
    assert response.status_code == 403
    assert not season.fixtures.exists()


def test_a_season_whose_stored_rules_are_not_options_still_opens(client, superuser):
    season = SeasonFactory(
        league=LeagueFactory(game="convoy"), rule_options=["end_score"], fixture_format="3"
    )
    client.force_login(superuser)
    response = client.get(change_url(season))
    assert response.status_code == 200
    assert response.context["adminform"].form.fields["format_games"].initial == ""


# ---- Divisions, entries, adjustments and the rollover --------------------------------------


def test_a_new_season_gets_its_one_division_and_its_entries_go_in_it(client, superuser):
    team = TeamFactory()
    client.force_login(superuser)
    data = season_form(LeagueFactory(), **{"entries-TOTAL_FORMS": 1, "entries-0-team": team.pk})
    client.post(reverse("admin:leagues_season_add"), data)
    season = Season.objects.get(slug="autumn-2026")
    division = season.divisions.get()
    assert (division.name, division.level) == ("Division 1", 1)
    assert Entry.objects.get(season=season, team=team).division == division


def test_a_team_entered_twice_is_told_it_plays_in_one_division(client, superuser):
    season = SeasonFactory()
    team = TeamFactory()
    client.force_login(superuser)
    data = season_change_form(
        season,
        **{
            "entries-TOTAL_FORMS": 2,
            "entries-0-team": team.pk,
            "entries-1-team": team.pk,
        },
    )
    response = client.post(change_url(season), data)
    assert response.status_code == 200
    assert "a team plays in one division of a season" in response.content.decode()
    assert not Entry.objects.filter(season=season).exists()


def test_the_rollover_previews_and_creates_nothing_until_confirmed(client, superuser):
    world = two_divisions()
    client.force_login(superuser)
    url = reverse("admin:leagues_season_rollover", args=[world.season.pk])
    preview = client.get(url).content.decode()
    assert "Low A" in preview and "promoted" in preview and "relegated" in preview
    assert Season.objects.count() == 1
    form = {"name": "2027", "slug": "s-2027", "starts_on": "2027-09-01"}
    client.post(url, {**form, "_preview": "1"})
    assert Season.objects.count() == 1
    response = client.post(url, {**form, "_confirm": "1"})
    successor = Season.objects.get(slug="s-2027")
    assert response["Location"] == change_url(successor)
    again = client.post(url, {**form, "slug": "again", "_confirm": "1"}).content.decode()
    assert "already rolled over" in again
    assert Season.objects.count() == 2


def test_staff_and_players_cannot_roll_over_or_adjust_points(client):
    world = two_divisions()
    staff = StaffMembershipFactory(venue=world.top_teams[0].home_venue).user
    staff.is_staff = True
    staff.save()
    player = PlayerFactory(user=UserFactory(is_staff=True)).user
    for user in (staff, player):
        client.force_login(user)
        url = reverse("admin:leagues_season_rollover", args=[world.season.pk])
        assert client.get(url).status_code == 403
        assert client.get(reverse("admin:scoring_pointsadjustment_add")).status_code == 403
    assert Season.objects.count() == 1


def test_a_league_admin_deducts_points_in_the_admin(client, superuser):
    world = two_divisions()
    client.force_login(superuser)
    data = {
        "season": world.season.pk,
        "team": world.top_teams[0].pk,
        "points": "-3",
        "reason": "Late result",
        "on": "2026-11-01",
    }
    response = client.post(reverse("admin:scoring_pointsadjustment_add"), data)
    assert response.status_code == 302
    adjustment = PointsAdjustment.objects.get()
    assert (adjustment.points, adjustment.created_by) == (-3, superuser)
    refused = client.post(reverse("admin:scoring_pointsadjustment_add"), {**data, "points": "0"})
    assert "not 0" in refused.content.decode()
    assert PointsAdjustment.objects.count() == 1


def test_a_league_admin_creates_a_divisions_play_off_from_the_division_list(client, superuser):
    world = two_divisions(playoff=True)
    client.force_login(superuser)
    client.post(
        reverse("admin:leagues_division_changelist"),
        {"action": "create_playoffs", "_selected_action": [world.second.pk]},
    )
    playoff = Fixture.objects.get(stage=Fixture.Stage.PLAYOFF)
    assert (playoff.home_team, playoff.away_team) == tuple(world.second_teams[:2])
    assert playoff.division == world.second


def test_the_rollover_preview_warns_of_unplayed_league_fixtures_and_still_goes_ahead(
    client, superuser
):
    world = two_divisions()
    unplayed = Fixture.objects.filter(season=world.season, division=world.second)[:2]
    for fixture in unplayed:
        fixture.result_versions.all().delete()
        fixture.status = Fixture.Status.SCHEDULED
        fixture.save(update_fields=["status"])
    client.force_login(superuser)
    url = reverse("admin:leagues_season_rollover", args=[world.season.pk])

    preview = client.get(url).content.decode()

    assert (
        "2 league fixtures of this season are still to be played. If you confirm, the rollover "
        "goes ahead anyway: the table as it stands decides who goes up and who comes down."
    ) in preview
    form = {"name": "2027", "slug": "s-2027", "starts_on": "2027-09-01", "_confirm": "1"}
    assert client.post(url, form).status_code == 302
    assert Season.objects.filter(slug="s-2027").exists()


def test_the_rollover_preview_of_a_finished_season_has_no_warning(client, superuser):
    world = two_divisions()
    client.force_login(superuser)
    preview = client.get(reverse("admin:leagues_season_rollover", args=[world.season.pk]))
    assert "still to be played" not in preview.content.decode()
