"""Receivers of model signals for leagues (connected in LeaguesConfig.ready)."""

from .models import Season
from .services import season_divisions_ensure


def season_created(sender, instance: Season, created: bool, raw: bool = False, **kwargs) -> None:
    """post_save of Season: a new season gets its one division ("Division 1") at once, however
    it was made (`Season.objects.create` included), so that no season is ever without one. A
    writer that sets the divisions itself right after (the rollover, the season admin's add
    page with its divisions inline) sets `season._divisions_follow` and calls
    season_divisions_ensure once they are saved. Fixtures loaded raw bring their own."""
    if created and not raw and not getattr(instance, "_divisions_follow", False):
        season_divisions_ensure(season=instance, by=getattr(instance, "_history_user", None))
