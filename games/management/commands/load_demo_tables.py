"""A casual table in progress for the demo (`make run`, after load_demo); running it again
changes nothing while that table is still being played.

Ada Finch (login ada-finch / ada-finch-plays) plays Корова with three practice bots, with ten
minutes a turn; her first card is already down, so the bots answer as soon as the worker runs
and the table waits for her.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from games.engines import get_engine
from games.live.services import table_create, table_move
from games.models import Table

HOST_USERNAME = "ada-finch"
TURN_SECONDS = 600


class Command(BaseCommand):
    help = "Start the demo's casual Корова table with three bots (idempotent)."

    def handle(self, *args, **options):
        host = get_user_model().objects.filter(username=HOST_USERNAME).first()
        if host is None:
            raise CommandError(f"Run load_demo first: it creates the login {HOST_USERNAME}.")
        table = Table.objects.filter(
            created_by=host, fixture=None, status=Table.Status.PLAYING
        ).first()
        if table is None:
            table = table_create(
                game="korova",
                players=4,
                options={"turn_seconds": TURN_SECONDS},
                bots=[1, 2, 3],
                by=host,
            )
            eng = get_engine("korova")
            first_card = eng.legal_moves(eng.load(table.state), 0)[0]
            table_move(table_id=table.pk, turn=table.turn, move=first_card, by=host)
        self.stdout.write(
            f"Demo table in progress: /tables/{table.pk}/ (API /api/tables/{table.pk}/): "
            f"{table.seats.get(seat=0).name} and three bots at Корова."
        )
