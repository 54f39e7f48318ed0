"""REST API of live tables, at the paths of docs/contracts.md ("The live-table API").

One view per operation: each validates its input and calls one service or selector. The
refusals are config.errors' kinds (games/live/exceptions.py), answered by the API's exception
handler (config/api_errors.py) with the statuses of docs/api.md: TableInvalid and IllegalMove
→ 400, NotYourTurn and Forbidden → 403, no such table or fixture → 404, TurnConflict (with the
current turn), TableClosed, TooManyOpenTables and scoring's BeforeFixtureDay (with its code and
the day, as for a result) → 409. Starting a table and moving are throttled per user (429 with
Retry-After: games/live/throttles.py). A table's JSON comes from
games.live.selectors.table_for_viewer, which shows only the requester's own seat (docs/api.md).
"""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import FIELD_ERRORS_SCHEMA, ErrorOutputSerializer
from config.values import whole_number
from games.models import Table
from leagues.models import Game

from .selectors import table_as_seen, table_for_viewer, table_log_for_viewer
from .services import (
    fixture_tables_start,
    table_cancel,
    table_claim,
    table_create,
    table_join,
    table_move,
    table_pause,
    table_resume,
    table_unpause,
)
from .throttles import TableCreateThrottle, TableMoveThrottle

# ---- Shapes -----------------------------------------------------------------------------------


class SeatOutputSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(
        allow_null=True,
        help_text="The player's name; a bot's name says it is a bot; null for an open seat.",
    )
    bot = serializers.BooleanField()
    bank = serializers.FloatField(help_text="Seconds left in the seat's time bank.")
    away = serializers.IntegerField(
        help_text="How many of its turns in a row the clock has played (0 after a move of its "
        "own); the others may claim the seat from `claim_after_timeouts` on."
    )
    pause_asked = serializers.BooleanField(help_text="The seat's player asked for a pause.")
    claimed_by = serializers.CharField(
        allow_null=True,
        help_text="At a fixture's table, the name of the player who claimed this seat "
        "(the venue's staff decide); null otherwise.",
    )


class TableOutputSerializer(serializers.Serializer):
    """A table as the requester may see it."""

    id = serializers.IntegerField()
    game = serializers.ChoiceField(choices=Game.choices)
    status = serializers.ChoiceField(choices=Table.Status.values)
    turn = serializers.IntegerField(help_text="The open turn: send it with your move.")
    deadline = serializers.CharField(
        allow_null=True, help_text="When the turn expires, ISO 8601 UTC with milliseconds."
    )
    turn_seconds = serializers.IntegerField()
    seats = SeatOutputSerializer(many=True)
    seat = serializers.IntegerField(allow_null=True, help_text="Your seat; null if not seated.")
    to_act = serializers.ListField(child=serializers.IntegerField())
    view = serializers.JSONField(
        allow_null=True, help_text="The engine's view for your seat (a spectator's if none)."
    )
    outcome = serializers.JSONField(allow_null=True, help_text="Once the game is over.")
    fixture = serializers.IntegerField(allow_null=True)
    cut = serializers.JSONField(
        allow_null=True, help_text="A fixture table's cut for the first deal (who sits in seat 0)."
    )
    held = serializers.BooleanField(
        help_text="A fixture table whose game waits for the venue's staff: a seat let the clock "
        "play its turns; no clock runs and moves are refused until staff resume it."
    )
    awaiting = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats of a waiting fixture table whose players have not joined yet.",
    )
    time_bank_seconds = serializers.IntegerField(
        help_text="Each seat's time bank for the game, drawn on when a turn's clock runs out "
        "(0: none)."
    )
    claim_after_timeouts = serializers.IntegerField(
        help_text="After how many of its turns in a row played by the clock a seat may be claimed."
    )
    bank_running = serializers.BooleanField(
        help_text="The turn's own clock has run out: the seats to act are drawing on their "
        "banks, and `deadline` is when the smallest of those runs out."
    )
    paused = serializers.BooleanField(
        help_text="Every seated player asked for a pause: no clock runs (`deadline` null) and "
        "moves are refused until a player goes on."
    )
    paused_left = serializers.FloatField(
        allow_null=True, help_text="While paused, the seconds the turn had left."
    )


class LogEntryOutputSerializer(serializers.Serializer):
    turn = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.JSONField(
        allow_null=True, help_text="Null only while hidden from you (another seat's pick)."
    )
    timeout = serializers.BooleanField(help_text="The clock made this move.")
    at = serializers.CharField()


class TurnConflictOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
    turn = serializers.IntegerField(help_text="The table's current turn.")


class WholeNumberField(serializers.IntegerField):
    """A whole number as the API's filters take one (config.values.whole_number): DRF's
    own field reads 4.0, "4.0" and "٤" as 4; here 4 (or "4" in a form) only."""

    def to_internal_value(self, data):
        if whole_number(data) is None:
            self.fail("invalid")
        return super().to_internal_value(data)


class TableCreateInputSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=Game.choices)
    players = WholeNumberField(min_value=1, max_value=10)
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text="The engine's options; `turn_seconds` is the table's clock, 2 to 3600.",
    )
    # The seats are checked by table_create, which names the field with one sentence; a
    # child serializer would answer per index ({"bots": {"0": [...]}}), not {field: [...]}.
    bots = serializers.ListField(
        child=serializers.JSONField(allow_null=True),
        required=False,
        default=list,
        help_text="Seats (1 and up) that practice bots take.",
    )


class MoveInputSerializer(serializers.Serializer):
    """For the schema only: docs/api.md fixes the refusals of any body (TableMoveApi.post)."""

    turn = serializers.IntegerField(help_text="The turn you are answering.")
    move = serializers.JSONField(help_text='The move, e.g. {"card": 55} (docs/engines.md).')


class ClaimInputSerializer(serializers.Serializer):
    seat = WholeNumberField(min_value=0, help_text="The seat claimed (0 and up).")


class BeforeFixtureDayOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.ChoiceField(choices=["before_fixture_day"])
    fixture_day = serializers.DateField(help_text="The day the fixture is played.")


def _refusal(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorOutputSerializer, description=description)


_THROTTLED = _refusal("Too many requests from you lately; Retry-After says when to try again")


# ---- Views ------------------------------------------------------------------------------------


class TableCreateApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TableCreateThrottle]

    @extend_schema(
        tags=["tables"],
        summary="Open a casual table",
        description="You sit in seat 0, bots take the seats listed, the others are open to "
        "join; the game starts when every seat is filled.",
        request=TableCreateInputSerializer,
        examples=[
            OpenApiExample(
                "Корова with three bots",
                value={
                    "game": "korova",
                    "players": 4,
                    "options": {"turn_seconds": 30},
                    "bots": [1, 2, 3],
                },
                request_only=True,
            )
        ],  # fmt: skip
        responses={
            201: TableOutputSerializer,
            400: OpenApiResponse(FIELD_ERRORS_SCHEMA, description="Bad game, players or options"),
            401: _refusal("Not authenticated"),
            409: _refusal("You already have the most tables waiting for players anyone may"),
            429: _THROTTLED,
        },
    )
    def post(self, request):
        given = TableCreateInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(given.errors, status=status.HTTP_400_BAD_REQUEST)
        table = table_create(**given.validated_data, by=request.user)
        return Response(
            table_for_viewer(table_id=table.pk, user=request.user), status=status.HTTP_201_CREATED
        )


class TableDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["tables"],
        summary="A table as you may see it",
        description="`seat` is null and `view` a spectator's for someone not seated.",
        responses={200: TableOutputSerializer, 404: _refusal("No such table")},
    )
    def get(self, request, pk: int):
        return Response(table_for_viewer(table_id=pk, user=request.user))


class TableJoinApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary='Take an open seat at a casual table, or say "I am here" at a fixture\'s',
        description="At a fixture's table the seats belong to the fixture's players: joining "
        "marks your seat, and the table stays `waiting` (no clock) until every seated player "
        "has joined; then the game starts. Joining again changes nothing.",
        request=None,
        responses={
            200: TableOutputSerializer,
            401: _refusal("Not authenticated"),
            403: _refusal("A fixture's table where you hold no seat"),
            404: _refusal("No such table"),
            409: _refusal("No open seat, or the game has begun"),
        },
    )
    def post(self, request, pk: int):
        table_join(table_id=pk, by=request.user)
        return Response(table_for_viewer(table_id=pk, user=request.user))


class TableCancelApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary="Close a casual table still waiting for players",
        description="Only the player who opened it. The table and its seats are gone "
        "(players who joined lose their seat; the table is then 404) and no longer count "
        "against your waiting tables.",
        request=None,
        responses={
            204: OpenApiResponse(description="Closed: the table is gone"),
            401: _refusal("Not authenticated"),
            403: _refusal("You did not open this table, or it is a fixture's"),
            404: _refusal("No such table"),
            409: _refusal("The game has begun or ended"),
        },
    )
    def post(self, request, pk: int):
        table_cancel(table_id=pk, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TableMoveApi(APIView):
    permission_classes = [IsAuthenticated]
    throttle_classes = [TableMoveThrottle]

    @extend_schema(
        tags=["tables"],
        summary="Make a move",
        description="Send the turn you saw. A move after the turn's deadline is refused (409) "
        "and the turn is expired; a seat that already acted this turn gets 409. Nothing "
        "changes on any refusal.",
        request=MoveInputSerializer,
        examples=[
            OpenApiExample(
                "A Корова pick", value={"turn": 12, "move": {"card": 55}}, request_only=True
            )
        ],  # fmt: skip
        responses={
            200: TableOutputSerializer,
            400: _refusal("An illegal move (the engine's message) or bad input"),
            401: _refusal("Not authenticated"),
            403: _refusal("You hold no seat that is to act"),
            404: _refusal("No such table"),
            409: OpenApiResponse(
                TurnConflictOutputSerializer, description="Stale, duplicate or late"
            ),
            429: _THROTTLED,
        },
    )
    def post(self, request, pk: int):
        # No field errors here: whatever `turn` holds is a 409 unless it is the open turn, and
        # whatever `move` holds goes to the engine, whose sentence is the 400 (docs/api.md), each
        # only after the checks before it (games.live.services.table_move).
        body = request.data if isinstance(request.data, dict) else {}
        table = table_move(
            table_id=pk, by=request.user, turn=body.get("turn"), move=body.get("move")
        )
        return Response(table_as_seen(table=table, user=request.user))


class TableLogApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        tags=["tables"],
        summary="The table's move log, time-outs included",
        responses={200: LogEntryOutputSerializer(many=True), 404: _refusal("No such table")},
    )
    def get(self, request, pk: int):
        return Response(table_log_for_viewer(table_id=pk, user=request.user))


class TableResumeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary="Go on with a held fixture table",
        description="Staff of the fixture's venue or a league admin: the open turn of a held "
        "table (`held: true`) gets a fresh clock.",
        request=None,
        responses={
            200: TableOutputSerializer,
            401: _refusal("Not authenticated"),
            403: _refusal("Not staff of the fixture's venue"),
            404: _refusal("No such table"),
            409: _refusal("The table is not held"),
        },
    )
    def post(self, request, pk: int):
        table = table_resume(table_id=pk, by=request.user)
        return Response(table_as_seen(table=table, user=request.user))


class TablePauseApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary="Ask for a pause",
        description="A round at the bar: the clock stops when every seated player (not the "
        "bots) has asked; the turn's time left is kept (`paused_left`) and moves are refused "
        "(409) until a player goes on (`unpause`). Asking again changes nothing.",
        request=None,
        responses={
            200: TableOutputSerializer,
            401: _refusal("Not authenticated"),
            403: _refusal("You hold no seat at this table"),
            404: _refusal("No such table"),
            409: _refusal("The game is not being played, or it is held"),
        },
    )
    def post(self, request, pk: int):
        table = table_pause(table_id=pk, by=request.user)
        return Response(table_as_seen(table=table, user=request.user))


class TableUnpauseApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary="Go on after a pause",
        description="Any seated player: every ask for a pause is withdrawn and, if the table "
        "is paused, its turn gets back the time it had left.",
        request=None,
        responses={
            200: TableOutputSerializer,
            401: _refusal("Not authenticated"),
            403: _refusal("You hold no seat at this table"),
            404: _refusal("No such table"),
            409: _refusal("The game is not being played, or it is held"),
        },
    )
    def post(self, request, pk: int):
        table = table_unpause(table_id=pk, by=request.user)
        return Response(table_as_seen(table=table, user=request.user))


class TableClaimApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary="Claim the seat of a player who has gone",
        description="Another seated player, once the seat's `away` has reached the table's "
        "`claim_after_timeouts`. At a casual table a practice bot takes the seat at once; at "
        "a fixture's table the game is held and the claim goes to the venue's staff, who "
        "resume it or enter the fixture's result. Claiming again changes nothing.",
        request=ClaimInputSerializer,
        examples=[OpenApiExample("Seat 2", value={"seat": 2}, request_only=True)],
        responses={
            200: TableOutputSerializer,
            400: OpenApiResponse(FIELD_ERRORS_SCHEMA, description="No such seat"),
            401: _refusal("Not authenticated"),
            403: _refusal("You hold no seat at this table"),
            404: _refusal("No such table"),
            409: _refusal(
                "Your own seat, a bot's, a seat not away long enough, or the game is not on"
            ),
        },
    )
    def post(self, request, pk: int):
        given = ClaimInputSerializer(data=request.data)
        if not given.is_valid():
            return Response(given.errors, status=status.HTTP_400_BAD_REQUEST)
        table = table_claim(table_id=pk, seat=given.validated_data["seat"], by=request.user)
        return Response(table_as_seen(table=table, user=request.user))


class FixtureTablesApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        tags=["tables"],
        summary="Set up a fixture's live tables",
        description="Staff of the venue or a player of the fixture, on the fixture's day only. "
        "Seats are bound to the teams' players, and the cut decides seat 0; each table waits "
        "until its seated players have joined (`POST /api/tables/{id}/join/`). The tables play "
        "the season's rules and clock: a body with `options` is refused (400). A repeat call "
        "answers 200 with the same tables.",
        request=None,
        responses={
            200: TableOutputSerializer(many=True),
            201: TableOutputSerializer(many=True),
            400: OpenApiResponse(
                FIELD_ERRORS_SCHEMA, description="`options` sent, or season rules unplayable"
            ),
            401: _refusal("Not authenticated"),
            403: _refusal("Neither staff of the venue nor a player of the fixture"),
            404: _refusal("No such fixture"),
            409: OpenApiResponse(
                BeforeFixtureDayOutputSerializer,
                description="The fixture's day has not come (`code`: `before_fixture_day`), or "
                "it has passed (staff can move the fixture to a new date), or the fixture is "
                "void, postponed or already played (`detail` only)",
            ),
        },
    )
    def post(self, request, pk: int):
        tables, started = fixture_tables_start(
            fixture_id=pk,
            by=request.user,
            options_sent=isinstance(request.data, dict) and "options" in request.data,
        )
        body = [table_for_viewer(table_id=table.pk, user=request.user) for table in tables]
        return Response(body, status=status.HTTP_201_CREATED if started else status.HTTP_200_OK)
