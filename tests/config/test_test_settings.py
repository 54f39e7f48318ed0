"""config.test_settings: the suite's own tasks never land in the checkout's broker folder, where
`make run`'s worker would take them afterwards."""

from pathlib import Path

import pytest
from django.conf import settings

from games.live import services
from tests.conftest import ROOT
from tests.factories import UserFactory

CHECKOUT_QUEUE = ROOT / "var" / "celery" / "queue"


def _messages(folder: Path) -> set[str]:
    return {path.name for path in folder.glob("*.msg")} if folder.is_dir() else set()


@pytest.mark.django_db(transaction=True)
def test_a_tables_tasks_sent_by_a_test_stay_out_of_the_checkouts_queue():
    before = _messages(CHECKOUT_QUEUE)
    services.table_create(
        game="korova", players=4, options={"turn_seconds": 30}, bots=[1, 2, 3], by=UserFactory()
    )  # on commit: its turn's expiry and its bots' tasks
    assert _messages(CHECKOUT_QUEUE) <= before
    if settings.CELERY_BROKER_URL == "filesystem://":  # (on Redis they go to Redis)
        options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        assert _messages(Path(options["data_folder_in"])), "the tasks were sent to the run's own"
