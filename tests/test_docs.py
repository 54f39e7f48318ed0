"""The docs: examples log in as demo users; every link and every citation of a docs file resolves."""

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


SKIPPED = {".git", ".venv", "var", "vendor", "node_modules", "__pycache__", ".hypothesis",
           ".ruff_cache", ".pytest_cache", ".import_linter_cache", ".mypy_cache", "test-results"}  # fmt: skip
CITING = {".py", ".md", ".html", ".js", ".css", ".toml", ".yaml", ".txt", ".in", ""}
# A docs file, then the section in quotes where one is named: `docs/api.md "Live tables"`,
# `docs/api.md ("Live tables")`, `docs/api.md's "Live tables"`.
CITATION = re.compile(r"""\bdocs/([\w./-]+\.md)(?:'s)?(?: \(?"([^"\n]+)")?""")
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def project_files():
    for path in sorted(ROOT.rglob("*")):
        parts = path.relative_to(ROOT).parts
        if path.is_file() and path.suffix in CITING and not SKIPPED.intersection(parts):
            yield path


def headings(doc: Path) -> list[str]:
    return [
        line.lstrip("#").strip() for line in doc.read_text().splitlines() if line.startswith("#")
    ]


def test_every_citation_of_a_docs_file_names_one_that_exists_and_its_section():
    cited = 0
    for path in project_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for name, section in CITATION.findall(line):
                where = f"{path.relative_to(ROOT)}:{number}"
                doc = ROOT / "docs" / name
                assert doc.is_file(), f"{where} cites docs/{name}, which does not exist"
                if section:
                    assert any(heading.startswith(section) for heading in headings(doc)), (
                        f'{where} cites docs/{name} "{section}", which has no such section'
                    )
                cited += 1
    assert cited > 50  # the pattern still finds the citations


def test_every_link_in_the_docs_resolves():
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        for target in MARKDOWN_LINK.findall(doc.read_text()):
            if target.startswith(("http://", "https://", "mailto:", "#")):
                continue
            assert (doc.parent / target.split("#")[0]).exists(), (
                f"{doc.relative_to(ROOT)}: {target}"
            )


def test_nothing_cites_the_starting_design_outside_the_repository():
    """The rules and the contracts live in docs/ (rules.md, engines.md, contracts.md)."""
    outside = re.compile(r"\b(?:DESIGN|RULES)\.md|\.\./shared\b")
    for path in project_files():
        if path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            assert not outside.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
