"""Slotted record classes for the core, made cheaply at import time.

``@record`` turns a class with annotated fields into a class with ``__slots__`` and an
``__init__`` taking the fields in order (base class fields first), as
``@dataclass(eq=False, slots=True)`` does; ``@record(eq=True)`` adds equality by value and
``@record(frozen=True)`` also hashing and immutability, as ``@dataclass(frozen=True)`` does.
``replace(obj, **changes)`` is ``dataclasses.replace``. A mutable default is written
``factory(list)``; ``factory(dict, compare=False)`` leaves a field out of equality and hashing.
A ``__post_init__`` method runs at the end of ``__init__``.

Why not dataclasses: importing them (with inspect, ast, dis, tokenize) and creating the core's
forty-odd classes costs about 20 ms, a quarter of `packgate check one.sh`, which races
ShellCheck's start-up. For the same reason the generated ``__init__`` is compiled when the
class is first made, not at import. Records are pickled by their fields (the process pool of
`check`).
"""

from __future__ import annotations

from enum import Enum
from operator import attrgetter

from .record_inits import INITS

_MISSING = object()


class factory:  # noqa: N801 - reads like dataclasses.field(default_factory=...)
    """A default made fresh for every instance (``names: list = factory(list)``)."""

    __slots__ = ("make", "compare")

    def __init__(self, make, compare: bool = True):
        self.make, self.compare = make, compare


def record(cls=None, *, eq: bool = False, frozen: bool = False):
    """Make cls a slotted record class (see the module docstring)."""
    if cls is None:
        return lambda c: record(c, eq=eq, frozen=frozen)
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
    inherited = _inherited(cls)
    own = [n for n in cls.__dict__.get("__annotations__", {}) if n not in inherited]
    namespace = {k: v for k, v in cls.__dict__.items()
                 if k not in own and k not in ("__dict__", "__weakref__")}
    namespace["__slots__"] = tuple(own)
    namespace["__record_fields__"] = tuple(names)
    namespace["__record_defaults__"] = {n: defaults[n] for n in names if n in defaults}
    compared = tuple(n for n in names if not (isinstance(defaults.get(n), factory) and not defaults[n].compare))

    set_ = "_set(self, '{0}', {1})" if frozen else "self.{0} = {1}"
    params, lines, env = [], [], {"_MISSING": _MISSING, "_set": object.__setattr__}
    for name in names:
        default = defaults.get(name, _MISSING)
        if default is _MISSING:
            params.append(name)
            lines.append("    " + set_.format(name, name))
        elif isinstance(default, factory):
            env[f"_make_{name}"] = default.make
            params.append(f"{name}=_MISSING")
            lines.append("    " + set_.format(name, f"_make_{name}() if {name} is _MISSING else {name}"))
        else:
            env[f"_default_{name}"] = default
            params.append(f"{name}=_default_{name}")
            lines.append("    " + set_.format(name, name))
    if "__post_init__" in cls.__dict__ or any("__post_init__" in b.__dict__ for b in cls.__mro__[1:-1]):
        lines.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(lines) or "    pass") + "\n"
    if eq or frozen:
        env["__eq__"], env["__hash__"] = _by_value(compared)
        if not frozen:
            del env["__hash__"]
    for fn in ("__eq__", "__hash__"):
        if fn in env:
            env[fn].__qualname__ = f"{cls.__qualname__}.{fn}"
            namespace[fn] = env[fn]
    if eq and not frozen:
        namespace["__hash__"] = None  # mutable and compared by value: unhashable, as dataclasses
    if frozen:
        namespace["__setattr__"] = _frozen_setattr
        namespace["__delattr__"] = _frozen_setattr
    namespace.setdefault("__repr__", _repr)
    namespace["__reduce__"] = _reduce
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__init__ = _init(made, source, env)
    return made


# every record class made in this process: (module.qualname, its __init__'s source, the names of
# the defaults and factories it reads), what prebuilt_source() writes out
_MADE: list = []


def _init(cls, source: str, env: dict):
    """The class's __init__: record_inits.py's, made from code the bytecode cache keeps, when
    its source there is this one; else one compiled from source on first use."""
    key = f"{cls.__module__}.{cls.__qualname__}"
    names = tuple(sorted(n for n in env if n.startswith(("_make_", "_default_"))))
    _MADE.append((key, source, names))
    built = INITS.get(key)
    if built is None or built[0] != source:
        return _init_on_first_use(cls, source, env)
    init = built[1](_MISSING, object.__setattr__, *(env[n] for n in names))
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def prebuilt_source() -> str:
    """record_inits.py as it should be: every record class of the package (all its modules
    imported), its __init__ as a factory of the defaults it reads."""
    import importlib
    import pkgutil

    import packgate
    for info in pkgutil.walk_packages(packgate.__path__, "packgate."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    seen: dict = {}
    for key, source, names in _MADE:
        if key.startswith("packgate."):
            seen[key] = None if key in seen and seen[key][0] != source else (source, names)
    out = ['"""Generated by `python -m packgate.core.records --write` (tests/core/test_records.py says when it\n'
           'is stale): the __init__ of every record class, as code the bytecode cache keeps. Compiling\n'
           'them in every run cost a tenth of a cold `packgate check`; records.py falls back to that for\n'
           'a class whose source here differs."""\n', "# flake8: noqa", ""]
    table = []
    for n, (key, entry) in enumerate(sorted((k, v) for k, v in seen.items() if v is not None)):
        source, names = entry
        params = ", ".join(("_MISSING", "_set") + names)
        body = "".join("    " + line + "\n" for line in source.splitlines())
        out.append(f"\ndef _init_{n}({params}):\n{body}    return __init__\n")
        table.append(f"    {key!r}: ({source!r}, _init_{n}),")
    out.append("\nINITS = {\n" + "\n".join(table) + "\n}\n")
    return "\n".join(out)


def _init_on_first_use(cls, source: str, env: dict):
    """An __init__ that compiles the real one from source on the first call and puts it in its
    place. A compile costs about 100 us, and a run of `check` never makes 20 of the 50 record
    classes (editor-only, fixes, sourcing): compiling them all up front was a twentieth of it."""
    qualname = f"{cls.__qualname__}.__init__"

    def __init__(self, *args, **kwargs):
        exec(source, env)  # noqa: S102 - the source is built in record() from the class's own field names
        init = env["__init__"]
        init.__qualname__ = qualname
        cls.__init__ = init
        init(self, *args, **kwargs)

    __init__.__qualname__ = qualname
    return __init__


def _by_value(names: tuple):
    """__eq__ and __hash__ over the named fields. Only __init__ is compiled from source: each
    compile costs about 50 us, and three per frozen record were a twentieth of a cold start."""
    values = attrgetter(*names) if names else (lambda obj: ())

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    def __hash__(self):
        return hash(values(self))

    return __eq__, __hash__


def _frozen_setattr(self, name, value=None):
    raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")


def _reduce(self):
    return type(self), tuple(getattr(self, n) for n in type(self).__record_fields__)


def replace(obj, **changes):
    """A copy of a record with some fields changed (dataclasses.replace for records)."""
    cls = type(obj)
    values = {n: getattr(obj, n) for n in cls.__record_fields__}
    for name in changes:
        if name not in values:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    values.update(changes)
    return cls(**values)


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


class TextEnum(str, Enum):
    """An enum whose members are their text: printed, formatted, compared and shown as strings."""

    __repr__ = str.__repr__
    __str__ = str.__str__
    __format__ = str.__format__


def fields(obj) -> tuple:
    """The field names of a record (instance or class), base class fields first."""
    return getattr(obj, "__record_fields__", ())


def is_record(obj) -> bool:
    """True for an instance of a record class."""
    return not isinstance(obj, type) and hasattr(type(obj), "__record_fields__")


if __name__ == "__main__":
    import sys
    from pathlib import Path
    target = Path(__file__).with_name("record_inits.py")
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m packgate.core.records --write")
    from packgate.core import records  # the module the package's classes were made by, not __main__
    target.write_text(records.prebuilt_source(), encoding="utf-8")
