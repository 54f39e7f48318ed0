"""Each game's sheet in the OpenAPI schema (scoring/results/sheet_serializers/<game>.py): the
shape only, for the schema's readers; the kind's validation checks a sheet."""

from leagues.models import Game
from scoring.kinds.registry import GameRegistry

from .conquian import ConquianSheetSerializer
from .convoy import ConvoySheetSerializer
from .korova import KorovaSheetSerializer

SHEET_SERIALIZERS: GameRegistry[type] = GameRegistry(
    "sheet serializer",
    {
        Game.CONVOY: ConvoySheetSerializer,
        Game.KOROVA: KorovaSheetSerializer,
        Game.CONQUIAN: ConquianSheetSerializer,
    },
)
