"""The Entry admin (scoring/season_rules/squads_admin.py): reserves registered through
reserve_register, refusals next to the row, and the withdraw action."""

import pytest
from django.urls import reverse

from leagues.models import Reserve, TeamMember, WithdrawalRule
from scoring.models import ResultVersion
from tests.admin_pages import change_url
from tests.factories import PlayerFactory
from tests.scoring.squads import make_squads

pytestmark = pytest.mark.django_db


def entry_form(entry, players):
    data = {
        "team": entry.team_id,
        "season": entry.season_id,
        "reserves-TOTAL_FORMS": len(players),
        "reserves-INITIAL_FORMS": 0,
        "reserves-MIN_NUM_FORMS": 0,
        "reserves-MAX_NUM_FORMS": 1000,
    }
    for index, player in enumerate(players):
        data[f"reserves-{index}-player"] = player.pk
    return data


def test_an_admin_registers_a_reserve_on_the_entry(client, superuser):
    squads = make_squads()
    player = PlayerFactory()
    client.force_login(superuser)

    answer = client.post(change_url(squads.entries[0]), entry_form(squads.entries[0], [player]))

    assert answer.status_code == 302
    assert Reserve.objects.get().player == player


def test_a_reserve_already_in_another_team_is_refused_next_to_the_row(client, superuser):
    squads = make_squads()
    other = TeamMember.objects.get(team=squads.teams[1], position=1).player
    client.force_login(superuser)

    answer = client.post(change_url(squads.entries[0]), entry_form(squads.entries[0], [other]))

    assert answer.status_code == 200
    assert "already plays for" in answer.content.decode()
    assert not Reserve.objects.exists()


def test_the_withdraw_action_applies_the_seasons_rule(client, superuser):
    squads = make_squads(withdrawal_rule=WithdrawalRule.KEEP)
    client.force_login(superuser)

    answer = client.post(
        reverse("admin:leagues_entry_changelist"),
        {"action": "withdraw", "_selected_action": [squads.entries[1].pk]},
        follow=True,
    )

    assert "withdrew" in answer.content.decode()
    squads.entries[1].refresh_from_db()
    assert squads.entries[1].withdrawn_on is not None
    assert ResultVersion.objects.get(fixture=squads.fixture).walkover == "home"
