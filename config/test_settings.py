"""Settings for the test suite: development mode unless the environment says otherwise."""

import os

os.environ.setdefault("DEBUG", "1")

from config.settings import *  # noqa: E402,F403
