from django.apps import AppConfig
from django.core import checks


class SiteConfig(AppConfig):
    """The project's own package, listed among INSTALLED_APPS for its system checks."""

    name = "config"
    verbose_name = "Roundel site"

    def ready(self):
        from config.checks import shared_cache

        checks.register(shared_cache, checks.Tags.caches, deploy=True)
