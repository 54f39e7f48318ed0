"""The docs' examples use logins that exist: the demo's (`make run`)."""

import re
from pathlib import Path

from scoring.management.commands.load_demo import ADMIN_LOGIN, TEAMS, VENUES, player_login

ROOT = Path(__file__).resolve().parent.parent


def test_api_examples_log_in_as_a_demo_user_with_its_password():
    players = [player_login(name) for _, _, *names in TEAMS for name in names]
    demo = dict([ADMIN_LOGIN, *(login for _, _, login in VENUES.values()), *players])
    text = (ROOT / "docs" / "api.md").read_text()
    logins = re.findall(r'"username": "([^"]+)", "password": "([^"]+)"', text)
    assert logins
    for username, password in logins:
        assert demo.get(username) == password, username
    for author in re.findall(r'"created_by": "([^"]+)"', text):
        assert author in demo, author
