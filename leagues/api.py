"""Read-only REST API for leagues, seasons, teams, players and venues (fixtures with their
results are scoring's: scoring/fixture_api.py).

One view per operation (list or detail), each with its own small output serializer. Lists are
paginated (?page=, ?page_size= up to 200) and filtered with django-filter; every query is a
fixed number of SQL statements whatever the page holds (select_related/prefetch_related).
"""

from collections.abc import Sequence

from django import forms
from django.db import connection
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.pagination import BasePagination, PageNumberPagination
from rest_framework.permissions import (
    AllowAny,
    BasePermission,
    OperandHolder,
    SingleOperandHolder,
)

from config.values import whole_number

from . import selectors
from .models import Game, League, Player, Season, Team, TeamMember, Venue


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class ReadOnlyApi:
    """Anyone may read; the read API never writes."""

    # Annotated as DRF's views declare them (a permission class or one combined with & | ~),
    # so that the mixin agrees with the views it comes before in each API class's bases.
    permission_classes: Sequence[type[BasePermission] | OperandHolder | SingleOperandHolder] = [
        AllowAny
    ]
    pagination_class: type[BasePagination] | None = Pagination


class AsciiWholeNumberField(forms.IntegerField):
    """forms.IntegerField reads any Unicode digits ("٣", "３") and "1.0" as whole numbers;
    here a whole number is written in ASCII digits with an optional minus sign, as ids are
    everywhere else on the site (the admin's, the addresses' <int:…>)."""

    def to_python(self, value):
        if value not in self.empty_values and whole_number(str(value)) is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


@extend_schema_field(
    {"type": "integer", "format": "int64", "minimum": -(2**63), "maximum": 2**63 - 1}
)
class WholeNumberFilter(filters.NumberFilter):
    """An id or a round: a whole number in ASCII digits, so "1.5" or "٣" is a 400 ("Enter a
    whole number."), not 1 or 3, and one the database can hold, so a 30-digit id is a 400 too
    (SQLite cannot even compare it: OverflowError)."""

    field_class = AsciiWholeNumberField

    def __init__(self, *args, **kwargs):
        low, high = connection.ops.integer_field_range("BigIntegerField")
        kwargs.setdefault("min_value", low)
        kwargs.setdefault("max_value", high)
        super().__init__(*args, **kwargs)


# ---- Small nested shapes ----------------------------------------------------------------------


class VenueRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Venue
        fields = ["id", "name", "slug"]


class TeamRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Team
        fields = ["id", "name", "slug"]


class LeagueRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "slug", "game"]


class SeasonRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "slug"]


class TeamPlayerSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField(source="player.id")
    name = serializers.CharField(source="player.name")
    slug = serializers.CharField(source="player.slug")

    class Meta:
        model = TeamMember
        fields = ["id", "name", "slug", "position"]


# ---- Leagues ----------------------------------------------------------------------------------


class LeagueOutputSerializer(serializers.ModelSerializer):
    seasons = SeasonRefSerializer(many=True)

    class Meta:
        model = League
        fields = ["id", "name", "slug", "game", "description", "seasons"]


class LeagueFilter(filters.FilterSet):
    game = filters.ChoiceFilter(choices=Game.choices)

    class Meta:
        model = League
        fields = ["game"]


@extend_schema(tags=["leagues"], summary="List leagues")
class LeagueListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = LeagueOutputSerializer
    filterset_class = LeagueFilter

    def get_queryset(self):
        return selectors.league_queryset()


@extend_schema(tags=["leagues"], summary="A league and its seasons")
class LeagueDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = LeagueOutputSerializer

    def get_queryset(self):
        return selectors.league_queryset()


# ---- Seasons ----------------------------------------------------------------------------------


class SeasonDivisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField(help_text="1 is the top division.")
    promoted = serializers.IntegerField(help_text="How many teams go up at the season's end.")
    relegated = serializers.IntegerField(help_text="How many teams go down at the season's end.")
    teams = serializers.ListField(child=serializers.IntegerField(), help_text="Team ids.")


class SeasonOutputSerializer(serializers.ModelSerializer):
    league = LeagueRefSerializer()
    game = serializers.ChoiceField(choices=Game.choices, source="league.game")
    teams = serializers.SerializerMethodField()
    rule_options = serializers.DictField(help_text="The game's rule options by name.")
    fixture_format = serializers.DictField(
        help_text="The game's fixture format (docs/leagues.md), e.g. best of N games."
    )
    tie_breakers = serializers.ListField(child=serializers.CharField())
    divisions = serializers.SerializerMethodField(
        help_text="The season's divisions, top first, each with its teams."
    )

    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "game",
            "name",
            "slug",
            "starts_on",
            "rule_options",
            "fixture_format",
            "points_win",
            "points_draw",
            "points_loss",
            "tie_breakers",
            "teams",
            "divisions",
        ]

    @extend_schema_field(TeamRefSerializer(many=True))
    def get_teams(self, season) -> list[dict]:
        teams = selectors.season_teams(season=season)
        return [{"id": team.pk, "name": team.name, "slug": team.slug} for team in teams]

    @extend_schema_field(SeasonDivisionSerializer(many=True))
    def get_divisions(self, season) -> list[dict]:
        return [
            {
                "id": division.pk,
                "name": division.name,
                "level": division.level,
                "promoted": division.promoted,
                "relegated": division.relegated,
                "teams": team_ids,
            }
            for division, team_ids in selectors.division_team_ids(season=season)
        ]


class SeasonFilter(filters.FilterSet):
    league = WholeNumberFilter(field_name="league_id", help_text="League id")
    game = filters.ChoiceFilter(field_name="league__game", choices=Game.choices)

    class Meta:
        model = Season
        fields = ["league", "game"]


@extend_schema(tags=["seasons"], summary="List seasons")
class SeasonListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = SeasonOutputSerializer
    filterset_class = SeasonFilter

    def get_queryset(self):
        return selectors.season_queryset()


@extend_schema(tags=["seasons"], summary="A season: rules, points, tie-breakers and teams")
class SeasonDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = SeasonOutputSerializer

    def get_queryset(self):
        return selectors.season_queryset()


# ---- Venues -----------------------------------------------------------------------------------


class VenueOutputSerializer(serializers.ModelSerializer):
    teams = TeamRefSerializer(many=True, source="home_teams")

    class Meta:
        model = Venue
        fields = ["id", "name", "slug", "address", "teams"]


@extend_schema(tags=["venues"], summary="List venues")
class VenueListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = VenueOutputSerializer
    filter_backends = []

    def get_queryset(self):
        return selectors.venue_queryset()


@extend_schema(tags=["venues"], summary="A venue and the teams based there")
class VenueDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = VenueOutputSerializer
    filter_backends = []

    def get_queryset(self):
        return selectors.venue_queryset()


# ---- Teams ------------------------------------------------------------------------------------


class TeamOutputSerializer(serializers.ModelSerializer):
    home_venue = VenueRefSerializer()
    players = TeamPlayerSerializer(many=True, source="members")

    class Meta:
        model = Team
        fields = ["id", "name", "slug", "home_venue", "players"]


class TeamFilter(filters.FilterSet):
    season = WholeNumberFilter(field_name="entries__season_id", help_text="Season id")
    venue = WholeNumberFilter(field_name="home_venue_id", help_text="Home venue id")

    class Meta:
        model = Team
        fields = ["season", "venue"]


@extend_schema(tags=["teams"], summary="List teams")
class TeamListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = TeamOutputSerializer
    filterset_class = TeamFilter

    def get_queryset(self):
        return selectors.team_queryset()


@extend_schema(tags=["teams"], summary="A team, its home venue and its two players")
class TeamDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = TeamOutputSerializer

    def get_queryset(self):
        return selectors.team_queryset()


# ---- Players ----------------------------------------------------------------------------------


class PlayerTeamSerializer(serializers.ModelSerializer):
    id = serializers.IntegerField(source="team.id")
    name = serializers.CharField(source="team.name")
    slug = serializers.CharField(source="team.slug")

    class Meta:
        model = TeamMember
        fields = ["id", "name", "slug", "position"]


class PlayerOutputSerializer(serializers.ModelSerializer):
    teams = PlayerTeamSerializer(many=True, source="memberships")

    class Meta:
        model = Player
        fields = ["id", "name", "slug", "teams"]


class PlayerFilter(filters.FilterSet):
    team = WholeNumberFilter(field_name="memberships__team_id", help_text="Team id")

    class Meta:
        model = Player
        fields = ["team"]


@extend_schema(tags=["players"], summary="List players")
class PlayerListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = PlayerOutputSerializer
    filterset_class = PlayerFilter

    def get_queryset(self):
        return selectors.player_queryset()


@extend_schema(tags=["players"], summary="A player and their teams")
class PlayerDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = PlayerOutputSerializer

    def get_queryset(self):
        return selectors.player_queryset()
