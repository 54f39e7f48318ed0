"""REST API of walkovers: staff of the fixture's venue (or a league admin) award the fixture to
the team that turned up, through scoring.results.walkovers.result_walkover_award.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from knox.auth import TokenAuthentication
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from leagues.models import Fixture
from leagues.permissions import ensure_can_enter_results
from scoring.results.api_shapes import ConflictOutputSerializer, ResultVersionOutputSerializer
from scoring.results.selectors import result_version_json
from scoring.results.services import NOTE_MAX_LENGTH
from scoring.results.walkovers import result_walkover_award


class WalkoverInputSerializer(serializers.Serializer):
    team = serializers.CharField(
        help_text='"home" or "away": the team that turned up, awarded the fixture.'
    )
    note = serializers.CharField(
        max_length=NOTE_MAX_LENGTH, required=False, allow_blank=True, default=""
    )


class WalkoverErrorOutputSerializer(serializers.Serializer):
    team = serializers.ListField(child=serializers.CharField(), required=False)
    note = serializers.ListField(child=serializers.CharField(), required=False)
    non_field_errors = serializers.ListField(child=serializers.CharField(), required=False)
    detail = serializers.CharField(required=False)


class FixtureWalkoverApi(APIView):
    """POST: award the fixture to the team that turned up (a walkover)."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=["results"],
        summary="Award a walkover",
        description=(
            "The other team did not turn up: the fixture's result becomes a walkover to "
            "`team`, a new version like any other (empty sheet, the season's walkover score, "
            "`walkover` set). It counts in the table with the season's walkover points and "
            "never in ratings or players' figures. Staff of the fixture's venue and league "
            "admins only. A walkover may replace a walkover, never a played result (409: "
            "correct or void that first)."
        ),
        request=WalkoverInputSerializer,
        examples=[OpenApiExample("Home team turned up", value={"team": "home", "note": ""})],
        responses={
            201: ResultVersionOutputSerializer,
            400: OpenApiResponse(WalkoverErrorOutputSerializer, description="Bad team or note"),
            401: OpenApiResponse(ErrorOutputSerializer, description="Not authenticated"),
            403: OpenApiResponse(ErrorOutputSerializer, description="Not staff of this venue"),
            404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture"),
            409: OpenApiResponse(
                ConflictOutputSerializer,
                description="A played result stands, a void fixture, or before its day",
            ),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        ensure_can_enter_results(user=request.user, venue_id=fixture.venue_id)
        given = WalkoverInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(given.errors, status=status.HTTP_400_BAD_REQUEST)
        version = result_walkover_award(
            fixture_id=fixture.pk,
            team=given.validated_data["team"],
            by=request.user,
            note=given.validated_data["note"],
        )
        return Response(
            result_version_json(version=version, show_author=True), status=status.HTTP_201_CREATED
        )
