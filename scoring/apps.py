from django.apps import AppConfig
from django.db.models.signals import post_save


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        # leagues knows nothing of scoring, so scoring listens for fixtures changing status.
        from leagues.models import Fixture

        from .rating_queue import fixture_saved

        post_save.connect(fixture_saved, sender=Fixture, dispatch_uid="scoring.fixture_saved")
