from django.apps import AppConfig
from django.db.models.signals import post_save


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # leagues and scoring know nothing of live tables, so live play listens for a fixture
        # postponed, voided or moved, and closes its unfinished tables (games.live.fixture_day).
        from games.live.fixture_day import fixture_saved
        from leagues.models import Fixture

        post_save.connect(fixture_saved, sender=Fixture, dispatch_uid="games.fixture_saved")
