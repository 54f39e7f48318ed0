"""Roundel's own `manage.py check --deploy` checks (registered by config.apps)."""

from django.core.cache import caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.checks import Error


def shared_cache(app_configs, **kwargs) -> list[Error]:
    """The API throttles count requests in the cache: a cache of each process's own lets every
    gunicorn worker grant the whole allowance again (27 of 40 token requests passed where 10
    should)."""
    if not isinstance(caches["default"], LocMemCache | DummyCache):
        return []
    return [
        Error(
            "The cache is each process's own: every web worker would keep its own throttle counts.",
            hint="Set CACHE_URL=redis://… (a Redis all the web processes share).",
            id="roundel.E001",
        )
    ]
