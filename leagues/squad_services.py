"""Writes for a team's squad: its two players (`team_players_set`) and the reserves registered
for its entry in a season (`reserve_register`, with its check `reserve_register_check`, which the
admin form also asks), under the season's eligibility rule (docs/seasons-walkovers-squads.md).

Each runs in one transaction and locks the rows its decision depends on before reading them;
refusals are config.errors kinds (Invalid keyed by the field at fault, Forbidden, NotFound), as
in leagues.services.
"""

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Invalid, NotFound

from .eligibility import team_players_ensure_eligible
from .models import Eligibility, Entry, Player, Reserve, Team, TeamMember
from .permissions import AnyUser
from .selectors import team_player_ids
from .services import ensure_can_manage_fixtures, season_lock

# Teams


@transaction.atomic
def team_players_set(*, team: Team, players: list[Player]) -> list[TeamMember]:
    """Make `players` the team's two players, in order (positions 1 and 2).

    Replacing both rows at once lets an admin swap positions 1 and 2, which row-by-row updates
    cannot do under the one-player-per-position constraint. Raises Invalid (on "players")
    unless exactly two different players are given, or when a new one already plays for
    another team of a season the team is entered in and still playing, as that season's
    eligibility rule says (leagues.eligibility; the seasons' rows are locked first).
    """
    players = list(players)
    if len(players) != 2:
        raise Invalid(errors={"players": _("A team has exactly two players.")})
    if players[0].pk == players[1].pk:
        raise Invalid(errors={"players": _("A team's two players must be different people.")})
    team = Team.objects.select_for_update().get(pk=team.pk)
    current = team_player_ids(team_ids=[team.pk])[team.pk]
    if current == [player.pk for player in players]:
        return list(team.members.order_by("position"))
    joining = [player.pk for player in players if player.pk not in current]
    team_players_ensure_eligible(team=team, player_ids=joining)
    team.members.all().delete()
    return TeamMember.objects.bulk_create(
        TeamMember(team=team, player=player, position=position)
        for position, player in enumerate(players, start=1)
    )


# Squads


def reserve_register_check(*, entry: Entry, player: Player) -> None:
    """Raise Invalid (on "player") unless `player` may be registered as a reserve of `entry`:
    the season's limit of reserves, not one of the team's two already nor its reserve, and
    the season's eligibility rule (docs/seasons-walkovers-squads.md):

    - one_team: nobody plays for two teams of a season, as a player or a reserve;
    - one_per_div: nobody plays for two teams of the same division;
    - limited: a player of another team may be registered; their appearances for this team
      are limited when a result is saved (Season.appearance_limit).

    The admin asks it to put the refusal next to the field; reserve_register asks it again
    under its locks.
    """
    season = entry.season
    team = entry.team
    if TeamMember.objects.filter(team_id=team.pk, player_id=player.pk).exists():
        raise Invalid(
            errors={
                "player": _("%(player)s is one of %(team)s's two players already, not a reserve.")
                % {"player": player, "team": team}
            }
        )
    if Reserve.objects.filter(entry_id=entry.pk, player_id=player.pk).exists():
        raise Invalid(
            errors={
                "player": _("%(player)s is already a reserve of %(team)s.")
                % {"player": player, "team": team}
            }
        )
    registered = Reserve.objects.filter(entry_id=entry.pk).count()
    if registered >= season.reserves_allowed:
        raise Invalid(
            errors={
                "player": ngettext(
                    "%(team)s has %(registered)s reserve already: %(season)s allows %(allowed)s "
                    "a team.",
                    "%(team)s has %(registered)s reserves already: %(season)s allows %(allowed)s "
                    "a team.",
                    registered,
                )
                % {
                    "team": team,
                    "registered": registered,
                    "season": season,
                    "allowed": season.reserves_allowed,
                }
            }
        )
    if season.eligibility == Eligibility.LIMITED:
        return
    others = Entry.objects.filter(season_id=season.pk).exclude(pk=entry.pk)
    if season.eligibility == Eligibility.ONE_PER_DIVISION:
        others = (
            others.filter(division__isnull=True)
            if entry.division_id is None
            else others.filter(division_id=entry.division_id)
        )
    other = (
        others.filter(Q(team__members__player_id=player.pk) | Q(reserves__player_id=player.pk))
        .select_related("team")
        .first()
    )
    if other is not None:
        if season.eligibility == Eligibility.ONE_PER_DIVISION:
            message = _(
                "%(player)s already plays for %(team)s in this division: a player plays for "
                "one team in each division."
            )
        else:
            message = _(
                "%(player)s already plays for %(team)s this season: a player plays for one "
                "team a season."
            )
        raise Invalid(errors={"player": message % {"player": player, "team": other.team}})


@transaction.atomic
def reserve_register(*, entry_id: int, player_id: int, by: AnyUser | None) -> Reserve:
    """Register `player_id` as a reserve of the team's entry in its season.

    The season row is locked first: two registrations of one player for two teams run one
    after the other, so the eligibility rule holds. Raises Forbidden unless `by` is a league
    admin (None: the command line), NotFound for no such entry or player, and Invalid (on
    "player") as reserve_register_check says; nothing is written then.
    """
    ensure_can_manage_fixtures(user=by)
    try:
        entry = Entry.objects.select_related("team").get(pk=entry_id)
        player = Player.objects.get(pk=player_id)
    except (Entry.DoesNotExist, Player.DoesNotExist):
        raise NotFound(_("There is no such entry or player.")) from None
    entry.season = season_lock(season_id=entry.season_id)
    reserve_register_check(entry=entry, player=player)
    reserve = Reserve(entry=entry, player=player)
    reserve._history_user = by  # type: ignore[attr-defined]  # django-simple-history's
    reserve.save()
    return reserve
