"""REST API of match night's schedule (docs/match-night.md, contract in docs/api.md): a player
proposes a new date for their fixture, the other team accepts or declines it; players and
reserves say whether they can play.

One view per operation: it validates the input with its serializer, calls one service of
leagues.services and answers with the output serializer. The services' refusals
(config/errors.py) are answered by the API's exception handler: 400 naming the field, 403,
404, 409.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.auth import TokenAuthentication
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import FIELD_ERRORS_SCHEMA, ErrorOutputSerializer
from config.errors import Forbidden, NotFound

from . import schedule_services, selectors
from .models import Fixture, RescheduleProposal
from .permissions import (
    NOT_FIXTURE_PLAYER,
    NOT_FIXTURE_SQUAD,
    fixture_squad_player,
    fixture_team_of,
)

AUTHENTICATION = [TokenAuthentication, SessionAuthentication]  # token first: 401 says how


def _fixture(pk: int) -> Fixture:
    fixture = Fixture.objects.filter(pk=pk).first()
    if fixture is None:
        raise NotFound(_("There is no such fixture."))
    return fixture


_REFUSALS = {
    401: OpenApiResponse(ErrorOutputSerializer, description="Not authenticated"),
    404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture or proposal"),
}


# ---- Proposals --------------------------------------------------------------------------------


class RescheduleInputSerializer(serializers.Serializer):
    starts_at = serializers.DateTimeField(
        help_text="The new date and time (ISO 8601; without an offset, the league's local time)."
    )
    message = serializers.CharField(
        max_length=schedule_services.MESSAGE_MAX_LENGTH,
        required=False,
        allow_blank=True,
        default="",
    )


class RescheduleOutputSerializer(serializers.ModelSerializer):
    fixture = serializers.IntegerField(source="fixture_id")
    team = serializers.IntegerField(source="team_id", help_text="The team that proposed it.")
    status = serializers.ChoiceField(choices=RescheduleProposal.Status.choices)

    class Meta:
        model = RescheduleProposal
        fields = ["id", "fixture", "team", "starts_at", "message", "status", "decided_at"]


class FixtureRescheduleApi(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["match night"],
        summary="Propose a new date for a fixture",
        description=(
            "A player of either team proposes a new date with a message; the other team "
            "accepts or declines it (`/api/reschedules/{id}/accept/`, `/decline/`). One "
            "proposal waits at a time. Staff and league admins move fixtures directly."
        ),
        request=RescheduleInputSerializer,
        responses={
            201: RescheduleOutputSerializer,
            400: OpenApiResponse(FIELD_ERRORS_SCHEMA, description="A bad date or message"),
            403: OpenApiResponse(ErrorOutputSerializer, description="Not a player of the fixture"),
            409: OpenApiResponse(
                ErrorOutputSerializer,
                description="The fixture is played or void, or a proposal already waits",
            ),
            **_REFUSALS,
        },
    )
    def post(self, request, pk: int):
        # Permission before validation: who may not write learns nothing from the 400s (the
        # service checks again under its lock).
        if fixture_team_of(user=request.user, fixture=_fixture(pk)) is None:
            raise Forbidden(_(NOT_FIXTURE_PLAYER))
        given = RescheduleInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        proposal = schedule_services.reschedule_propose(
            fixture_id=pk,
            starts_at=given.validated_data["starts_at"],
            message=given.validated_data["message"],
            by=request.user,
        )
        return Response(RescheduleOutputSerializer(proposal).data, status=status.HTTP_201_CREATED)


_ANSWER_RESPONSES = {
    200: RescheduleOutputSerializer,
    403: OpenApiResponse(
        ErrorOutputSerializer,
        description="Not a player of the other team (the proposing team included)",
    ),
    409: OpenApiResponse(
        ErrorOutputSerializer,
        description="Already decided; on accept also a played or void fixture, or a past date",
    ),
    **_REFUSALS,
}


class RescheduleAcceptApi(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["match night"],
        summary="Accept a proposed date: the fixture moves to it",
        request=None,
        responses=_ANSWER_RESPONSES,
    )
    def post(self, request, pk: int):
        proposal = schedule_services.reschedule_accept(proposal_id=pk, by=request.user)
        return Response(RescheduleOutputSerializer(proposal).data)


class RescheduleDeclineApi(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["match night"],
        summary="Decline a proposed date: the fixture keeps its date",
        request=None,
        responses=_ANSWER_RESPONSES,
    )
    def post(self, request, pk: int):
        proposal = schedule_services.reschedule_decline(proposal_id=pk, by=request.user)
        return Response(RescheduleOutputSerializer(proposal).data)


# ---- Availability -----------------------------------------------------------------------------


class AvailabilityInputSerializer(serializers.Serializer):
    available = serializers.BooleanField(help_text="true: I can play; false: I cannot.")


class MarkOutputSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    available = serializers.BooleanField(allow_null=True, help_text="null: not said yet.")


class TeamAvailabilityOutputSerializer(serializers.Serializer):
    team = serializers.IntegerField(source="team.pk")
    players = MarkOutputSerializer(many=True)
    reserves = MarkOutputSerializer(many=True)
    stand_ins = MarkOutputSerializer(
        many=True, help_text="The reserves who said they can play: who could stand in."
    )


class FixtureAvailabilityOutputSerializer(serializers.Serializer):
    fixture = serializers.IntegerField()
    home = TeamAvailabilityOutputSerializer()
    away = TeamAvailabilityOutputSerializer()


class AvailabilityOutputSerializer(serializers.Serializer):
    fixture = serializers.IntegerField(source="fixture_id")
    player = serializers.IntegerField(source="player_id")
    available = serializers.BooleanField()


class FixtureAvailabilityApi(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        tags=["match night"],
        summary="Who can play a fixture: both teams' players and reserves",
        responses={200: FixtureAvailabilityOutputSerializer, 404: _REFUSALS[404]},
    )
    def get(self, request, pk: int):
        fixture = _fixture(pk)
        home, away = selectors.fixture_availability(fixture=fixture)
        return Response(
            FixtureAvailabilityOutputSerializer(
                {"fixture": fixture.pk, "home": home, "away": away}
            ).data
        )

    @extend_schema(
        tags=["match night"],
        summary="Say whether I can play a fixture",
        description=(
            "For the requesting user: a player of either team, or a reserve registered for "
            "one of them in the season. Saying it again replaces the answer."
        ),
        request=AvailabilityInputSerializer,
        responses={
            200: AvailabilityOutputSerializer,
            400: OpenApiResponse(
                FIELD_ERRORS_SCHEMA, description="`available` missing or not a boolean"
            ),
            403: OpenApiResponse(
                ErrorOutputSerializer, description="Not a player or reserve of either team"
            ),
            409: OpenApiResponse(ErrorOutputSerializer, description="A played or void fixture"),
            **_REFUSALS,
        },
    )
    def put(self, request, pk: int):
        if fixture_squad_player(user=request.user, fixture=_fixture(pk)) is None:
            raise Forbidden(_(NOT_FIXTURE_SQUAD))
        given = AvailabilityInputSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        availability = schedule_services.availability_set(
            fixture_id=pk, available=given.validated_data["available"], by=request.user
        )
        return Response(AvailabilityOutputSerializer(availability).data)
