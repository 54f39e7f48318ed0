"""The conflict page's merge: what someone else saved while this sheet was open, merged with
what this user typed (scoring.results.sheet_merge), and the user's choices for the fields both changed.

The page shows the merged sheet in the form (their version with my own changes applied) and,
for each field both changed, the two values side by side with a choice, kept as form fields:
`clash.<path>` ("saved" or "mine", saved unless the user picks otherwise) and the two values
as JSON in `clash-mine.<path>` / `clash-saved.<path>`. On the next save `with_clash_choices`
writes "mine" into the posted sheet, unless the user has since typed over that field: what is
in the field then wins. Without a choice, Save keeps the other person's value.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass

from django.http import QueryDict

from scoring.results.forms import describe_path, describe_value
from scoring.results.sheet_merge import SheetMerge, merge_sheets

CHOICE_PREFIX = "clash."
MINE_PREFIX = "clash-mine."
SAVED_PREFIX = "clash-saved."
MAX_CHOICES = 500  # more than any sheet has fields: a tampered form costs nothing
MAX_VALUE_LENGTH = 2_000


@dataclass
class ConflictMerge:
    merge: SheetMerge
    applied: list[dict]  # my changes now in the form: label, saved value, mine
    theirs: list[dict]  # what they changed from the version I started from: label, before, after
    clashes: list[dict]  # label, path, saved, mine (in words) and the JSON of both


def conflict_merge(*, game: str, base, mine: dict, theirs, names: dict, teams) -> ConflictMerge:
    """Merge my sheet into the saved one and put every field concerned into words."""
    merge = merge_sheets(base=base, mine=mine, theirs=theirs)
    sheets = {"base": base, "mine": mine, "theirs": theirs or {}}

    def label(path):
        return describe_path(game, path, names=names, sheet=theirs or mine, teams=teams)

    def words(path, value, sheet):
        return describe_value(game, path, value, names=names, sheet=sheets[sheet], teams=teams)

    their_changes = merge_sheets(base=base, mine=theirs or {}, theirs=base or {})
    return ConflictMerge(
        merge=merge,
        applied=[
            {
                "label": label(change.path),
                "saved": words(change.path, change.before, "theirs"),
                "mine": words(change.path, change.after, "mine"),
            }
            for change in merge.applied
        ],
        theirs=[
            {
                "label": label(change.path),
                "before": words(change.path, change.before, "base"),
                "after": words(change.path, change.after, "theirs"),
            }
            for change in their_changes.applied
            if theirs is not None
        ],
        clashes=[
            {
                "path": clash.path,
                "label": label(clash.path),
                "saved": words(clash.path, clash.theirs, "theirs"),
                "mine": words(clash.path, clash.mine, "mine"),
                "saved_json": json.dumps(clash.theirs),
                "mine_json": json.dumps(clash.mine),
            }
            for clash in merge.clashes
        ],
    )


def with_clash_choices(post: QueryDict) -> QueryDict:
    """The posted form with "mine" written into each field where the user chose it on the
    conflict page and has not typed over the saved value since."""
    chosen = [
        key[len(CHOICE_PREFIX) :]
        for key in list(post)[: MAX_CHOICES * 4]
        if key.startswith(CHOICE_PREFIX) and post.get(key) == "mine"
    ][:MAX_CHOICES]
    if not chosen:
        return post
    data = post.copy()
    for path in chosen:
        saved = _json(post.get(SAVED_PREFIX + path))
        mine = _json(post.get(MINE_PREFIX + path))
        if saved is _UNREADABLE or mine is _UNREADABLE:
            continue
        if _posted_fields(data, path) != _as_fields(saved, path):
            continue  # the user typed over it after choosing: the field as typed wins
        for key in list(data):
            if key == path or key.startswith(f"{path}."):
                del data[key]
        for key, value in _as_fields(mine, path).items():
            data[key] = value
    return data


_UNREADABLE = object()


def _json(text):
    if not isinstance(text, str) or len(text) > MAX_VALUE_LENGTH:
        return _UNREADABLE
    try:
        return json.loads(text)
    except ValueError:
        return _UNREADABLE


def _as_fields(value, path: str) -> dict[str, str]:
    """A sheet value as the form fields that hold it, blanks left out."""
    items: Iterable[tuple[object, object]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return {} if value is None else {path: str(value)}
    fields = {}
    for key, child in items:
        fields.update(_as_fields(child, f"{path}.{key}"))
    return fields


def _posted_fields(post, path: str) -> dict[str, str]:
    return {
        key: str(post.get(key, "")).strip()
        for key in post
        if (key == path or key.startswith(f"{path}.")) and str(post.get(key, "")).strip()
    }
