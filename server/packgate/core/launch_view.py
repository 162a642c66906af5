"""What each launch sees, per distinct path: the words the launched program receives and the
environment (the profile's gates, the names the workspace's code reads, or every exported
one), each value with where it came from. Pure: an analysis in, typed records out (`packgate
launches`, the server's `packgate.showLaunches`)."""

from __future__ import annotations

from .code.entry import entry_of
from .flow.facts import LaunchPath, Origin, Val, ValKind, Var
from .parse.model import AssignMode, Lit, Ref
from .records import TextEnum, record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


class EnvScope(TextEnum):
    """Which variables a view lists."""

    READ = "read"  # the profile's gates and every name the workspace's code reads
    ALL = "all"  # those and every name the script exports (or removes) on the path


class From(TextEnum):
    """Where the value a launch sees of a variable comes from."""

    EXPORT = "export"  # an exported assignment of the script (export, declare -x, set -a, export later)
    PREFIX = "prefix"  # `NAME=value launcher ...`
    ENV = "env"  # `env NAME=value launcher ...`
    DOCKER = "docker"  # `docker run -e NAME=value ...`
    DEFAULT = "default"  # `${X:-value}`: this value unless the caller sets X
    CALLER = "caller"  # the caller's environment: the script never sets it, or passes the caller's on
    ARGUMENT = "argument"  # a positional parameter of the script (`export X=$1`)
    UNKNOWN = "unknown"  # a command's output, `read`, a docker `--env-file`: nobody can tell
    UNEXPORTED = "unexported"  # set but never exported: absent, unless the caller exported the name
    UNSET = "unset"  # surely absent: `unset`, `export -n`, `env -u`
    CLEARED = "cleared"  # absent: `env -i` or a container started the launch's environment empty
    ARRAY = "array"  # an array: bash never puts arrays in the environment


# the values a launch surely does not have in its environment
ABSENT = frozenset({From.UNSET, From.CLEARED, From.ARRAY})
# the mechanism that gave a literal value, by how the assignment was written
_BY_MODE = {AssignMode.PREFIX: From.PREFIX, AssignMode.ENV: From.ENV, AssignMode.DOCKER: From.DOCKER}
_BY_ORIGIN = {Origin.CALLER: From.CALLER, Origin.INHERITED: From.CALLER, Origin.ARGUMENT: From.ARGUMENT,
              Origin.DEFAULT: From.DEFAULT, Origin.UNKNOWN: From.UNKNOWN}


class WordKind(TextEnum):
    """How much packgate knows of one word the launched program receives."""

    KNOWN = "known"
    DEFAULT = "default"  # a default the caller may override (`${MBS:-1}`)
    UNKNOWN = "unknown"


@record(frozen=True)
class Word:
    """One word of the argv (text None: packgate cannot know it)."""

    text: Optional[str]
    kind: WordKind
    name: str = ""  # DEFAULT / UNKNOWN: the variable or positional parameter it comes from, when one
    # an unquoted expansion (or a word packgate could not find again): bash may split it into
    # several words or drop it when it is empty; False: it is exactly one word
    splits: bool = False


@record(frozen=True)
class EnvValue:
    """One variable as a launch sees it."""

    value: Optional[str]  # None: absent or not known
    source: From
    line: Optional[int]  # 1-based line of the assignment (a sourced file's: its `source` command)
    file: Optional[str] = None  # the sourced file the assignment is in (None: this document)
    file_line: Optional[int] = None  # and its 1-based line there


@record(frozen=True)
class PathView:
    """One distinct path to a launch (paths giving the same argv and environment are one)."""

    label: str  # the path's branch decisions; "" when the launch has one path
    argv: tuple  # of Word: what the launched program receives after its own name
    env: tuple  # of (name, EnvValue), sorted by name

    def env_dict(self) -> dict:
        """name -> EnvValue."""
        return dict(self.env)


@record(frozen=True)
class LaunchView:
    """One launch: where it is, its command and entry point, and its distinct paths."""

    line: int
    column: int
    start: int  # byte offsets of the launch command in the document
    end: int
    command: str
    entry: Optional[str]  # the script or dotted module it runs, None when it cannot be told
    paths: tuple  # of PathView


@record(frozen=True)
class LaunchesView:
    """Every launch of one document."""

    file: str
    launches: tuple  # of LaunchView
    read_names: int  # how many names the workspace's code reads (0: no code was found)


def launch_view(analysis, *, scope: EnvScope = EnvScope.READ, read_names=None,
                file: str = "") -> LaunchesView:
    """The launches of an analysis (made with analyze(..., wide=True) so every word is
    followed), each path's argv and environment. read_names: the names the workspace's code
    reads (None: asked of the analysis's contract index)."""
    flow = analysis.flow
    if flow is None:
        return LaunchesView(file or analysis.path or "", (), len(read_names or ()))
    from .rules.base import Context
    ctx = Context(analysis.source, analysis.script, flow, analysis.profile, analysis.settings.lang,
                  analysis.path, revalidate=False)
    if read_names is None:  # the contract index of the script's project (none: no training code found)
        index = ctx.contract()
        read_names = index.names_read() if index is not None else frozenset()
    listed = frozenset(ctx.live) | frozenset(read_names)  # the profile's gates: a dead one is `all`'s
    out = [_launch(ctx, launch, listed, scope) for launch in flow.launches if not launch.implicit]
    return LaunchesView(file or analysis.path or "", tuple(out), len(read_names))


def _launch(ctx, launch, listed: frozenset, scope: EnvScope) -> LaunchView:
    from .rules.packing import label_text
    source = ctx.source
    at = min(launch.start, len(source.data))
    line, column = source.user_position(at)
    command = launch.command or launch.label.split(" ", 1)[0]
    groups: dict = {}  # (argv, env) -> labels of the paths that give them, in walk order
    entry = None
    words = _script_words(ctx)
    for path in launch.paths:
        argv = tuple(w for w in (_word(v, words) for v in path.args) if w is not None)
        env = _env(ctx, path, listed, scope)
        groups.setdefault((argv, env), []).append(path.labels)
        if entry is None:
            found = entry_of(command, [w.text for w in argv]) if command else None
            entry = found.target if found is not None else None
    paths = []
    for (argv, env), labels in groups.items():
        text = "" if len(groups) == 1 else " | ".join(dict.fromkeys(label_text(ctx, ls, keep=0) for ls in labels))
        paths.append(PathView(text, argv, env))
    return LaunchView(line, column, launch.start, launch.end, command, entry, tuple(paths))


def _script_words(ctx) -> dict:
    """(start, end) -> the Word of every command word and array element of the document (once
    per view): where an argv value came from, to tell a quoted word from one that splits."""
    words = ctx.cache.get("launch_view_words")
    if words is None:
        from .parse.model import Assign, Command
        from .parse.visit import walk
        words = ctx.cache["launch_view_words"] = {}
        for st in walk(ctx.script.body):
            if type(st) is Command:
                for w in st.words:
                    words[(w.start, w.end)] = w
            elif type(st) is Assign and st.array:
                for w in st.array:
                    words[(w.start, w.end)] = w
    return words


def _splits(val: Val, words: dict) -> bool:
    """Whether bash may split the word val came from (or drop it): an unquoted expansion; a word
    of a sourced file or child shell, not found in this document, is taken to split."""
    word = words.get(val.span) if val.span is not None and not val.foreign else None
    if word is None:
        return True
    if word.quote in ("'", '"'):
        return False
    return any(not isinstance(p, Lit) and not (isinstance(p, Ref) and p.quoted) for p in word.parts)


def _vanishes(val: Val, words: dict) -> bool:
    """An empty value of a word made only of unquoted expansions (`$EMPTY`): bash drops the word."""
    word = words.get(val.span) if val.span is not None and not val.foreign else None
    return word is not None and word.quote == "" and bool(word.parts) and \
        all(isinstance(p, Ref) and not p.quoted for p in word.parts)


def _word(val: Val, words: dict) -> Optional[Word]:
    """One argv word from the value the walk gave it (None: bash drops it)."""
    if val.kind in (ValKind.KNOWN, ValKind.UNSET) and val.text == "" and _vanishes(val, words):
        return None
    if val.kind == ValKind.KNOWN:
        return Word(val.text, WordKind.KNOWN, splits=val.text == "" and _splits(val, words))
    if val.kind == ValKind.DEFAULT:
        return Word(val.text, WordKind.DEFAULT, val.name, _splits(val, words))
    if val.kind == ValKind.UNSET:  # `"$X"` of a variable the script unset: an empty word
        return Word("", WordKind.KNOWN, splits=_splits(val, words))
    return Word(None, WordKind.UNKNOWN, val.name, _splits(val, words))


def _env(ctx, path: LaunchPath, listed: frozenset, scope: EnvScope) -> tuple:
    """(name, EnvValue) of every listed name (and, for ALL, every name the path exports or removes)."""
    names = set(listed)
    if scope == EnvScope.ALL:
        names.update(n for n, v in path.vars.items() if v is not None and (v.exported or v.negated))
        names.update(path.removed)
    return tuple((n, _value(ctx, path, n)) for n in sorted(names))


def _value(ctx, path: LaunchPath, name: str) -> EnvValue:
    """What the launch on this path sees of one name, and from where."""
    var: Optional[Var] = path.var(name)
    if var is None:
        removed = path.removed.get(name)
        if removed is not None:
            return EnvValue(None, From.UNSET, _removal_line(ctx, removed[0]))
        if path.env_file:
            return EnvValue(None, From.UNKNOWN, None)
        if path.cleared or path.docker_at >= 0:
            return EnvValue(None, From.CLEARED, None)
        return EnvValue(None, From.CALLER, None)
    line = _line(ctx, var)
    if var.negated and not var.exported:  # `export -n X`; a later `export X` exports it again
        removed = path.removed.get(name)
        return EnvValue(None, From.UNSET, _removal_line(ctx, removed[0]) if removed else line)
    val = var.val
    if val.kind == ValKind.UNSET:
        if path.env_file:
            return EnvValue(None, From.UNKNOWN, line)
        if var.origin is None and var.exported and not (path.cleared or path.docker_at >= 0):
            return EnvValue(None, From.CALLER, None)  # `export X` alone keeps the caller's X, if any
        return EnvValue(None, From.UNSET, line)
    if not var.exported:
        return EnvValue(None, From.UNEXPORTED, line)
    if var.array is not None:
        return EnvValue(None, From.ARRAY, line)
    file, file_line = _in_sourced(ctx, var)
    if val.kind == ValKind.KNOWN:
        mode = var.origin.mode if var.origin is not None else AssignMode.EXPORT
        return EnvValue(val.text, _BY_MODE.get(mode, From.EXPORT), line, file, file_line)
    if val.kind == ValKind.DEFAULT:
        return EnvValue(val.text, From.DEFAULT, line, file, file_line)
    return EnvValue(None, _BY_ORIGIN.get(val.origin, From.UNKNOWN), line, file, file_line)


def _offset_line(ctx, offset: int) -> Optional[int]:
    """The 1-based line of a byte offset of this document (None past its end)."""
    return ctx.line(offset) if 0 <= offset <= len(ctx.source.data) else None


def _line(ctx, var: Var) -> Optional[int]:
    """The 1-based line of the assignment var came from, in this document (for one in a sourced
    file: its `source` command, when the walk noted it)."""
    assign = var.origin
    if assign is None:
        return None
    if getattr(assign, "file", None):
        via = ctx.flow.sourced_at.get(assign)
        return ctx.line(via[0]) if via is not None else None
    return _offset_line(ctx, assign.start)


def _in_sourced(ctx, var: Var) -> tuple:
    """(the sourced file, the 1-based line there) of the assignment var came from, or (None, None)."""
    assign = var.origin
    file = getattr(assign, "file", None) if assign is not None else None
    if not file or file not in ctx.flow.foreign:
        return None, None
    from .text import Source
    source = ctx.cache.get(("launch_view_source", file))
    if source is None:
        source = ctx.cache[("launch_view_source", file)] = Source(ctx.flow.foreign[file])
    return file, source.line_of(assign.start) + 1 if assign.start <= len(source.data) else None


def _removal_line(ctx, offset: int) -> Optional[int]:
    """The line of the `unset` / `export -n` / `env -u` at offset, when it is one of this
    document's (the walk does not say which file a removal was in: one in a sourced file has no
    line here)."""
    starts = ctx.cache.get("launch_view_removals")
    if starts is None:
        from .parse.model import ExportNames, Unset
        from .parse.visit import walk
        starts = ctx.cache["launch_view_removals"] = {st.start for st in walk(ctx.script.body)
                                                       if type(st) in (Unset, ExportNames)}
        starts.update(start for start, _ in _script_words(ctx))
    return _offset_line(ctx, offset) if offset in starts else None


def launches_of(text: str, *, path: str | None = None, settings=None, scope: EnvScope = EnvScope.READ,
                **options):
    """The LaunchesView of a script's text, analysed with every launch word followed (options:
    engine.analyze's loader / previous / revalidate), or the reason it was not analysed (too
    large) as a string."""
    from .engine import analyze
    analysis = analyze(text, path=path, settings=settings, wide=True, **options)
    if analysis.note:
        return analysis.note
    return launch_view(analysis, scope=scope, file=path or "-")
