"""REST API of match night's answers (docs/match-night.md): a player of the team that did not
enter an awaiting result confirms it or disputes it, through scoring.results.confirmation's
services. Their refusals carry their own answers (config/errors.py): PermissionDenied → 403,
NotCurrentVersion → 409 with the current version's number, FixtureNotOpen → 409.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.auth import TokenAuthentication
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ErrorOutputSerializer
from leagues.models import Fixture
from scoring.results.api_shapes import (
    ResultVersionOutputSerializer,
    SheetErrorOutputSerializer,
    SheetField,
    may_see_author,
    sheet_input_errors,
)
from scoring.results.confirmation import (
    result_answer_check,
    result_answer_version_check,
    result_confirm,
    result_dispute,
)
from scoring.results.selectors import result_version_json
from scoring.results.services import NOTE_MAX_LENGTH


def _ensure_player(request, fixture: Fixture) -> None:
    """Before validation, as for a submission: who may not answer (anyone but a player of the
    team that did not enter the result) gets 403 whatever the version or the body, and learns
    nothing from 400s or 409s. (The service asks again under its lock.)"""
    result_answer_check(fixture=fixture, by=request.user)


class ResultConfirmInputSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1, help_text="The current version's number: the awaiting result you answer."
    )


class ResultDisputeInputSerializer(ResultConfirmInputSerializer):
    reason = serializers.CharField(
        max_length=NOTE_MAX_LENGTH, help_text="Why the result is wrong (the version's note)."
    )
    sheet = SheetField(
        required=False,
        help_text="Optional: your team's account of the sheet (the fixture's game's shape); "
        "without it the disputed sheet is kept beside your reason.",
    )


class ConfirmationConflictOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(
        required=False, help_text="not_current_version: answer the current version, or none."
    )
    version = serializers.IntegerField(help_text="The current version's number.")


_ANSWER_RESPONSES = {
    200: ResultVersionOutputSerializer,
    401: OpenApiResponse(ErrorOutputSerializer, description="Not authenticated"),
    403: OpenApiResponse(
        ErrorOutputSerializer,
        description="Not a player of the team that did not enter it (the enterer and their "
        "partner included), or staff",
    ),
    404: OpenApiResponse(ErrorOutputSerializer, description="No such fixture, or no result"),
    409: OpenApiResponse(
        ConfirmationConflictOutputSerializer,
        description="`version` is not the current version, or the result no longer awaits "
        "an answer (confirmed or disputed already)",
    ),
}


class FixtureResultConfirmApi(APIView):
    """A player of the team that did not enter the awaiting result confirms it."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["results"],
        summary="Confirm the result the other team entered",
        description=(
            "Writes the next version: the same sheet, `confirmation` `confirmed` (it counts in "
            "the table from now on). Open to the players of the team that did not enter the "
            "awaiting result; 403 for anyone else, the player who entered it and their partner "
            "included. 409 with the current `version` when `version` is not the current one, "
            "or when the result no longer awaits (already confirmed, or disputed)."
        ),
        request=ResultConfirmInputSerializer,
        responses={
            **_ANSWER_RESPONSES,
            400: OpenApiResponse(ErrorOutputSerializer, description="No valid version"),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        _ensure_player(request, fixture)
        given = ResultConfirmInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(given.errors, status=status.HTTP_400_BAD_REQUEST)
        version = result_confirm(
            fixture_id=fixture.pk, version=given.validated_data["version"], by=request.user
        )
        return Response(
            result_version_json(version=version, show_author=may_see_author(request, fixture))
        )


class FixtureResultDisputeApi(APIView):
    """A player of the team that did not enter the awaiting result disputes it."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["results"],
        summary="Dispute the result the other team entered",
        description=(
            "Writes the next version, `confirmation` `disputed`, with `reason` as its note and "
            "(optionally) your own `sheet`: it does not count, and no window confirms it; the "
            "venue's staff and the league's admins decide. The same people as for confirming "
            "may dispute, with the same 403 and 409; `reason` is required (400 naming it)."
        ),
        request=ResultDisputeInputSerializer,
        responses={
            **_ANSWER_RESPONSES,
            400: OpenApiResponse(
                SheetErrorOutputSerializer, description="No reason, or an invalid sheet"
            ),
        },
    )
    def post(self, request, pk: int):
        fixture = get_object_or_404(Fixture, pk=pk)
        _ensure_player(request, fixture)
        given = ResultDisputeInputSerializer(data=request.data)
        if not given.is_valid():
            answered = ResultConfirmInputSerializer(data=request.data)
            if answered.is_valid():  # a stale version is told (409) before the body (400)
                result_answer_version_check(
                    fixture=fixture, version=answered.validated_data["version"]
                )
            return Response(sheet_input_errors(given.errors), status=status.HTTP_400_BAD_REQUEST)
        version = result_dispute(
            fixture_id=fixture.pk,
            version=given.validated_data["version"],
            reason=given.validated_data["reason"],
            sheet=given.validated_data.get("sheet"),
            by=request.user,
        )
        return Response(
            result_version_json(version=version, show_author=may_see_author(request, fixture))
        )
