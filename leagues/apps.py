from django.apps import AppConfig
from django.db.models.signals import post_save


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self):
        # A season always has a division, however it was made (docs/seasons.md).
        from leagues.models import Season
        from leagues.receivers import season_created

        post_save.connect(season_created, sender=Season, dispatch_uid="leagues.season_created")
