from django.apps import AppConfig
from django.db.models.signals import post_save


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        # leagues knows nothing of scoring, so scoring listens for fixtures changing status.
        from leagues.models import Fixture, RescheduleProposal
        from scoring.cups.services import cup_result_recorded
        from scoring.match_night import queue as notices
        from scoring.match_night import tasks as notice_tasks  # noqa: F401  (Celery's)
        from scoring.models import ResultVersion
        from scoring.ratings import queue, tasks  # noqa: F401  (tasks: Celery's shared tasks)
        from scoring.results import tasks as results_tasks  # noqa: F401  (the same)
        from scoring.results.services import result_recorded

        post_save.connect(queue.fixture_saved, sender=Fixture, dispatch_uid="scoring.fixture_saved")
        # Match night's notices: a proposal or a result version saved may be news for someone.
        for model in (RescheduleProposal, ResultVersion):
            post_save.connect(
                notices.notices_send_on_commit,
                sender=model,
                dispatch_uid=f"notices.{model.__name__}",
            )
        # Results sit below ratings: a saved result is announced, and ratings queue their work.
        result_recorded.connect(queue.result_recorded, dispatch_uid="scoring.result_recorded")
        # A cup tie's winner goes through at once, in the result's own transaction.
        result_recorded.connect(cup_result_recorded, dispatch_uid="scoring.cup_result_recorded")
