"""The contract index: what the workspace's Python code reads (environment variables, argparse
options), over a root, bounded and cached as the gate scan is (core/project.py), and its queries.

Each file is stat'ed; one whose (path, mtime, size) is unchanged since the last build is not read
again. A file is read through a byte pre-filter (reading.wanted) before any parse. A launch's
entry point picks its parser: the one the entry file builds, else the nearest one its imports
reach (the parser of Megatron's `parse_args`, reached from `train.py` through `pretrain`'s
imports), else the union of the workspace's options; `EntryOptions.how` says which.
"""

from __future__ import annotations

import builtins
import os

from ..pyfiles import MAX_FILE_BYTES, python_files, stamp_changed
from ..records import TextEnum, factory, record
from . import reading
from .entry import Entry, EntryKind
from .envreads import env_reads
from .options import MODULE, FileOptions, OptionDef, file_options

MAX_DEPTH = 12  # hand-offs and imports followed from a parser or an entry
MAX_REACHED = 2000  # files an entry's imports may reach


class How(TextEnum):
    """How an entry's parser was found."""

    ENTRY_FILE = "entry-file"  # the entry script builds it
    IMPORTED = "imported"  # a module the entry imports (directly or not) builds it
    UNION = "union"  # no parser found from the entry: every option the workspace defines
    NOT_FOUND = "not-found"  # the entry is not in the workspace: every option the workspace defines


@record
class FileFacts:
    """What one file holds for the contract."""

    path: str  # absolute
    rel: str  # relative to the root, with /
    reads: list = factory(list)
    options: object = None  # FileOptions when the file defines options, else None
    skipped: str = ""  # why it was not parsed (syntax error, encoding)


@record(frozen=True)
class Tolerance:
    """Whether a parser lets unknown arguments through, and what says so."""

    tolerant: object  # True, False, or None when no parse call was found
    why: str
    file: str = ""
    line: int = 0


@record(frozen=True)
class EntryOptions:
    """The options a launch's entry point accepts."""

    entry: Entry
    file: str  # the entry's file (relative to the root), "" when not found
    how: How
    why: str
    parsers: tuple  # the ParserDefs chosen (empty for a union)
    options: tuple  # OptionDefs, -h/--help included when the parser adds it
    tolerance: Tolerance
    # where the parser may get options the index cannot list (`parents=`, a helper outside the
    # workspace, `add_argument(*names)`, subcommands), as "file:line: what": then `options`
    # is not every option the parser accepts
    gaps: tuple = ()

    @property
    def allow_abbrev(self) -> object:
        """False when every chosen parser refuses abbreviations, True when one allows them, None if unknown."""
        values = {p.allow_abbrev for p in self.parsers}
        return None if not values or None in values else any(values)

    def strings(self) -> frozenset:
        """Every option string accepted."""
        return frozenset(s for o in self.options for s in o.strings)


_HELP = ("-h", "--help")


@record
class ContractIndex:
    """Environment reads and argparse options below a root, and the queries rules ask."""

    root: str
    files: dict = factory(dict)  # rel -> FileFacts, the files that passed the pre-filter
    all_py: list = factory(list)  # rel of every *.py walked (imports are resolved among them)
    files_seen: int = 0
    stamp: tuple = ()
    _modules: object = None
    _lazy: dict = factory(dict)
    _entries: dict = factory(dict)

    # ------------------------------------------------------------ environment reads

    def reads_of(self, name: str) -> tuple:
        """Every read of an environment variable, by file and line."""
        return tuple(r for f in self.files.values() for r in f.reads if r.name == name)

    def names_read(self) -> frozenset:
        """Every variable name the workspace's code reads."""
        return frozenset(r.name for f in self.files.values() for r in f.reads)

    def skipped(self) -> tuple:
        """(rel, why) of the files that could not be parsed."""
        return tuple((f.rel, f.skipped) for f in self.files.values() if f.skipped)

    # ------------------------------------------------------------ options

    def union_options(self) -> tuple:
        """Every option any parser or helper in the workspace defines."""
        return tuple(o for f in self.files.values() if f.options is not None for _, o in f.options.options)

    def options_for(self, entry: Entry | str | None) -> EntryOptions:
        """The options the parser of a launch's entry point defines (see the module docstring);
        None (entry_of could not tell) gives the union."""
        if entry is None:
            entry = Entry(EntryKind.SCRIPT, "")
        if isinstance(entry, str):
            entry = Entry(EntryKind.SCRIPT if entry.endswith(".py") or "/" in entry else EntryKind.MODULE, entry)
        got = self._entries.get(entry)
        if got is None:
            got = self._entries[entry] = self._options_for(entry)
        return got

    def tolerant(self, entry: Entry | str | None) -> Tolerance:
        """Whether the entry's parser lets unknown arguments through."""
        return self.options_for(entry).tolerance

    def _options_for(self, entry: Entry) -> EntryOptions:
        rel = self.entry_file(entry) if entry.target else None
        if not entry.target:
            return self._union(entry, "", How.NOT_FOUND, "the launch's entry point cannot be told from its words")
        if rel is None:
            return self._union(entry, "", How.NOT_FOUND, f"{entry.target} is not a file of the workspace")
        own = self._opts(rel)
        if own.parsers:
            return self._chosen(entry, rel, How.ENTRY_FILE, list(own.parsers), f"{rel} builds its parser")
        for depth, layer in enumerate(self._import_layers(rel), start=1):
            parsers = [p for r in layer for p in self._parsers_in(r)]
            if parsers:
                parsed = [p for p in parsers if self._parse_calls(p)]
                chosen = parsed or parsers
                return self._chosen(entry, rel, How.IMPORTED, chosen,
                                    f"{rel} imports {_places(chosen)} ({depth} import{'s' if depth > 1 else ''} away)")
        return self._union(entry, rel, How.UNION, f"no parser is reached from {rel}'s imports")

    def _union(self, entry, rel, how, why) -> EntryOptions:
        opts = self.union_options()
        every = [p for f in self.files.values() if f.options is not None for p in f.options.parsers]
        tol = Tolerance(None, "no parser chosen")
        for f in self.files.values():
            if f.options is not None and f.options.known_args:
                line = f.options.known_args[0][1]
                tol = Tolerance(True, f"{f.rel}:{line} calls parse_known_args", f.rel, line)
                break
        helps = (OptionDef(_HELP, "help", None, None, None, "help", "", 0, 0, MODULE),) if any(p.add_help for p in every) else ()
        return EntryOptions(entry, rel, how, why + "; the union of the workspace's options", (), opts + helps, tol,
                            self._union_gaps())

    def _union_gaps(self) -> tuple:
        """Where any parser of the workspace may get options the index cannot list."""
        gaps = []
        for f in self.files.values():
            fo = f.options
            if fo is None:
                continue
            gaps.extend(f"{f.rel}:{p.line}: parents= of other parsers" for p in fo.parsers if p.has_parents)
            gaps.extend(f"{f.rel}:{p.line}: prefix_chars={p.prefix_chars!r}" for p in fo.parsers if p.prefix_chars != "-")
            gaps.extend(f"{f.rel}:{line}: {why}" for _, line, why, _ in fo.opaque)
            for h in fo.handoffs:
                if h.callee.split(".")[0] not in _BUILTINS and self.resolve_function(f.rel, h.callee) is None:
                    gaps.append(f"{f.rel}:{h.line}: {h.callee} is not a function of the workspace")
        return tuple(dict.fromkeys(gaps))

    def _chosen(self, entry, rel, how, parsers, why) -> EntryOptions:
        options: list = []
        gaps: list = []
        for p in parsers:
            options.extend(self.parser_options(p, gaps))
            if p.add_help:
                options.append(OptionDef(_HELP, "help", None, None, None, "help", p.file, p.line, p.column, p.function))
        if any(self._hooked(p) for p in parsers):  # extra_args_provider: what the entry hands over
            entry_opts = self._opts(rel)
            for ref, line in entry_opts.passed:
                if self.resolve_function(rel, ref) is None:
                    gaps.append(f"{rel}:{line}: {ref} is handed over and is not a function of the workspace")
                options.extend(self._adder(rel, ref, 0, MAX_DEPTH, set(), gaps))
        return EntryOptions(entry, rel, how, why, tuple(parsers), tuple(_unique(options)),
                            self._tolerance(parsers, rel), tuple(dict.fromkeys(gaps)))

    def parser_options(self, parser, gaps: list | None = None) -> list:
        """The options of one parser: added on it or its groups, and by the helpers it is handed
        to; gaps, when given, gets where options may come from that cannot be listed."""
        gaps = [] if gaps is None else gaps
        rel = self._rel(parser.file)
        fo = self._opts(rel)
        out = [o for t, o in fo.options if t.parser == parser]
        if parser.has_parents:
            gaps.append(f"{rel}:{parser.line}: parents= of other parsers")
        if parser.prefix_chars != "-":  # options start with other characters: not read that way
            gaps.append(f"{rel}:{parser.line}: prefix_chars={parser.prefix_chars!r}")
        gaps.extend(f"{rel}:{line}: {why}" for t, line, why, _ in fo.opaque if t.parser == parser)
        for h in fo.handoffs:
            if h.target.parser == parser:
                out.extend(self._handed(rel, h, MAX_DEPTH, set(), gaps))
        return out

    def _handed(self, rel: str, h, depth: int, seen: set, gaps: list) -> list:
        """The options a hand-off's callee adds; one outside the workspace is a gap (a builtin
        such as `print(parser)` adds none)."""
        if self.resolve_function(rel, h.callee, depth) is None:
            if h.callee.split(".")[0] not in _BUILTINS:
                gaps.append(f"{rel}:{h.line}: {h.callee} is not a function of the workspace")
            return []
        return self._adder(rel, h.callee, h.argument, depth, seen, gaps)

    def _adder(self, rel: str, ref: str, index: int, depth: int, seen: set, gaps: list | None = None) -> list:
        """The options a function adds to its parameter `index` (following its own hand-offs)."""
        gaps = [] if gaps is None else gaps
        found = self.resolve_function(rel, ref, depth)
        if found is None or depth <= 0 or (found, index) in seen:
            return []
        seen.add((found, index))
        frel, qual = found
        fo = self._opts(frel)
        out = [o for t, o in fo.options if t.parser is None and t.index == index and o.function == qual]
        gaps.extend(f"{frel}:{line}: {why}" for t, line, why, function in fo.opaque
                    if t.parser is None and t.index == index and function == qual)
        for h in fo.handoffs:
            if h.function == qual and h.target.parser is None and h.target.index == index:
                out.extend(self._handed(frel, h, depth - 1, seen, gaps))
        return out

    def _hooked(self, parser) -> bool:
        fo = self._opts(self._rel(parser.file))
        return any(t.parser == parser for t, _ in fo.hooks)

    def _parse_calls(self, parser) -> list:
        fo = self._opts(self._rel(parser.file))
        return [line for t, line in fo.known_args + fo.strict_args + fo.given_args
                if t is not None and t.parser == parser]

    def _tolerance(self, parsers, rel) -> Tolerance:
        reached = [rel] + [r for layer in self._import_layers(rel) for r in layer]
        for r in reached:  # Megatron: parse_args(..., ignore_unknown_args=True) in the trainer
            fo = self._opts(r) if r in self.files else None
            if fo is not None and fo.ignore_unknown:
                return Tolerance(True, f"{r}:{fo.ignore_unknown[0]} passes ignore_unknown_args=True", r,
                                 fo.ignore_unknown[0])
        strict = None
        for p in parsers:
            fo = self._opts(self._rel(p.file))
            for t, line in fo.known_args:
                if t is not None and t.parser == p and not any(
                        t2 is not None and t2.parser == p for t2, _ in fo.strict_args):
                    return Tolerance(True, f"{self._rel(p.file)}:{line} calls parse_known_args",
                                     self._rel(p.file), line)
            for t, line in fo.strict_args:
                if t is not None and t.parser == p and strict is None:
                    strict = Tolerance(False, f"{self._rel(p.file)}:{line} calls parse_args", self._rel(p.file), line)
        if strict is None:
            for p in parsers:
                fo = self._opts(self._rel(p.file))
                for t, line in fo.given_args:
                    if t is not None and t.parser == p:
                        return Tolerance(None, f"{self._rel(p.file)}:{line} parses a list of the code's own, "
                                               "not necessarily the launch's words", self._rel(p.file), line)
        return strict or Tolerance(None, "no parse_args or parse_known_args call on the parser was found")

    # ------------------------------------------------------------ files, modules, names

    def entry_file(self, entry: Entry) -> str | None:
        """The entry's file relative to the root, or None when it is not in the workspace."""
        if entry.kind is EntryKind.MODULE:
            found = self.module_file(entry.target)
            if found is not None and found.endswith("__init__.py"):  # `python -m pkg` runs pkg/__main__.py
                found = self.module_file(entry.target + ".__main__")
            return found
        target = os.path.normpath(entry.target.replace("\\", "/")).replace(os.sep, "/")
        if os.path.isabs(target):
            rel = os.path.relpath(target, self.root).replace(os.sep, "/")
            target = rel if not rel.startswith("../") else target.lstrip("/")
        if target in self._rels():
            return target
        # run from another folder (`torchrun $ROOT/pkg/train.py`, `cd pkg && torchrun train.py`)
        tails = [r for r in self.all_py if r.endswith("/" + target) or target.endswith("/" + r)]
        return min(tails, key=len) if tails else None

    def module_file(self, dotted: str) -> str | None:
        """The file of a dotted module: exact, else the shortest file whose module ends with it
        (`megatron.training` in `aiak_megatron/megatron/training/`)."""
        modules = self._module_map()
        found = modules.get(dotted)
        return found if found is not None else self._modules[2].get(dotted)

    def resolve_function(self, rel: str, ref: str, depth: int = MAX_DEPTH):
        """(rel, qualname) of the function a name (`f`, `mod.f`) means in a file, following imports."""
        for _ in range(depth):
            fo = self._opts(rel)
            head, _, rest = ref.partition(".")
            if ref in fo.defs:
                return rel, ref
            imported = fo.imports.get(head)
            if imported is None:
                return None
            module, name, level = imported
            base = self._absolute(rel, module, level)
            if name is None:  # import a.b [as m]: the rest is a.b's
                parts = rest.split(".")
                mod, fn = ".".join([base] + parts[:-1]), parts[-1]
            elif rest:  # from a import b: b is a module, rest is in it
                mod, fn = f"{base}.{name}" if base else name, rest
            else:
                sub = self.module_file(f"{base}.{name}" if base else name)
                if sub is not None:
                    return None  # a module, not a function
                mod, fn = base, name
            target = self.module_file(mod) if mod else None
            if target is None:
                return None
            rel, ref = target, fn
        return None

    def _absolute(self, rel: str, module: str, level: int) -> str:
        if not level:
            return module
        here = self._module_of(rel).split(".")
        if not rel.endswith("__init__.py"):
            here = here[:-1]
        here = here[:len(here) - (level - 1)] if level > 1 else here
        return ".".join([*here, module] if module else here)

    def _import_layers(self, rel: str):
        """Files reached from rel through module-level imports, one layer per import hop."""
        seen = {rel}
        layer = [rel]
        count = 0
        for _ in range(MAX_DEPTH):
            nxt = []
            for r in layer:
                for module, name, level in self._opts(r).imports.values():
                    base = self._absolute(r, module, level)
                    for candidate in ((f"{base}.{name}" if base else name) if name else None, base):
                        target = self.module_file(candidate) if candidate else None
                        if target is not None and target not in seen:
                            seen.add(target)
                            nxt.append(target)
                            count += 1
            if not nxt or count > MAX_REACHED:
                return
            yield nxt
            layer = nxt

    def _parsers_in(self, rel: str) -> list:
        facts = self.files.get(rel)
        return list(facts.options.parsers) if facts is not None and facts.options is not None else []

    def _opts(self, rel: str) -> FileOptions:
        """A file's FileOptions: from the build, or read on demand (a file the pre-filter left
        out, such as a package's __init__ that re-exports a helper)."""
        facts = self.files.get(rel)
        if facts is not None and facts.options is not None:
            return facts.options
        got = self._lazy.get(rel)
        if got is None:
            got = FileOptions(rel)
            data = _read(os.path.join(self.root, rel))
            if data is not None:
                parsed = reading.parse(data, whole=True)
                got = file_options(parsed, os.path.join(self.root, rel))
            self._lazy[rel] = got
        return got

    def _rels(self) -> frozenset:
        self._module_map()
        return self._modules[1]

    def _module_map(self) -> dict:
        if self._modules is None:
            modules: dict = {}
            for r in self.all_py:  # a package wins over a module of its name, as in Python
                m = self._module_of(r)
                if m not in modules or r.endswith("__init__.py"):
                    modules[m] = r
            tails: dict = {}  # "b.c" -> the file of the shortest module "x.b.c" ending with it
            for m, r in sorted(modules.items(), key=lambda mr: (len(mr[0]), mr[0])):
                parts = m.split(".")
                for i in range(1, len(parts)):
                    tails.setdefault(".".join(parts[i:]), r)
            self._modules = (modules, frozenset(self.all_py), tails)
        return self._modules[0]

    @staticmethod
    def _module_of(rel: str) -> str:
        parts = rel[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts)

    def _rel(self, path: str) -> str:
        return os.path.relpath(path, self.root).replace(os.sep, "/")


_BUILTINS = frozenset(dir(builtins))


def _places(parsers) -> str:
    return ", ".join(f"the parser built at {os.path.basename(p.file)}:{p.line}" for p in parsers)


def _unique(options) -> list:
    seen, out = set(), []
    for o in options:
        if o not in seen:
            seen.add(o)
            out.append(o)
    return out


def _read(path: str):
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    return None if len(data) > MAX_FILE_BYTES else data


# (path) -> (mtime_ns, size, FileFacts or None): files unchanged since the last build are not read
_FILES: dict = {}
_INDEXES: dict = {}


def build(root: str) -> ContractIndex:
    """Index the Python files below root (bounded as the gate scan), reusing unchanged files."""
    root = os.path.realpath(root)
    index = ContractIndex(root)
    stamps: list = []
    folders: list = []
    for path, st in python_files(root, folders):
        index.files_seen += 1
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        index.all_py.append(rel)
        if st is None:
            continue
        stamps.append((path, st.st_mtime_ns, st.st_size))
        cached = _FILES.get(path)
        if cached is not None and cached[0] == st.st_mtime_ns and cached[1] == st.st_size:
            facts = cached[2]
        else:
            facts = _facts(path, rel)
            _FILES[path] = (st.st_mtime_ns, st.st_size, facts)
        if facts is not None:
            index.files[rel] = facts
    index.stamp = tuple(stamps + folders)
    return index


def _facts(path: str, rel: str):
    """One file's facts, or None when the pre-filter says it holds nothing."""
    data = _read(path)
    if data is None:
        return None
    env, opts = reading.wanted(data)
    if not env and not opts:
        return None
    parsed = reading.parse(data, whole=opts)
    facts = FileFacts(path, rel, skipped=parsed.skipped)
    if parsed.skipped:
        return facts
    if env:
        facts.reads = env_reads(parsed, path)
    if opts:
        facts.options = file_options(parsed, path)
    return facts


def contract_index(root: str, *, revalidate: bool = True) -> ContractIndex:
    """The (cached) index of a root; with revalidate, rebuilt when a file it walked changed."""
    key = os.path.realpath(root)
    cached = _INDEXES.get(key)
    if cached is not None and (not revalidate or not stamp_changed(cached.stamp)):
        return cached
    index = _INDEXES[key] = build(key)
    return index


def invalidate(root: str | None = None, *, files: bool = True) -> None:
    """Forget cached indexes (all, or root's) and, with no root and files, every file's facts
    (files=False keeps them: each is checked by stat when an index is built again)."""
    if root is None:
        _INDEXES.clear()
        if files:
            _FILES.clear()
    else:
        _INDEXES.pop(os.path.realpath(root), None)
