"""Copying and building plain-data models without pydantic's validation, for the engine's
hot paths: the state copy in every `Game.step` and the legal actions listed at every
prompt (docs/architecture.md, "The engine"). Both rely on what `Model`
promises: plain data (str, int, float, bool, None, lists and dicts of them, and nested
models) where every container holds one kind of thing, so its first item tells what
all of them are. A nested model may also be a frozen stdlib dataclass (Schönbrunn's
Delegates and Players): pydantic validates and dumps it as a field like a model. A state
may be a stdlib dataclass too (Schönbrunn's), its fields' types read from its annotations.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from pydantic import BaseModel

__all__ = ["WHOLE", "built", "clone", "replaced"]

R = TypeVar("R")  # a model or a frozen dataclass

WHOLE = "replaced whole"
"""A field's mark (`Annotated[dict[...], WHOLE]`): the rules only ever put a new value in
its place, never change the one there, so a copy shares it."""

_ATOMS = frozenset({str, int, float, bool, type(None)})
_set = object.__setattr__


def clone(model: R) -> R:
    """A deep copy of a plain-data model, several times faster than `copy.deepcopy` or a
    round trip through pydantic-core (the core copies the state once per action). Each
    model class gets a copier written for its fields' types (`_copier`): an atom or a
    frozen model is shared, a list of them copied flat, a nested model copied by its own."""
    cls = model.__class__
    copier = _COPIERS.get(cls)
    if copier is None:
        copier = _COPIERS[cls] = _copier(cls)
    return cast(R, copier(model))  # a copier makes an instance of the class it was made for


_COPIERS: dict[type, Callable[[Any], Any]] = {}


def _copier(cls: type) -> Callable[[Any], Any]:
    """Compile `copy(model)` for `cls`: a copy of the model's `__dict__` (one call, however
    many fields), then a copy in place of each field a copy may not share. A value a state
    keeps in its `__dict__` beside the fields (SchonbrunnState's Delegate positions) comes
    along as it is: each such cache checks that it was worked out for the list it holds."""
    copied = [
        f"    n[{name!r}] = {expression}"
        for name, annotation, whole in _fields(cls)
        if not whole and (expression := _expression(annotation, f"d[{name!r}]", 0)) is not None
    ]
    pydantic = [
        "    setattr_of(new, '__pydantic_fields_set__', model.__pydantic_fields_set__.copy())",
        "    setattr_of(new, '__pydantic_extra__', None)",
        "    setattr_of(new, '__pydantic_private__', None)",
    ]
    source = "\n".join(
        [
            "def copy(model):",
            "    d = model.__dict__",
            "    n = d.copy()",
            *copied,
            "    new = new_of(cls)",
            "    setattr_of(new, '__dict__', n)",
            *(pydantic if issubclass(cls, BaseModel) else []),
            "    return new",
        ]
    )
    scope = {
        "cls": cls, "new_of": cls.__new__, "setattr_of": _set, "clone": clone, "copied": _copied,
    }  # fmt: skip
    exec(compile(source, f"<copy of {cls.__name__}>", "exec"), scope)
    return cast(Callable[[Any], Any], scope["copy"])  # the function the source just defined


def _fields(cls: type) -> list[tuple[str, Any, bool]]:
    """(name, type, marked WHOLE) of each field of a model or of a dataclass (Schönbrunn's
    state, whose types are read from its annotations)."""
    if issubclass(cls, BaseModel):
        return [(name, f.annotation, WHOLE in f.metadata) for name, f in cls.model_fields.items()]
    hints = get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cast(Any, cls)):  # a dataclass: not a model, so the other kind
        hint = hints[f.name]
        whole = get_origin(hint) is Annotated and WHOLE in hint.__metadata__
        out.append((f.name, get_args(hint)[0] if get_origin(hint) is Annotated else hint, whole))
    return out


def _expression(annotation: Any, var: str, depth: int) -> str | None:
    """Python that copies `var`, a value of type `annotation`; None when it may be shared."""
    if _atomic(annotation):
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return None if _frozen(annotation) else f"clone({var})"
    if _frozen(annotation):  # a frozen dataclass
        return None
    origin, args = get_origin(annotation), get_args(annotation)
    x, k = f"x{depth}", f"k{depth}"
    if origin is list and len(args) == 1:
        inner = _expression(args[0], x, depth + 1)
        return f"{var}[:]" if inner is None else f"[{inner} for {x} in {var}]"
    if origin is dict and len(args) == 2:
        inner = _expression(args[1], x, depth + 1)
        return f"{var}.copy()" if inner is None else f"{{{k}: {inner} for {k}, {x} in {var}.items()}}"
    if origin is Union or origin is types.UnionType:
        kinds = [a for a in args if a is not type(None)]
        if len(kinds) == 1:  # X | None
            inner = _expression(kinds[0], var, depth)
            return None if inner is None else f"(None if {var} is None else {inner})"
    return f"copied({var})"  # anything else (Any, a union of containers): by what it holds


def _copied(value: Any) -> Any:
    """A copy of a value whose type the field does not say precisely (`Any`): every
    container holds one kind of thing, so its first item tells what all of them are."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple:  # (label, points) pairs of score breakdowns: shared when all atoms
        return value if all(type(x) in _ATOMS for x in value) else tuple(_copied(x) for x in value)
    if kind is list:
        if not value or _shared(type(value[0])):
            return value[:]
        return [_copied(x) for x in value]
    if kind is dict:
        if not value or _shared(type(next(iter(value.values())))):
            return value.copy()
        return {k: _copied(x) for k, x in value.items()}
    if _shared(kind):
        return value
    assert isinstance(value, BaseModel), f"not plain data: {kind.__name__}"
    return clone(value)


_SHARED: dict[type, bool] = {}


def _shared(kind: type) -> bool:
    """Whether a copy may share values of this type: atoms, and frozen models and
    dataclasses (which the rules replace instead of changing, as Schönbrunn's Delegates)."""
    shared = _SHARED.get(kind)
    if shared is None:
        shared = _SHARED[kind] = kind in _ATOMS or _frozen(kind)
    return shared


def _frozen(kind: Any) -> bool:
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return bool(kind.model_config.get("frozen"))
    return dataclasses.is_dataclass(kind) and bool(cast(Any, kind).__dataclass_params__.frozen)


def _atomic(annotation: Any) -> bool:
    if annotation in _ATOMS:
        return True
    origin = get_origin(annotation)
    if origin is Literal:
        return True
    if origin is Union or origin is types.UnionType:
        return all(_atomic(a) for a in get_args(annotation))
    if origin is tuple:  # immutable, so shared when it holds only atoms
        return all(a is Ellipsis or _atomic(a) for a in get_args(annotation))
    return False


_TEMPLATES: dict[type, tuple[dict[str, Any], tuple[tuple[str, Any], ...]]] = {}


def built(cls: type[R], /, **fields: Any) -> R:
    """`cls(**fields)` without validation, for values the engine made itself from a valid
    state (legal actions): equal to the validated model, at about half the cost of
    `model_construct` (which costs more than validating a small model). Fields left out
    take their defaults; every field without one must be given. A dataclass (`Event`) is
    made by its own `__init__`, which does not validate either."""
    template = _TEMPLATES.get(cls)
    if template is None:
        if not issubclass(cls, BaseModel):
            return cls(**fields)
        template = _TEMPLATES[cls] = (
            {name: f.default for name, f in cls.model_fields.items()},  # in field order
            tuple((name, f.default_factory) for name, f in cls.model_fields.items() if f.default_factory),
        )
    defaults, factories = template
    values = {**defaults, **fields}
    for name, factory in factories:
        if name not in fields:
            values[name] = factory()
    new = cls.__new__(cls)
    _set(new, "__dict__", values)
    _set(new, "__pydantic_fields_set__", set(fields))
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


_MODELS: dict[type, bool] = {}  # whether a class `replaced` copied is a pydantic model


def replaced(model: R, /, **fields: Any) -> R:
    """`model.model_copy(update=fields)` without its overhead (a tenth of the cost), for
    the frozen models the rules replace instead of changing (Origins's Ledgers): the
    values come from the rules, which pydantic would not check there either. The copy
    shares the set of fields set when it names them all already: a frozen model's set never
    changes (`model_copy` copies it before adding to it).

    A dataclass (Schönbrunn's frozen Delegates and Players, which have no `__slots__`,
    and its state's shallow `model_copy`) is copied the same way, its fields being its
    `__dict__`: `dataclasses.replace` would call its `__init__`, which sets each field
    through `object.__setattr__`, at twice the cost."""
    cls = model.__class__
    new = cls.__new__(cls)
    _set(new, "__dict__", {**model.__dict__, **fields})
    pydantic = _MODELS.get(cls)
    if pydantic is None:  # asked once a class: `isinstance` of a model class is a Python
        pydantic = _MODELS[cls] = issubclass(cls, BaseModel)  # call (pydantic's ABCMeta)
    if not pydantic:
        return new
    named = cast(BaseModel, model).__pydantic_fields_set__
    _set(new, "__pydantic_fields_set__", named if named.issuperset(fields) else named | fields.keys())
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new
