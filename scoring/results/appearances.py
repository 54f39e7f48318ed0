"""A substitute's appearances for a team not their own (docs/seasons-walkovers-squads.md).

Under the season's "limited" eligibility, one of another team's two players may stand in for a
team only Season.appearance_limit times; result_submit asks here before it writes a lineup.
"""

from django.utils.translation import gettext as _

from config.errors import Invalid
from leagues.models import Eligibility, Fixture, Player, Season, TeamMember
from scoring.models import ResultVersion


def ensure_appearances_allowed(
    *, season: Season, fixture: Fixture, record: dict[str, list[int]]
) -> None:
    """Under the season's "limited" eligibility, a substitute who is one of another team's two
    players may play for a team not theirs only Season.appearance_limit times (this fixture's
    own versions aside). Raises Invalid on "lineup"."""
    if season.eligibility != Eligibility.LIMITED or not record["substitutes"]:
        return
    own_team = dict(
        TeamMember.objects.filter(
            player_id__in=record["substitutes"], team__entries__season_id=season.pk
        ).values_list("player_id", "team_id")
    )
    teams = {"home": fixture.home_team_id, "away": fixture.away_team_id}
    elsewhere = {
        pk
        for side in ("home", "away")
        for pk in record[side]
        if pk in own_team and own_team[pk] != teams[side]
    }
    if not elsewhere:
        return
    appearances = dict.fromkeys(elsewhere, 0)
    for lineup, home_id, away_id in (
        ResultVersion.objects.counted()
        .filter(fixture__season_id=season.pk)
        .exclude(fixture_id=fixture.pk)
        .values_list("lineup", "fixture__home_team_id", "fixture__away_team_id")
    ):
        for side, team_id in (("home", home_id), ("away", away_id)):
            for pk in (lineup or {}).get(side, []):
                if pk in appearances and own_team[pk] != team_id:
                    appearances[pk] += 1
    for pk, count in appearances.items():
        if count >= season.appearance_limit:
            name = Player.objects.get(pk=pk).name
            raise Invalid(
                errors={
                    "lineup": _(
                        "%(name)s has played %(count)s times for a team not their own this "
                        "season: %(season)s allows %(limit)s."
                    )
                    % {
                        "name": name,
                        "count": count,
                        "season": season,
                        "limit": season.appearance_limit,
                    }
                }
            )
