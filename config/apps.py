from django.apps import AppConfig
from django.core import checks


class SiteConfig(AppConfig):
    """The project's own package, listed among INSTALLED_APPS for its system checks and the
    public page cache's signals."""

    name = "config"
    verbose_name = "Roundel site"

    def ready(self):
        from config.checks import shared_cache
        from config.page_cache import connect_signals

        checks.register(shared_cache, checks.Tags.caches, deploy=True)
        connect_signals()
