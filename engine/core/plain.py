"""A game's typed view as plain JSON data and back (docs/architecture.md §2).

Each game's view is a tree of frozen dataclasses (`engine/<game>/view_types.py`); an export
keeps it as plain JSON and a public record is read back from it. `as_plain` and
`from_plain` derive both directions from the dataclasses' fields and their types, so a
record class says what it holds once:

- fields in their declared order, nested records as objects, tuples as lists, mappings as
  objects;
- a field whose default is None is a part the phase or the reader lacks: left out while
  it is None (and None when its key is missing), where any other None is written as null;
- a key missing from an older record takes the field's default, if it has one.

The conversion of each class is worked out once, from its type hints, and kept: a view
goes to JSON with every save that changes what the channel shows.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, fields, is_dataclass
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

__all__ = ["as_plain", "from_plain"]

T = TypeVar("T")
_Convert = Callable[[Any], Any] | None  # None: the value is kept as it is (a str, int, bool)


def as_plain(record: Any) -> dict[str, Any]:
    """`record` (a view's dataclass) as plain JSON data."""
    return _writer(type(record))(record)


def from_plain(cls: type[T], data: Mapping[str, Any]) -> T:
    """The `cls` record `as_plain` wrote (or an older version of it), from JSON data."""
    record: T = _reader(cls)(data)
    return record


def _hints(cls: type) -> list[tuple[Field[Any], Any]]:
    hints = get_type_hints(cls)
    return [(f, hints[f.name]) for f in fields(cls)]


def _optional(hint: Any) -> Any:
    """`X` for `X | None`; the hint itself otherwise."""
    if get_origin(hint) in (Union, types.UnionType):
        rest = [a for a in get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return hint


_WRITERS: dict[type, Callable[[Any], dict[str, Any]]] = {}
_READERS: dict[type, Callable[[Mapping[str, Any]], Any]] = {}


def _writer(cls: type) -> Callable[[Any], dict[str, Any]]:
    """`cls`'s writer, compiled from its fields as `engine.core.fast` compiles `clone`: a
    save writes the public view with every change the channel sees, and a loop over the
    fields with a converter per field took twice as long as a written-out function."""
    if cls in _WRITERS:
        return _WRITERS[cls]
    env: dict[str, Any] = {}
    head: list[str] = []  # the fields before the first that may be left out: one dict display
    body: list[str] = []
    for f, hint in _hints(cls):
        value = f"r.{f.name}"
        if f.default is None:  # left out while None
            body += [f"v = {value}", f"if v is not None: out[{f.name!r}] = {_expr(_optional(hint), 'v', 0, env)}"]
        elif body:
            body.append(f"out[{f.name!r}] = {_expr(hint, value, 0, env)}")
        else:
            head.append(f"{f.name!r}: {_expr(hint, value, 0, env)}")
    lines = ["def write(r):", f"    out = {{{', '.join(head)}}}", *(f"    {line}" for line in body), "    return out"]
    exec("\n".join(lines), env)  # noqa: S102 - source built above from the fields' names and types
    write: Callable[[Any], dict[str, Any]] = env["write"]
    _WRITERS[cls] = write
    return write


def _expr(hint: Any, value: str, depth: int, env: dict[str, Any]) -> str:
    """A Python expression writing `value`, of type `hint`, as plain JSON data."""
    inner = _optional(hint)
    if inner is not hint:
        written = _expr(inner, value, depth, env)
        return value if written == value else f"(None if {value} is None else {written})"
    if isinstance(hint, type) and is_dataclass(hint):
        name = f"w_{hint.__name__}"
        env[name] = _writer(hint)
        return f"{name}({value})"
    origin, args = get_origin(hint), get_args(hint)
    item = f"x{depth}"
    if origin is tuple and not _any_length(args):  # a pair, (what, how many)
        parts = [_expr(a, f"{value}[{i}]", depth + 1, env) for i, a in enumerate(args)]
        return f"list({value})" if parts == [f"{value}[{i}]" for i in range(len(args))] else f"[{', '.join(parts)}]"
    if origin in (tuple, list):
        each = _expr(args[0], item, depth + 1, env)
        return f"list({value})" if each == item else f"[{each} for {item} in {value}]"
    if origin in (dict, Mapping):
        each = _expr(args[1], item, depth + 1, env)
        return f"dict({value})" if each == item else f"{{k{depth}: {each} for k{depth}, {item} in {value}.items()}}"
    return value


def _any_length(args: tuple[Any, ...]) -> bool:
    return len(args) == 2 and args[1] is Ellipsis


def _reader(cls: type) -> Callable[[Mapping[str, Any]], Any]:
    if cls in _READERS:
        return _READERS[cls]
    plan = []
    for f, hint in _hints(cls):
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        plan.append((f.name, has_default, _read(_optional(hint))))

    def read(data: Mapping[str, Any]) -> Any:
        values: dict[str, Any] = {}
        for name, has_default, convert in plan:
            if name not in data:
                if has_default:
                    continue  # an older record: the field's default
                raise KeyError(f"{cls.__name__} record without {name!r}")
            value = data[name]
            values[name] = value if convert is None or value is None else convert(value)
        return cls(**values)

    _READERS[cls] = read
    return read


def _read(hint: Any) -> _Convert:
    if isinstance(hint, type) and is_dataclass(hint):
        return _reader(hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin is tuple and _any_length(args):
        each = _read(_optional(args[0]))
        return lambda value: tuple(v if each is None or v is None else each(v) for v in value)
    if origin is tuple:  # a pair, (what, how many)
        parts = [_read(_optional(a)) for a in args]
        return lambda value: tuple(v if c is None or v is None else c(v) for c, v in zip(parts, value, strict=True))
    if origin is list:
        each = _read(_optional(args[0]))
        return lambda value: [v if each is None or v is None else each(v) for v in value]
    if origin in (dict, Mapping):
        each = _read(_optional(args[1]))
        return lambda value: {k: v if each is None or v is None else each(v) for k, v in value.items()}
    return None
