"""Slotted record classes for the syntax model, made cheaply at import time.

``@record`` turns a class with annotated fields into a class with ``__slots__`` and an
``__init__`` taking the fields in order (base class fields first), as
``@dataclass(eq=False, slots=True)`` does. Creating twenty dataclasses costs about 13 ms at
import; ``packgate check one.sh`` starts in well under a tenth of a second, so the model's
twenty-odd classes use this instead. Identity equality, a plain repr, no ordering, no hashing
by value: the model's objects are compared by identity everywhere.

A mutable default is written ``factory(list)``; ``fields(obj)`` lists the field names.
"""

from __future__ import annotations

_MISSING = object()


class factory:  # noqa: N801 - reads like dataclasses.field(default_factory=...)
    """A default made fresh for every instance (``names: list = factory(list)``)."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


def record(cls):
    """Make cls a slotted record class (see the module docstring)."""
    names: list[str] = []
    defaults: dict = {}
    for klass in reversed(cls.__mro__[:-1]):
        for name in klass.__dict__.get("__annotations__", {}):
            if name not in names:
                names.append(name)
        for name in names:
            if name in klass.__dict__ and not isinstance(klass.__dict__[name], _SlotDescriptor):
                defaults[name] = klass.__dict__[name]
        if "__record_defaults__" in klass.__dict__:
            defaults.update(klass.__dict__["__record_defaults__"])
    own = [n for n in cls.__dict__.get("__annotations__", {}) if n not in _inherited(cls)]
    namespace = {k: v for k, v in cls.__dict__.items()
                 if k not in own and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = tuple(own)
    namespace["__record_fields__"] = tuple(names)
    namespace["__record_defaults__"] = {n: defaults[n] for n in names if n in defaults}

    params, lines, env = [], [], {"_MISSING": _MISSING}
    for name in names:
        default = defaults.get(name, _MISSING)
        if default is _MISSING:
            params.append(name)
            lines.append(f"    self.{name} = {name}")
        elif isinstance(default, factory):
            env[f"_make_{name}"] = default.make
            params.append(f"{name}=_MISSING")
            lines.append(f"    self.{name} = _make_{name}() if {name} is _MISSING else {name}")
        else:
            env[f"_default_{name}"] = default
            params.append(f"{name}=_default_{name}")
            lines.append(f"    self.{name} = {name}")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(lines) or "    pass") + "\n"
    exec(source, env)  # noqa: S102 - the source is built above from the class's own field names
    namespace["__init__"] = env["__init__"]
    namespace["__init__"].__qualname__ = f"{cls.__qualname__}.__init__"
    namespace.setdefault("__repr__", _repr)
    return type(cls)(cls.__name__, cls.__bases__, namespace)


# the type of the member descriptors __slots__ puts in a class (a record's fields)
_SlotDescriptor = type(type("_Probe", (), {"__slots__": ("x",)}).__dict__["x"])


def _inherited(cls) -> set:
    out: set = set()
    for base in cls.__mro__[1:]:
        out.update(getattr(base, "__record_fields__", ()))
    return out


def _repr(self) -> str:
    inner = ", ".join(f"{n}={getattr(self, n, None)!r}" for n in type(self).__record_fields__)
    return f"{type(self).__name__}({inner})"


def fields(obj) -> tuple:
    """The field names of a record (instance or class), base class fields first."""
    return getattr(obj, "__record_fields__", ())


def is_record(obj) -> bool:
    """True for an instance of a record class."""
    return not isinstance(obj, type) and hasattr(type(obj), "__record_fields__")
