"""Read-only REST API of fixtures with their current results (/api/fixtures/).

One view per operation (list or detail), each with its own small output serializer, paginated
and filtered like the rest of the read API (leagues/api.py); every query is a fixed number of
SQL statements whatever the page holds.
"""

from django.db.models import Q
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers

from leagues.api import (
    LeagueRefSerializer,
    ReadOnlyApi,
    SeasonRefSerializer,
    TeamRefSerializer,
    VenueRefSerializer,
    WholeNumberFilter,
)
from leagues.competitions import COMPETITION_RELATED, fixture_competition
from leagues.models import Fixture
from leagues.selectors import division_fixtures_q
from scoring.models import ResultVersion
from scoring.results import fixture_results


class ResultSummarySerializer(serializers.ModelSerializer):
    version = serializers.IntegerField(source="number")
    walkover = serializers.SerializerMethodField(
        help_text='null, or "home" / "away": the team awarded a walkover (no game was played).'
    )

    class Meta:
        model = ResultVersion
        fields = ["version", "home_score", "away_score", "winner", "walkover", "confirmation"]

    @extend_schema_field(
        serializers.ChoiceField(choices=ResultVersion.Walkover.values, allow_null=True)
    )
    def get_walkover(self, version) -> str | None:
        return version.walkover or None


class CompetitionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["league", "cup"])
    id = serializers.IntegerField(required=False, help_text="The cup's id (a cup tie only).")
    name = serializers.CharField(required=False, help_text="The cup's name (a cup tie only).")
    round = serializers.IntegerField(
        required=False, help_text="The cup round's number, 1 first (a cup tie only)."
    )


class FixtureOutputSerializer(serializers.ModelSerializer):
    season = SeasonRefSerializer()
    league = LeagueRefSerializer(source="season.league")
    home_team = TeamRefSerializer()
    away_team = TeamRefSerializer()
    venue = VenueRefSerializer()
    result = serializers.SerializerMethodField(
        help_text="The current result, or null when none has been entered."
    )
    division = serializers.IntegerField(
        source="division_id",
        read_only=True,
        allow_null=True,
        help_text="The division's id (a league fixture or play-off), or null (a cup tie).",
    )
    competition = serializers.SerializerMethodField(
        help_text='{"kind": "league"} for a league fixture or play-off; a cup tie names its '
        "cup and round."
    )

    class Meta:
        model = Fixture
        fields = [
            "id",
            "season",
            "league",
            "division",
            "competition",
            "round",
            "home_team",
            "away_team",
            "venue",
            "starts_at",
            "status",
            "postponed_reason",
            "result",
        ]

    @extend_schema_field(ResultSummarySerializer(allow_null=True))
    def get_result(self, fixture) -> dict | None:
        results = getattr(fixture, "current_results", None)
        return ResultSummarySerializer(results[0]).data if results else None

    @extend_schema_field(CompetitionSerializer)
    def get_competition(self, fixture) -> dict:
        return fixture_competition(fixture)


class FixtureFilter(filters.FilterSet):
    season = WholeNumberFilter(field_name="season_id", help_text="Season id")
    division = WholeNumberFilter(method="filter_division", help_text="Division id")
    round = WholeNumberFilter(field_name="round")
    status = filters.ChoiceFilter(choices=Fixture.Status.choices)
    team = WholeNumberFilter(method="filter_team", help_text="Team id, home or away")
    venue = WholeNumberFilter(field_name="venue_id", help_text="Venue id")
    cup = WholeNumberFilter(field_name="cup_tie__round__cup_id", help_text="Cup id: its ties")
    date_from = filters.DateFilter(
        field_name="starts_at", lookup_expr="date__gte", help_text="On or after this date"
    )
    date_to = filters.DateFilter(
        field_name="starts_at", lookup_expr="date__lte", help_text="On or before this date"
    )

    class Meta:
        model = Fixture
        fields = [
            "season",
            "division",
            "cup",
            "round",
            "status",
            "team",
            "venue",
            "date_from",
            "date_to",
        ]

    def filter_division(self, queryset, name, value):
        return queryset.filter(division_fixtures_q(division_id=value))

    def filter_team(self, queryset, name, value):
        return queryset.filter(Q(home_team_id=value) | Q(away_team_id=value))


@extend_schema(tags=["fixtures"], summary="List fixtures")
class FixtureListApi(ReadOnlyApi, generics.ListAPIView):
    serializer_class = FixtureOutputSerializer
    filterset_class = FixtureFilter

    def get_queryset(self):
        return fixture_results.fixture_queryset().select_related(*COMPETITION_RELATED)


@extend_schema(tags=["fixtures"], summary="A fixture and its current result")
class FixtureDetailApi(ReadOnlyApi, generics.RetrieveAPIView):
    serializer_class = FixtureOutputSerializer

    def get_queryset(self):
        return fixture_results.fixture_queryset().select_related(*COMPETITION_RELATED)
