"""Three-way merge of result sheets, field by field: what the conflict page offers.

Two members of staff start from the same version (the *base*); one saves (*theirs*, now the
current version) while the other is still typing (*mine*). Comparing each with the base tells
who changed which field (a field is a leaf of the sheet, named by its path as in
scoring.results.sheets: "rounds.3.2", "singles.0.deals.4", "games.1.convoys.home"):

- changed only by me: my value is applied on top of theirs;
- changed only by them, or by both to the same value: theirs stays;
- changed by both to different values: a clash, which a person settles (`resolve`).

So the merged sheet never undoes the other person's change unless someone chooses to. A blank
field and a missing one are the same here (a blank cell is "nothing typed"). Pure Python: the
sheets are plain JSON-like dicts and lists, and nothing here knows a game's rules; whether the
merged sheet is valid is scoring.results.sheets' business when it is saved.
"""

import copy
from collections.abc import Mapping
from dataclasses import dataclass


class _Blank:
    """A field that a sheet does not have (or holds None): nothing typed there."""

    def __repr__(self) -> str:
        return "BLANK"


BLANK = _Blank()


@dataclass(frozen=True)
class FieldChange:
    path: str
    before: object  # None when the field was blank
    after: object


@dataclass(frozen=True)
class Clash:
    """A field both people changed, to different values."""

    path: str
    base: object  # None when the field was blank in the version both started from
    mine: object
    theirs: object


@dataclass(frozen=True)
class SheetMerge:
    sheet: dict  # theirs with my own changes applied; a clash holds their value until resolved
    applied: tuple[FieldChange, ...]  # my changes now in `sheet` (before = their value)
    clashes: tuple[Clash, ...]
    mine: Mapping  # my sheet: its lists' lengths say where the items I removed end

    def resolve(self, mine: set[str] | frozenset[str]) -> dict:
        """The merged sheet with my value for the clashes whose paths are in `mine`."""
        chosen = {clash.path: clash.mine for clash in self.clashes if clash.path in mine}
        return _with_values(self.sheet, chosen, shape=self.mine)


def merge_sheets(*, base: Mapping | None, mine: Mapping, theirs: Mapping | None) -> SheetMerge:
    """Merge my sheet into theirs, field by field, against the version both started from.

    `base` is None when I started from an empty sheet, `theirs` None when there is no saved
    result (then my sheet is the merge).
    """
    if theirs is None:
        return SheetMerge(sheet=copy.deepcopy(dict(mine)), applied=(), clashes=(), mine=mine)
    base_fields, my_fields, their_fields = (_fields(sheet or {}) for sheet in (base, mine, theirs))
    applied, clashes = [], []
    removed = _removed_items(base or {}, my_fields)
    for item in removed:
        base_item, their_item = _at(base, item), _at(theirs, item)
        if _fields(their_item, item) == _fields(base_item, item):
            applied.append(FieldChange(item, their_item, None))
        elif _fields(their_item, item):
            clashes.append(Clash(item, base_item, None, their_item))
    for path in _ordered(set(base_fields) | set(my_fields)):
        if any(path.startswith(f"{item}.") for item in removed):
            continue  # settled with its item, above
        before = base_fields.get(path, BLANK)
        my_value = my_fields.get(path, BLANK)
        if my_value == before:
            continue  # I did not change it
        their_value = their_fields.get(path, BLANK)
        if their_value == my_value:
            continue  # the same change on both sides, or none needed
        if their_value == before:
            applied.append(FieldChange(path, _plain(their_value), _plain(my_value)))
        else:
            clashes.append(Clash(path, _plain(before), _plain(my_value), _plain(their_value)))
    applied.sort(key=lambda change: _path_key(change.path))
    clashes.sort(key=lambda clash: _path_key(clash.path))
    merged = _with_values(theirs, {change.path: change.after for change in applied}, shape=mine)
    return SheetMerge(
        sheet=merged, applied=tuple(applied), clashes=tuple(clashes), mine=copy.deepcopy(mine)
    )


# --- fields ----------------------------------------------------------------------------------


def _removed_items(base: Mapping, my_fields: dict) -> list[str]:
    """The rounds, deals or games (list items holding fields) of `base` that my sheet removed
    altogether: each is merged as one piece, so that a round is kept or removed whole."""
    removed: list[str] = []
    for path, value in _items(base):
        if any(path.startswith(f"{item}.") for item in removed):
            continue
        if _fields(value, path) and not any(
            field == path or field.startswith(f"{path}.") for field in my_fields
        ):
            removed.append(path)
    return removed


def _items(value, path: str = ""):
    """(path, item) of every list item holding other fields, outermost first."""
    children = (
        value.items()
        if isinstance(value, Mapping)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        child_path = field_path(path, key)
        if isinstance(value, list) and isinstance(child, list | Mapping):
            yield child_path, child
        yield from _items(child, child_path)


def _at(sheet, path: str):
    """The value at `path` in `sheet`, or None."""
    node = sheet
    for part in path.split("."):
        node = _child(node, part)
    return node


def _child(tree, part: str):
    if isinstance(tree, list):
        return tree[int(part)] if part.isdigit() and int(part) < len(tree) else None
    return tree.get(part) if isinstance(tree, Mapping) else None


def _fields(value, path: str = "") -> dict[str, object]:
    """Every leaf of a sheet by its path, blanks left out."""
    if isinstance(value, Mapping):
        found = {}
        for key, child in value.items():
            found.update(_fields(child, field_path(path, key)))
        return found
    if isinstance(value, list):
        found = {}
        for index, child in enumerate(value):
            found.update(_fields(child, field_path(path, index)))
        return found
    return {} if value is None or not path else {path: value}


def field_path(path: str, key: str | int) -> str:
    """The path of `key` (a mapping's key or a list's index) in the field at `path`: "rounds"
    and 3 make "rounds.3"; at the top ("") the key alone."""
    return f"{path}.{key}" if path else str(key)


def _plain(value):
    return None if value is BLANK else value


def _ordered(paths) -> list[str]:
    """Paths in reading order: numbers as numbers ("rounds.10" after "rounds.9")."""
    return sorted(paths, key=_path_key)


def _path_key(path: str) -> tuple:
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in path.split("."))


# --- writing fields into a copy ----------------------------------------------------------------


def _with_values(sheet: Mapping, values: Mapping[str, object], *, shape: Mapping) -> dict:
    """A deep copy of `sheet` with each path set to its value (None: blanked).

    Blanking keeps every list's items in place; afterwards a list longer than the same list in
    `shape` (my sheet) loses its blank items at the end: the rounds, deals or games I removed,
    unless the other person changed something in them.
    """
    result = copy.deepcopy(dict(sheet))
    for path, value in values.items():
        _set(result, path.split("."), value, shape)
    _fit(result, shape)
    return result


def _set(tree, parts: list[str], value, shape) -> None:
    """Write `value` at the path; a container the path needs and `tree` lacks is made blank
    in the shape of my sheet's (a round I added comes with its four cells)."""
    for position, part in enumerate(parts):
        if isinstance(tree, list) and not part.isdigit():
            return  # a path that does not fit the sheet's shape: nothing to write
        shape = _child(shape, part)
        key: int | str
        if isinstance(tree, list):
            key = int(part)
            tree.extend([None] * (key + 1 - len(tree)))
            current = tree[key]
        else:
            key = part
            current = tree.get(key)
        if position == len(parts) - 1:
            tree[key] = _blanked(current) if value is None else value
            return
        if not isinstance(current, list | dict):
            fresh: list[object] | dict[str, object] = [] if parts[position + 1].isdigit() else {}
            tree[key] = _blanked(shape) if isinstance(shape, type(fresh)) else fresh
        tree = tree[key]


def _blanked(value):
    """The same shape with every field blank."""
    if isinstance(value, Mapping):
        return {key: _blanked(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_blanked(child) for child in value]
    return None


def _fit(tree, shape) -> None:
    """Fit the merged lists to my sheet's: a gap where my list has a round (or game) is that
    round blank, and blank items past the end of my list (the ones I removed) go."""
    if isinstance(tree, dict):
        for key, child in tree.items():
            _fit(child, shape.get(key) if isinstance(shape, Mapping) else None)
    elif isinstance(tree, list):
        shape_list = shape if isinstance(shape, list) else None
        for index, child in enumerate(tree):
            inner = shape_list[index] if shape_list and index < len(shape_list) else None
            if child is None and isinstance(inner, list | Mapping):
                tree[index] = child = _blanked(inner)
            _fit(child, inner)
        if shape_list is not None:
            while len(tree) > len(shape_list) and not _fields(tree[-1], "item"):
                tree.pop()
