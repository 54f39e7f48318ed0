"""Suite-wide pytest setup."""

import os

import pytest
from hypothesis import HealthCheck, settings


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (CI=true) a skipped test is a failure: nothing may quietly not run."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI: {report.longrepr}"


# Hypothesis: random exploration on developers' machines; in CI a fixed derivation of the
# examples (same run twice gives the same result) and no timing health checks, since the
# CI machine is shared and slow runs there say nothing about the code.
settings.register_profile(
    "ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: no throttle counts or tables from the test before."""
    from django.core.cache import cache

    cache.clear()
