"""Queries compiled to SQL once per process and database: the reads that every move and every
drawing of a table's live part make (a table's version, the table with its seats, its last
moves). Building their SQL through the ORM each time cost the tables' web processes more than
the database took to answer them (docs/performance.md "What a move costs").

A query is written as a queryset built from one value (a table's id); it is compiled with a
marker in that value's place, and then run with the value put there. Its rows come back
through the database's converters (SQLite's datetimes are text, JSON is decoded), as model
instances or as tuples, exactly as the queryset would have given them.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

_MARKER = -7_340_033  # no row has it: marks where the value goes among the parameters


@dataclass(frozen=True)
class _Compiled(Generic[M]):
    sql: str
    params: list[Any]  # _VALUE where the value goes
    converters: dict[int, Any]  # column index: (functions, expression), as the ORM's compiler
    field_names: list[str]  # the model's fields, in the order of the columns
    model: type[M]


_VALUE = object()


class CompiledQuery(Generic[M]):
    """`build(value)`'s queryset, compiled once per database alias; `rows` and `instances` run
    it for a value. A queryset with `select_for_update` is first run inside a transaction
    (as Django requires), and keeps its FOR UPDATE wherever the database has one."""

    def __init__(self, build: Callable[[Any], "QuerySet[M, Any]"]) -> None:
        self._build = build
        self._compiled = functools.cache(self._compile)

    def rows(self, value: Any, *, using: str) -> list[list[Any]]:
        """The rows for `value`, each column converted as the ORM converts it."""
        compiled = self._compiled(using)
        connection = connections[using]
        low, high = connection.ops.integer_field_range("BigIntegerField")
        if isinstance(value, int) and not low <= value <= high:
            return []  # as the ORM's lookups answer (SQLite would raise): no row holds it
        with connection.cursor() as cursor:
            cursor.execute(
                compiled.sql,
                [value if param is _VALUE else param for param in compiled.params],
            )
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for index, (functions, expression) in compiled.converters.items():
                for function in functions:
                    row[index] = function(row[index], expression, connection)
        return rows

    def instances(self, value: Any, *, using: str) -> list[M]:
        """The model instances for `value`, as iterating the queryset would make them."""
        compiled = self._compiled(using)
        return [
            compiled.model.from_db(using, compiled.field_names, row)
            for row in self.rows(value, using=using)
        ]

    def _compile(self, using: str) -> _Compiled[M]:
        queryset = self._build(_MARKER)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        marked = [_VALUE if param == _MARKER else param for param in params]
        assert marked.count(_VALUE) == 1, "the value is one parameter of the query"
        columns = [column for column, _, _ in compiler.select]
        # A model's queryset selects its fields' columns; a values() queryset has no model rows.
        models = not queryset.query.values_select
        field_names = [column.target.attname for column in columns] if models else []
        converters = compiler.get_converters(columns)
        return _Compiled(sql, marked, converters, field_names, queryset.model)
