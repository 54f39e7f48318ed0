"""Settings for the test suite: development mode unless the environment says otherwise."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

os.environ.setdefault("DEBUG", "1")

from config import settings as _base  # noqa: E402
from config.settings import *  # noqa: E402,F403

# The tasks the suite's services send on commit go to folders of the test run's own, not to
# the checkout's var/celery: `make run` afterwards had its worker take them (bots for tables
# that no test database holds any more, with an error each) before its first sweep.
if _base.CELERY_BROKER_URL == "filesystem://":
    _test_broker = Path(tempfile.mkdtemp(prefix="roundel-test-broker-"))
    atexit.register(shutil.rmtree, _test_broker, ignore_errors=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = _base.filesystem_broker_options(_test_broker)
