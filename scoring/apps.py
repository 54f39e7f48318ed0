from django.apps import AppConfig
from django.db.models.signals import post_save


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        # leagues knows nothing of scoring, so scoring listens for fixtures changing status.
        from leagues.models import Fixture
        from scoring.ratings import queue, tasks  # noqa: F401  (tasks: Celery's shared tasks)
        from scoring.results import tasks as results_tasks  # noqa: F401  (the same)
        from scoring.results.services import result_recorded

        post_save.connect(queue.fixture_saved, sender=Fixture, dispatch_uid="scoring.fixture_saved")
        # Results sit below ratings: a saved result is announced, and ratings queue their work.
        result_recorded.connect(queue.result_recorded, dispatch_uid="scoring.result_recorded")
