"""Match night's pages through the test client: the entry page for the players of the fixture,
the fixture page's confirm and dispute, staff's decide page, and who is refused each; the
team, player and TV pages marking a result that does not count yet."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture, Player
from scoring.models import ResultVersion
from scoring.publishing.services import venue_screen_issue
from scoring.results import confirmation, services
from tests.factories import EntryFactory, UserFactory
from tests.scoring.results.match_night import MatchNight, match_night
from tests.scoring.results.staff_sheets import FULL_GAME, korova_post

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def night() -> MatchNight:
    return match_night()


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def enter_as_home(night):
    return services.result_submit(
        fixture_id=night.fixture.pk, sheet=night.sheet(), based_on_version=0, by=night.home[0]
    )


def count(night) -> int:
    return ResultVersion.objects.filter(fixture=night.fixture).count()


def entry(night) -> str:
    return reverse("result-entry", args=[night.fixture.pk])


def answer(night) -> str:
    return reverse("result-answer", args=[night.fixture.pk])


def decide(night) -> str:
    return reverse("result-decide", args=[night.fixture.pk])


def test_a_player_saves_the_sheet_on_the_entry_page_and_it_awaits(night):
    client = client_of(night.home[1])
    page = client.get(entry(night))
    assert page.status_code == 200 and "player-entry-notice" in page.content.decode()
    response = client.post(entry(night), korova_post(FULL_GAME))
    assert response.status_code == 302
    assert response["Location"] == reverse("fixture-detail", args=[night.fixture.pk])
    version = ResultVersion.objects.get(fixture=night.fixture)
    assert (version.confirmation, version.source) == ("awaiting", "player")
    html = client.get(response["Location"]).content.decode()
    assert "Awaiting confirmation" in html and 'id="confirm-result"' not in html


def test_the_entry_page_refuses_a_player_of_neither_team_and_staff_of_another_venue(night):
    for user in (night.stranger, night.other_staff):
        assert client_of(user).get(entry(night)).status_code == 403
        assert client_of(user).post(entry(night), korova_post(FULL_GAME)).status_code == 403
    assert count(night) == 0


def test_a_player_gets_no_sheet_to_write_over_a_confirmed_result(night):
    enter_as_home(night)
    confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])
    for user in night.home + night.away:
        response = client_of(user).post(entry(night), korova_post(FULL_GAME, based_on=2))
        assert response.status_code == 409
        assert "only staff of the venue" in response.content.decode()
    assert count(night) == 2


def test_the_other_team_disputes_on_the_entry_page_with_their_sheet_and_a_reason(night):
    enter_as_home(night)
    client = client_of(night.away[1])
    page = client.get(entry(night)).content.decode()
    assert "dispute-notice" in page and "Dispute with this sheet" in page
    theirs = [[20, 5, 30, 5]] + FULL_GAME[1:]
    refused = client.post(entry(night), korova_post(theirs, based_on=1))
    assert refused.status_code == 400 and "Say why you dispute" in refused.content.decode()
    assert count(night) == 1
    done = client.post(entry(night), korova_post(theirs, based_on=1, note="Round 1 was 30"))
    assert done.status_code == 302
    disputed = ResultVersion.objects.get(fixture=night.fixture, is_current=True)
    assert disputed.confirmation == "disputed" and disputed.sheet["rounds"][0] == [20, 5, 30, 5]


def test_the_fixture_page_offers_the_answer_only_to_the_other_team(night):
    enter_as_home(night)
    url = reverse("fixture-detail", args=[night.fixture.pk])
    for user in night.away:
        assert 'id="confirm-result"' in client_of(user).get(url).content.decode()
    for user in (*night.home, night.stranger, night.staff):
        assert 'id="confirm-result"' not in client_of(user).get(url).content.decode()
    assert 'id="decide-result"' in client_of(night.staff).get(url).content.decode()


@pytest.mark.parametrize("who", ["enterer", "partner", "stranger", "staff"])
def test_the_answer_form_refuses_everyone_but_the_other_team(night, who):
    enter_as_home(night)
    user = {
        "enterer": night.home[0],
        "partner": night.home[1],
        "stranger": night.stranger,
        "staff": night.staff,
    }[who]
    client = client_of(user)
    for body in (
        {"answer": "confirm", "version": 1},
        {"answer": "dispute", "version": 1, "reason": "x"},
    ):
        assert client.post(answer(night), body).status_code == 403
    assert count(night) == 1


def test_the_other_team_confirms_on_the_fixture_page(night):
    enter_as_home(night)
    response = client_of(night.away[0]).post(
        answer(night), {"answer": "confirm", "version": 1}, follow=True
    )
    assert "Result confirmed" in response.content.decode()
    assert ResultVersion.objects.get(fixture=night.fixture, is_current=True).confirmation == (
        "confirmed"
    )


def test_a_dispute_on_the_fixture_page_needs_a_reason(night):
    enter_as_home(night)
    client = client_of(night.away[0])
    response = client.post(answer(night), {"answer": "dispute", "version": 1}, follow=True)
    assert "Say why you dispute" in response.content.decode() and count(night) == 1
    client.post(answer(night), {"answer": "dispute", "version": 1, "reason": "Wrong"})
    assert ResultVersion.objects.get(fixture=night.fixture, is_current=True).note == "Wrong"


def test_anonymous_answers_go_to_the_login(night):
    enter_as_home(night)
    response = Client().post(answer(night), {"answer": "confirm", "version": 1})
    assert response.status_code == 302 and "login" in response["Location"]
    assert count(night) == 1


@pytest.fixture
def disputed(night):
    enter_as_home(night)
    confirmation.result_dispute(
        fixture_id=night.fixture.pk, version=1, reason="Round 1 was 30", by=night.away[0]
    )
    return night


def test_staff_see_the_dispute_first_and_decide_it_side_by_side(disputed):
    client = client_of(disputed.staff)
    home = client.get(reverse("staff-home")).content.decode()
    assert 'id="fixtures-disputed"' in home and decide(disputed) in home
    page = client.get(decide(disputed)).content.decode()
    assert 'id="decide-version-1"' in page and 'id="decide-version-2"' in page
    assert "Round 1 was 30" in page
    response = client.post(decide(disputed), {"version": 2, "choose": 1})
    assert response.status_code == 302
    assert ResultVersion.objects.get(fixture=disputed.fixture, is_current=True).source == "staff"


@pytest.mark.parametrize("who", ["other_staff", "enterer", "disputer"])
def test_the_decide_page_refuses_all_but_staff_of_the_venue_and_admins(disputed, who):
    user = {"other_staff": disputed.other_staff, "enterer": disputed.home[0]}.get(
        who, disputed.away[0]
    )
    client = client_of(user)
    assert client.get(decide(disputed)).status_code == 403
    assert client.post(decide(disputed), {"version": 2, "choose": 1}).status_code == 403
    assert count(disputed) == 2


def test_a_league_admin_decides(disputed):
    admin = UserFactory(is_superuser=True)
    client_of(admin).post(decide(disputed), {"version": 2, "choose": 2})
    assert ResultVersion.objects.get(fixture=disputed.fixture, is_current=True).number == 3


def test_the_season_page_names_the_results_its_table_does_not_count(disputed):
    fixture = disputed.fixture
    season = fixture.season
    for team in (fixture.home_team, fixture.away_team):
        EntryFactory(season=season, team=team)
    html = Client().get(reverse("season-detail", args=[season.league.slug, season.slug]))
    line = html.content.decode().split('id="uncounted-results"', 1)[1].split("</p>", 1)[0]
    assert f"{fixture.home_team.name} v {fixture.away_team.name}" in line and "disputed" in line
    fixtures = Client().get(reverse("season-fixtures", args=[season.league.slug, season.slug]))
    assert "Result disputed: staff decide" in fixtures.content.decode()


# --- a result that does not count yet, marked on the public pages -------------------------


def leave_unconfirmed(night, state: str) -> None:
    """The home team's result, awaiting the away team, or disputed by them."""
    enter_as_home(night)
    if state == "disputed":
        confirmation.result_dispute(
            fixture_id=night.fixture.pk, version=1, reason="Round 1 was 30", by=night.away[0]
        )


def fixture_row(html: str, fixture) -> str:
    """The table row of a team's fixture list that links to the fixture."""
    link = f'href="{reverse("fixture-detail", args=[fixture.pk])}"'
    return next(row for row in html.split("<tr>") if link in row).split("</tr>", 1)[0]


@pytest.mark.parametrize("state, mark", [("awaiting", "To confirm"), ("disputed", "Disputed")])
def test_the_team_and_player_pages_mark_a_result_that_does_not_count_yet(night, state, mark):
    leave_unconfirmed(night, state)
    fixture = night.fixture
    player = Player.objects.get(user=night.away[1])
    pages = [
        reverse("team-detail", args=[fixture.home_team.slug]),
        reverse("team-detail", args=[fixture.away_team.slug]),
        reverse("player-detail", args=[player.slug]),
    ]
    for page in pages:
        row = fixture_row(Client().get(page).content.decode(), fixture)
        assert f">{mark}</a>" in row, page
        assert "form-letter" not in row, page  # neither won nor lost: it does not count yet


def test_the_team_page_shows_the_score_and_outcome_once_the_result_is_confirmed(night):
    enter_as_home(night)
    confirmation.result_confirm(fixture_id=night.fixture.pk, version=1, by=night.away[0])
    page = reverse("team-detail", args=[night.fixture.away_team.slug])
    row = fixture_row(Client().get(page).content.decode(), night.fixture)
    assert "60–100" in row and "form-W" in row  # the away team's side: 60 heads beat 100
    assert "To confirm" not in row


@pytest.mark.parametrize("state, mark", [("awaiting", "to confirm"), ("disputed", "disputed")])
def test_the_tv_marks_tonights_result_that_does_not_count_and_its_table_leaves_it_out(
    night, state, mark
):
    fixture = night.fixture
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=timezone.now())
    for team in (fixture.home_team, fixture.away_team):
        EntryFactory(season=fixture.season, team=team)
    leave_unconfirmed(night, state)
    screen = venue_screen_issue(venue_id=fixture.venue_id)

    board = Client().get(reverse("tv-board", args=[fixture.venue.slug, screen.token]))
    html = board.content.decode()
    shown = html.split(f'id="tv-fixture-{fixture.pk}"', 1)[1].split("</li>", 1)[0]
    assert f'<span class="status">{mark}</span>' in shown
    for team in (fixture.home_team, fixture.away_team):
        # played, won, points: the table does not count the result yet
        assert f">{team.name}</th><td>0</td><td>0</td>" in html
