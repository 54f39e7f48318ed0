"""The translation catalogues (locale/{ru,fi}/LC_MESSAGES/*.po, docs/languages.md): complete
(every entry translated, no fuzzy, every plural form filled, the same placeholders and HTML as
the English), up to date with the code (extracting the marked strings again finds nothing new
and nothing gone), compilable by GNU msgfmt, and read with the right plural rules."""

import re
import shutil
import subprocess
from io import StringIO
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation

BASE_DIR = Path(__file__).resolve().parent.parent
LOCALE = BASE_DIR / "locale"
LANGUAGES = ["ru", "fi"]
UNREAD_FILES = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "*.png", "*.sqlite3")
PLURAL_FORMS = {"ru": 3, "fi": 2}
# The form a language uses for exactly one and nothing else (Finnish's first), which says what
# the English singular says; Russian's first form also says 21, 31…, so it needs the plural's.
ONLY_ONE_FORM = {"fi": 0}
# What `make messages` reads (Makefile MAKEMESSAGES_ARGS): everything but these.
NOT_EXTRACTED = {"locale", "tests", "bench", "var", "node_modules", "htmlcov"}
IGNORED = [".venv", "tests", "bench", "static/vendor", "var"]

PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}")
TAG = re.compile(r"</?([a-zA-Z][\w-]*)")


def _catalogues() -> list[Path]:
    return sorted(
        path
        for language in LANGUAGES
        for path in (LOCALE / language / "LC_MESSAGES").glob("*.po")
        if path.stem in ("django", "djangojs")
    )


def _key(entry: polib.POEntry) -> str:
    context = f"[{entry.msgctxt}] " if entry.msgctxt else ""
    return f"{context}{entry.msgid!r} ({', '.join(path for path, _line in entry.occurrences)})"


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _tags(text: str) -> list[str]:
    return sorted(TAG.findall(text))


CATALOGUES = [
    pytest.param(path, id=f"{path.parent.parent.name}/{path.name}") for path in _catalogues()
]


def test_there_are_catalogues_for_russian_and_finnish():
    assert {path.parent.parent.name for path in _catalogues()} == set(LANGUAGES)


@pytest.mark.parametrize("path", CATALOGUES)
def test_every_entry_is_translated(path):
    catalogue = polib.pofile(str(path))
    forms = PLURAL_FORMS[path.parent.parent.name]
    problems = []
    for entry in catalogue:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {_key(entry)}")
        if entry.msgid_plural:
            filled = [entry.msgstr_plural.get(index, "") for index in range(forms)]
            if not all(filled):
                problems.append(f"plural forms {filled}: {_key(entry)}")
        elif not entry.msgstr:
            problems.append(f"empty: {_key(entry)}")
    assert not problems, f"{len(problems)} in {path}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", CATALOGUES)
def test_translations_keep_the_placeholders_and_the_html(path):
    """A translation that drops %(team)s loses the team's name; one that adds a placeholder
    raises KeyError on the page; one that loses a tag breaks the page's HTML."""
    problems = []
    for entry in polib.pofile(str(path)):
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            wanted = _placeholders(entry.msgid) | _placeholders(entry.msgid_plural)
            only_one = ONLY_ONE_FORM.get(path.parent.parent.name)
            pairs = [
                (text, _placeholders(entry.msgid), entry.msgid)
                if form == only_one
                else (text, wanted, entry.msgid_plural)
                for form, text in entry.msgstr_plural.items()
                if text
            ]
        else:
            pairs = (
                [(entry.msgstr, _placeholders(entry.msgid), entry.msgid)] if entry.msgstr else []
            )
        for text, wanted, english in pairs:
            found = _placeholders(text)
            # A plural form may leave out the count ("одна минута"), never a name.
            if entry.msgid_plural:
                bad = not found <= wanted or {p for p in wanted - found if "count" not in p}
            else:
                bad = found != wanted
            if bad:
                problems.append(f"placeholders {sorted(found)} ≠ {sorted(wanted)}: {_key(entry)}")
            if _tags(text) != _tags(english):
                problems.append(f"HTML {_tags(text)} ≠ {_tags(english)}: {_key(entry)}")
    assert not problems, "\n".join(problems)


def test_russian_dates_never_put_the_nominative_month_after_a_day():
    """ "2 Декабрь" is wrong: a Russian date with words takes E, the genitive month."""
    catalogue = polib.pofile(str(LOCALE / "ru" / "LC_MESSAGES" / "django.po"))
    wrong = [
        _key(entry)
        for entry in catalogue
        if entry.msgctxt == "date format" and re.search(r"(?<!\\)F", entry.msgstr)
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("path", CATALOGUES)
def test_the_catalogues_compile(path, tmp_path):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    result = subprocess.run(
        [msgfmt, "--check", "--output-file", str(tmp_path / "out.mo"), str(path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def extracted(tmp_path_factory):
    """The strings marked in the code today, extracted as `make messages` does into a copy of
    the catalogues: a copy of the project's sources beside a copied locale/, so that the real
    catalogues are never written, nor the temporary files makemessages writes beside each
    template it reads (two test workers extracting in one tree deleted each other's)."""
    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext's xgettext is not installed")
    root = tmp_path_factory.mktemp("extract")
    for child in BASE_DIR.iterdir():
        if child.name.startswith(".") or child.name in NOT_EXTRACTED:
            continue
        if child.is_dir():
            shutil.copytree(child, root / child.name, ignore=UNREAD_FILES)
        else:
            shutil.copy2(child, root / child.name)
    shutil.copytree(LOCALE, root / "locale")
    with pytest.MonkeyPatch.context() as patch, override_settings(LOCALE_PATHS=[root / "locale"]):
        patch.chdir(root)
        for domain in ("django", "djangojs"):
            call_command(
                "makemessages",
                locale=LANGUAGES,
                domain=domain,
                symlinks=True,
                ignore_patterns=IGNORED,
                add_location="file",
                no_obsolete=True,
                verbosity=0,
                stdout=StringIO(),
            )
    return root / "locale"


def _entries(path: Path) -> dict[tuple[str | None, str], polib.POEntry]:
    if not path.exists():
        return {}
    return {
        (entry.msgctxt, entry.msgid): entry
        for entry in polib.pofile(str(path))
        if not entry.obsolete
    }


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_catalogues_hold_every_string_marked_in_the_code(extracted, language, domain):
    """Run `make messages` and translate what it adds when this fails."""
    relative = Path(language) / "LC_MESSAGES" / f"{domain}.po"
    fresh = _entries(extracted / relative)
    committed = _entries(LOCALE / relative)
    missing = [_key(entry) for key, entry in fresh.items() if key not in committed]
    gone = [_key(entry) for key, entry in committed.items() if key not in fresh]
    assert not missing, f"not in {relative} yet (make messages):\n" + "\n".join(missing)
    assert not gone, f"in {relative} but no longer in the code (make messages):\n" + "\n".join(gone)


# ---- Plural rules, read through real strings of the site ------------------------------------------

SEASONS = ("%(counter)s season", "%(counter)s seasons")  # templates/leagues/league_detail.html


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "1 сезон"),
        (2, "2 сезона"),
        (5, "5 сезонов"),
        (11, "11 сезонов"),
        (21, "21 сезон"),
        (22, "22 сезона"),
    ],
)
def test_russian_has_three_plural_forms(count, expected):
    with translation.override("ru"):
        assert translation.ngettext(*SEASONS, count) % {"counter": count} == expected


@pytest.mark.parametrize(
    ("count", "expected"), [(1, "1 kausi"), (2, "2 kautta"), (21, "21 kautta")]
)
def test_finnish_has_two_plural_forms(count, expected):
    with translation.override("fi"):
        assert translation.ngettext(*SEASONS, count) % {"counter": count} == expected


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [("ru", 1, "минуту"), ("ru", 3, "минуты"), ("ru", 15, "минут"), ("fi", 15, "minuutin")],
)
def test_the_lockout_counts_its_minutes_in_the_readers_language(language, count, expected):
    from config.accounts import locked_out_sentence

    with translation.override(language):
        assert f"{count} {expected}" in locked_out_sentence(count)


def test_the_plural_rules_in_the_headers():
    ru = polib.pofile(str(LOCALE / "ru" / "LC_MESSAGES" / "django.po"))
    fi = polib.pofile(str(LOCALE / "fi" / "LC_MESSAGES" / "django.po"))
    assert ru.metadata["Plural-Forms"].startswith("nplurals=3;")
    assert fi.metadata["Plural-Forms"].startswith("nplurals=2;")
