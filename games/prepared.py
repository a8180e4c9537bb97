"""Queries that live play runs all the time, compiled to SQL once per process: the write
path's, and the teacher dashboard's redraws (live.dashboard).

Every move reads its table's seats, its match under the match's lock, its running timers
and, after the commit, its version again. Building such a query with the ORM and
compiling it to SQL costs Python 0.15 to 0.6 ms a query (measured on SQLite: the
seats with their students and table 0.74 ms, the same SQL run by hand 0.08 ms), paid
at every move in the one database thread of each server process. A ``PreparedQuery``
builds and compiles its queryset once per database connection, then runs the same SQL
with each move's values, through the connection's own cursor (its execute wrappers,
its transaction), and turns the rows into what the queryset would have returned: the
ORM's converters (JSON, dates, booleans) and ``select_related`` objects, or tuples for
``values_list``.

Only what that needs: lookups on the values given (equality, or a comparison: each value
one SQL parameter), no annotations or extra columns (a queryset that compiles to
anything else is refused when it is first used).

The move's two writes, the action appended to the log and the match's new snapshot and
version, are compiled the same way (``PreparedInsert``, ``PreparedUpdate``): each value
is prepared for the database by its field, as the ORM's insert and update do (JSON,
times), and the statement is the ORM's. Neither sends the model signals (``post_save``
and the like): the match log has no receivers, and a test keeps it so.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet, sql
from django.db.models.query import (  # type: ignore[attr-defined]  # a helper the stubs lack
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)

# Stand-ins for the values while the query compiles, found again among the compiled
# SQL's parameters: positive integers that fit every integer field (the ORM drops a
# lookup on a value out of its field's range); a constant of the query equal to one
# would be found twice, and the query refused.
_STAND_IN_BASE = 32_009

# The model a prepared query's queryset selects.
_M = TypeVar("_M", bound=Model)


@dataclass
class _Compiled:
    connection: Any
    compiler: Any
    sql: str
    params: list
    slots: list[tuple[int, int]]  # (parameter index, value index)
    models: bool
    init_list: list[str]
    model_cols: tuple[int, int]
    populators: list
    converters: dict  # the ORM's converters of the selected columns, by position


class PreparedQuery(Generic[_M]):
    """A read query compiled once per database connection and run with new values.

    ``build`` takes the values (integers: primary and foreign keys, versions) and returns
    the queryset; it is called once per connection, with stand-ins.
    """

    def __init__(
        self,
        build: Callable[..., QuerySet[_M, Any]],
        using: str = DEFAULT_DB_ALIAS,
        arity: int | None = None,
    ) -> None:
        self.build = build
        self.using = using
        # ``arity``: the number of values, for a ``build`` that takes them as ``*values``
        # (one query per length of an ``__in`` list).
        self.arity = len(inspect.signature(build).parameters) if arity is None else arity
        # Django's connections are per thread: so is what was compiled for one, and it
        # goes with its thread.
        self._local = threading.local()

    def objects(self, *values: int) -> list[_M]:
        """Return the model instances the queryset would return for ``values``."""
        compiled = self._compile()
        if not compiled.models:
            raise TypeError("a values_list query returns rows, not objects")
        rows = self._rows(compiled, values)
        start, end = compiled.model_cols
        model = compiled.compiler.klass_info["model"]
        found = []
        for row in rows:
            obj = model.from_db(self.using, compiled.init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            found.append(obj)
        return found

    def first(self, *values: int) -> _M | None:
        """Return the first instance, or None."""
        found = self.objects(*values)
        return found[0] if found else None

    def rows(self, *values: int) -> list[tuple]:
        """Return the rows of a ``values_list`` queryset for ``values``, as tuples."""
        compiled = self._compile()
        if compiled.models:
            raise TypeError("a model query returns objects, not rows")
        return [tuple(row) for row in self._rows(compiled, values)]

    def _rows(self, compiled: _Compiled, values: tuple) -> list:
        if len(values) != self.arity:
            raise TypeError(f"{self.build.__qualname__} takes {self.arity} values")
        params = list(compiled.params)
        for index, value_index in compiled.slots:
            params[index] = values[value_index]
        with compiled.connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if not compiled.converters:
            return rows
        return list(compiled.compiler.apply_converters(rows, compiled.converters))

    def _compile(self) -> _Compiled:
        connection = connections[self.using]
        compiled = getattr(self._local, "compiled", None)
        if compiled is None or compiled.connection is not connection:
            compiled = _compile(self.build, self.arity, connection, self.using)
            self._local.compiled = compiled
        return compiled


def _compile(
    build: Callable[..., QuerySet[Any, Any]],
    arity: int,
    connection: BaseDatabaseWrapper,
    using: str,
) -> _Compiled:
    stand_ins = [_STAND_IN_BASE + 7 * n for n in range(arity)]
    queryset = build(*stand_ins)
    if not isinstance(queryset, QuerySet):
        raise TypeError(f"{build.__qualname__} must return a queryset")
    models = queryset._iterable_class is ModelIterable
    if not models and queryset._iterable_class is not ValuesListIterable:
        raise TypeError("only model and values_list querysets can be prepared")
    compiler = queryset.query.get_compiler(using=using, connection=connection)
    sql, params = compiler.as_sql()
    if compiler.has_extra_select or queryset.query.extra_select or queryset.query.annotations:
        raise TypeError("a prepared query selects its model's fields only")
    params = list(params)
    slots = [(i, stand_ins.index(p)) for i, p in enumerate(params) if p in stand_ins]
    if sorted(value for _i, value in slots) != list(range(arity)):
        raise TypeError(f"each value of {build.__qualname__} must be one SQL parameter")
    # What ``results_iter`` works out at every run (0.1 ms for the seats query), once.
    columns = [column[0] for column in compiler.select[: compiler.col_count]]
    if compiler.has_composite_fields(columns):
        raise TypeError("a prepared query selects no composite field")
    converters = compiler.get_converters(columns)
    init_list, model_cols, populators = [], (0, 0), []
    if models:
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        model_cols = (fields[0], fields[-1] + 1)
        init_list = [column[0].target.attname for column in select[model_cols[0] : model_cols[1]]]
        populators = get_related_populators(klass_info, select, using)
    return _Compiled(
        connection,
        compiler,
        sql,
        params,
        slots,
        models,
        init_list,
        model_cols,
        populators,
        converters,
    )


class PreparedInsert:
    """The INSERT of one row of ``model`` (its primary key made by the database),
    compiled once per database connection."""

    def __init__(self, model: type[Model], using: str = DEFAULT_DB_ALIAS) -> None:
        self.model = model
        self.using = using
        meta = model._meta
        self.fields = [
            field
            for field in meta.local_concrete_fields
            if not field.generated and field is not meta.auto_field
        ]
        self._local = threading.local()

    def insert(self, **values: Any) -> None:
        """Insert a row with these field values (the others: their defaults)."""
        obj = self.model(**values)
        connection, compiler, statement = self._compile(obj)
        params = [
            compiler.prepare_value(field, compiler.pre_save_val(field, obj))
            for field in self.fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(statement, params)

    def _compile(self, obj: Model) -> tuple:
        connection = connections[self.using]
        compiled = getattr(self._local, "compiled", None)
        if compiled is None or compiled[0] is not connection:
            query = sql.InsertQuery(self.model)
            query.insert_values(self.fields, [obj])
            compiler = query.get_compiler(using=self.using)
            ((statement, params),) = compiler.as_sql()
            if len(params) != len(self.fields):
                raise TypeError("a prepared insert takes one parameter a field")
            compiled = (connection, compiler, statement)
            self._local.compiled = compiled
        return compiled


class PreparedUpdate:
    """An UPDATE of the rows ``build`` selects (equality lookups on its values, as for a
    ``PreparedQuery``) to new field values, compiled once per database connection and
    set of fields. Return how many rows changed."""

    def __init__(self, build: Callable[..., QuerySet], using: str = DEFAULT_DB_ALIAS) -> None:
        self.build = build
        self.using = using
        self.arity = len(inspect.signature(build).parameters)
        self._local = threading.local()

    def update(self, *values: int, **changes: Any) -> int:
        """Set the fields in ``changes`` (none of them to None: the ORM would write
        ``= NULL`` in the SQL itself) on the rows selected by ``values``."""
        if len(values) != self.arity:
            raise TypeError(f"{self.build.__qualname__} takes {self.arity} values")
        connection = connections[self.using]
        key = tuple(changes)
        # The connection, and by the fields set: (statement, fields, slots, where).
        by_fields: tuple[BaseDatabaseWrapper, dict[tuple[str, ...], tuple]] | None = getattr(
            self._local, "compiled", None
        )
        if by_fields is None or by_fields[0] is not connection:
            by_fields = (connection, {})
            self._local.compiled = by_fields
        compiled = by_fields[1].get(key)
        if compiled is None:
            compiled = self._compile(changes)
            by_fields[1][key] = compiled
        statement, fields, slots, where = compiled
        params = []
        for field, value in zip(fields, changes.values(), strict=True):
            prepared = field.get_db_prep_save(value, connection=connection)
            if prepared is None or hasattr(prepared, "as_sql"):
                raise TypeError(f"{field.name}: a prepared update sets plain values only")
            params.append(prepared)
        params.extend(where)
        for index, value_index in slots:
            params[len(fields) + index] = values[value_index]
        with connection.cursor() as cursor:
            cursor.execute(statement, params)
            return cursor.rowcount

    def _compile(self, changes: dict[str, Any]) -> tuple:
        if any(value is None or hasattr(value, "resolve_expression") for value in changes.values()):
            raise TypeError("a prepared update sets plain values only")
        stand_ins = [_STAND_IN_BASE + 7 * n for n in range(self.arity)]
        queryset = self.build(*stand_ins)
        if not isinstance(queryset, QuerySet):
            raise TypeError(f"{self.build.__qualname__} must return a queryset")
        # An UpdateQuery (chain makes one of the class given), typed Any: the stubs type
        # chain's result as a Query and lack an UpdateQuery's related_updates and values.
        query: Any = queryset.query.chain(sql.UpdateQuery)
        query.add_update_values(changes)
        if query.related_updates:
            raise TypeError("a prepared update changes its model's own table only")
        fields = [field for field, _model, _value in query.values]
        statement, params = query.get_compiler(using=self.using).as_sql()
        where = list(params[len(fields) :])
        slots = [(i, stand_ins.index(p)) for i, p in enumerate(where) if p in stand_ins]
        if sorted(value for _i, value in slots) != list(range(self.arity)):
            raise TypeError(f"each value of {self.build.__qualname__} must be one SQL parameter")
        return statement, fields, slots, where
