"""The hottest reads and writes in plain SQL, with ordinary model instances.

Building a query's SQL costs the ORM about a millisecond, more than the database takes to
answer it; a poll or a game view makes two or three such queries on every request. The
reads here keep their SQL text (made once per process, from the models' own table and
column names, quoted for the database in use) and turn each row into model instances with
the converters the ORM itself applies (JSON, datetimes on SQLite, ...), so callers get the
same objects a queryset would have given them. ``select``, ``update`` and ``insert`` do the
same for plain one-table statements, keeping each statement's text once it is built;
``set_flag`` writes one boolean of several rows, some on and some off, in one statement, and
``update_then_insert`` a guarded update and the row it goes with (one statement on
PostgreSQL). What each of the hot paths built on these saves over the ORM, measured:
docs/decisions/0300 to 0306.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model
from django.db.models.expressions import Col

M = TypeVar("M", bound=Model)
Converter = Callable[[Any, Any, Any], Any]


def _db() -> BaseDatabaseWrapper:
    """The connection itself: ``django.db.connection`` is a proxy that looks it up again
    on every attribute read, which preparing a statement's values does a dozen times."""
    return connections[DEFAULT_DB_ALIAS]


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[Model]) -> str:
    return quote(model._meta.db_table)


def _column(field: Field[Any, Any]) -> str:
    """A concrete field's column, quoted (only fields stored elsewhere have none)."""
    assert field.column is not None
    return quote(field.column)


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    """The model's field ``name``: a field of its own table, not a reverse relation."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field


def column(model: type[Model], field: str) -> str:
    return _column(_field(model, field))


def _converters(field: Field[Any, Any], alias: str) -> list[Converter]:
    col = Col(alias, field)
    backend: list[Converter] = connection.ops.get_db_converters(col)
    return backend + list(col.get_db_converters(connection))


_FIELD_CONVERTERS: dict[Field[Any, Any], tuple[Col, list[Converter]]] = {}


def convert(field: Field[Any, Any], value: Any) -> Any:
    """One column's value as the ORM would give it (for a single field read by hand)."""
    found = _FIELD_CONVERTERS.get(field)
    if found is None:
        found = _FIELD_CONVERTERS[field] = (Col("x", field), _converters(field, "x"))
    col, funcs = found
    db = _db()
    for fn in funcs:
        value = fn(value, col, db)
    return value


class Columns(Generic[M]):
    """Every concrete column of one model under a table alias, and the rows' instances."""

    def __init__(self, model: type[M], alias: str, only: Sequence[str] = ()) -> None:
        """``only`` names the fields to read (the key always comes first); the others are
        deferred, as with ``QuerySet.only``: reading one costs a query."""
        self.model = model
        self.alias = alias
        fields: Sequence[Field[Any, Any]] = model._meta.concrete_fields
        if only:
            pk = model._meta.pk
            assert pk is not None
            fields = [pk, *(f for f in fields if f.name in only and f is not pk)]
        self.fields = fields
        self.names = [f.attname for f in self.fields]
        self.width = len(self.fields)
        self._plan: list[tuple[int, Col, list[Converter]]] | None = None

    def sql(self) -> str:
        return ", ".join(f"{self.alias}.{_column(f)}" for f in self.fields)

    def _conversions(self) -> list[tuple[int, Col, list[Converter]]]:
        if self._plan is None:
            plan = []
            for i, f in enumerate(self.fields):
                funcs = _converters(f, self.alias)
                if funcs:
                    plan.append((i, Col(self.alias, f), funcs))
            self._plan = plan
        return self._plan

    def load(self, row: Sequence[Any], start: int = 0) -> M | None:
        """The instance in ``row[start:start + width]``; None when its key is NULL (an
        outer join that found nothing)."""
        values = list(row[start : start + self.width])
        if values[self.names.index(self.model._meta.pk.attname)] is None:
            return None
        db = _db()
        for i, col, funcs in self._conversions():
            for fn in funcs:
                values[i] = fn(values[i], col, db)
        return self.model.from_db(db.alias, self.names, values)


def fetch(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    with _db().cursor() as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


# ------------------------------------------------------------------ one table, kept SQL
_SQL: dict[tuple[Any, ...], str] = {}


def _kept(key: tuple[Any, ...], build: Callable[[], str]) -> str:
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = build()
    return sql


def _prep(model: type[Model], name: str, value: Any, db: BaseDatabaseWrapper) -> Any:
    return _field(model, name).get_db_prep_save(value, db)


_COLUMNS: dict[type[Model], Columns[Any]] = {}


def select(model: type[M], order_by: str = "id", **equals: Any) -> list[M]:
    """``model.objects.filter(**equals).order_by(order_by)`` for plain equalities."""
    names = tuple(sorted(equals))
    columns: Columns[M] = _COLUMNS.setdefault(model, Columns(model, "t"))

    def build() -> str:
        where = " AND ".join(f"t.{column(model, n)} = %s" for n in names)
        return (
            f"SELECT {columns.sql()} FROM {table(model)} t WHERE {where} "
            f"ORDER BY t.{column(model, order_by)}"
        )

    sql = _kept(("select", model, names, order_by), build)
    db = _db()
    rows = fetch(sql, [_prep(model, n, equals[n], db) for n in names])
    return [obj for row in rows if (obj := columns.load(row)) is not None]


def update(model: type[Model], values: dict[str, Any], **equals: Any) -> int:
    """``model.objects.filter(**equals).update(**values)`` for plain values and
    equalities; the number of rows changed."""
    sets, names = tuple(values), tuple(sorted(equals))

    def build() -> str:
        assignments = ", ".join(f"{column(model, n)} = %s" for n in sets)
        where = " AND ".join(f"{column(model, n)} = %s" for n in names)
        return f"UPDATE {table(model)} SET {assignments} WHERE {where}"

    sql = _kept(("update", model, sets, names), build)
    db = _db()
    params = [_prep(model, n, values[n], db) for n in sets] + [
        _prep(model, n, equals[n], db) for n in names
    ]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def set_flag(model: type[Model], field: str, on: Sequence[Any], off: Sequence[Any]) -> int:
    """Set the boolean ``field`` of the rows keyed ``on`` and clear it for those keyed
    ``off``, in one statement; the number of rows changed."""
    if not on or not off:
        keys = list(on or off)
        return update_keys(model, {field: bool(on)}, keys) if keys else 0
    assert model._meta.pk is not None
    pk = _column(model._meta.pk)

    def build() -> str:
        ons = ", ".join(["%s"] * len(on))
        every = ", ".join(["%s"] * (len(on) + len(off)))
        return (
            f"UPDATE {table(model)} SET {column(model, field)} = ({pk} IN ({ons})) "
            f"WHERE {pk} IN ({every})"
        )

    sql = _kept(("set_flag", model, field, len(on), len(off)), build)
    with _db().cursor() as cursor:
        cursor.execute(sql, [*on, *on, *off])
        return int(cursor.rowcount)


def update_keys(model: type[Model], values: dict[str, Any], keys: Sequence[Any]) -> int:
    """``model.objects.filter(pk__in=keys).update(**values)`` for plain values."""
    sets = tuple(values)
    pk = model._meta.pk
    assert pk is not None and keys

    def build() -> str:
        assignments = ", ".join(f"{column(model, n)} = %s" for n in sets)
        marks = ", ".join(["%s"] * len(keys))
        return f"UPDATE {table(model)} SET {assignments} WHERE {_column(pk)} IN ({marks})"

    sql = _kept(("update_keys", model, sets, len(keys)), build)
    db = _db()
    params = [_prep(model, n, values[n], db) for n in sets] + list(keys)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def _insert_fields(model: type[Model]) -> list[Field[Any, Any]]:
    pk = model._meta.pk
    return [f for f in model._meta.concrete_fields if f is not pk]


def _insert_params(obj: Model, db: BaseDatabaseWrapper) -> list[Any]:
    return [f.get_db_prep_save(f.pre_save(obj, True), db) for f in _insert_fields(type(obj))]


def insert(obj: Model, *, ignore_conflicts: bool = False) -> bool:
    """``obj.save()`` of a new row with an automatic key (no signals sent): the key is set
    on ``obj``, and fields such as ``auto_now_add`` get their values as ``save`` would. A
    later ``obj.save()`` updates that row, as it would after Django's own insert.

    ``ignore_conflicts``: a row breaking a unique constraint is not written (``ON
    CONFLICT DO NOTHING``, no savepoint needed) and False is returned."""
    model = type(obj)
    pk = model._meta.pk
    assert pk is not None
    db = _db()
    returning = db.features.can_return_columns_from_insert
    assert returning or not ignore_conflicts

    def build() -> str:
        fields = _insert_fields(model)
        names = ", ".join(_column(f) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {table(model)} ({names}) VALUES ({marks})"
        if ignore_conflicts:
            sql += " ON CONFLICT DO NOTHING"
        return sql + f" RETURNING {_column(pk)}" if returning else sql

    sql = _kept(("insert", model, ignore_conflicts), build)
    with db.cursor() as cursor:
        cursor.execute(sql, _insert_params(obj, db))
        if returning:
            row = cursor.fetchone()
            if row is None:
                return False
            key = row[0]
        else:
            key = cursor.lastrowid
    setattr(obj, pk.attname, key)
    return True


def update_then_insert(
    model: type[Model], values: dict[str, Any], equals: dict[str, Any], obj: Model
) -> int:
    """``update(model, values, **equals)`` and, only if it changed a row, ``insert(obj)``;
    the number of rows the update changed.

    On PostgreSQL both are one statement (the update in a ``WITH`` clause that the insert
    selects from), so a move's version bump and its log entry cost one round trip.
    """
    db = _db()
    if db.vendor != "postgresql":
        changed = update(model, values, **equals)
        if changed:
            insert(obj)
        return changed
    target = type(obj)
    pk = target._meta.pk
    assert pk is not None
    sets, names = tuple(values), tuple(sorted(equals))

    def build() -> str:
        assignments = ", ".join(f"{column(model, n)} = %s" for n in sets)
        where = " AND ".join(f"{column(model, n)} = %s" for n in names)
        fields = _insert_fields(target)
        columns = ", ".join(_column(f) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        return (
            f"WITH changed AS (UPDATE {table(model)} SET {assignments} WHERE {where} "
            f"RETURNING 1) INSERT INTO {table(target)} ({columns}) "
            f"SELECT {marks} FROM changed RETURNING {_column(pk)}"
        )

    sql = _kept(("update_then_insert", model, sets, names, target), build)
    params = [
        *(_prep(model, n, values[n], db) for n in sets),
        *(_prep(model, n, equals[n], db) for n in names),
        *_insert_params(obj, db),
    ]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return 0
    setattr(obj, pk.attname, row[0])
    return 1
