"""The layers contract (config/import_contracts.py) catches a wrong arrow, and the project
keeps every contract in pyproject.toml (`make test` runs lint-imports too)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

CONFIG = """
[importlinter]
root_packages =
    low
    high
include_external_packages = True
contract_types =
    imports_only: config.import_contracts.ImportsOnlyContract

[importlinter:contract:low]
name = low imports only the standard library and itself
type = imports_only
source_modules = low
allowed_modules = low
external = stdlib

[importlinter:contract:high]
name = high imports low, and anything outside the project
type = imports_only
source_modules = high
allowed_modules =
    high
    low.rules
"""


def lint(tmp_path: Path, files: dict[str, str]) -> subprocess.CompletedProcess:
    for name, source in {"low/__init__.py": "", "high/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
    (tmp_path / ".importlinter").write_text(CONFIG)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_imports_within_the_allowed_modules_keep_the_contracts(tmp_path):
    result = lint(
        tmp_path,
        {
            "low/rules.py": "import json\nfrom dataclasses import dataclass\n",
            "high/pages.py": "import django\nfrom low import rules\n",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    "files, broken, shown",
    [
        ({"low/rules.py": "from high import pages\n", "high/pages.py": ""}, "low", "high.pages"),
        ({"low/rules.py": "import django\n", "high/pages.py": ""}, "low", "low.rules:1 -> django"),
        (  # high may import low.rules, but not low.secret, not even through low.rules
            {
                "low/rules.py": "from low import secret\n",
                "low/secret.py": "",
                "high/pages.py": "from low import rules\n",
            },
            "high",
            "high.pages:1 -> low.rules:1 -> low.secret",
        ),
    ],
)
def test_a_wrong_arrow_breaks_its_contract_and_shows_the_chain(tmp_path, files, broken, shown):
    result = lint(tmp_path, files)
    assert result.returncode == 1
    assert "1 kept, 1 broken" in result.stdout
    report = result.stdout.split("Broken contracts")[1]
    assert report.lstrip("-\n ").startswith(broken)
    assert shown in " ".join(report.split())


def test_the_project_keeps_its_layers():
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert " broken" in result.stdout and "0 broken" in result.stdout
