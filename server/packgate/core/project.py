"""Profile `auto`: derive the gates from the Python training code found in the project.

The index reads `*.py` files below a project root and records every read of a gate variable
(`os.environ.get`, `os.getenv`, `os.environ[...]`) with how its value is parsed. It never imports
or runs the code it reads.
"""

from __future__ import annotations

import os

from . import gates as G
from .files import upward
from .pyfiles import python_files, stamp_changed
from .records import factory, record, replace

ROOT_MARKERS = (".git", "pyproject.toml")
# Without a repository root (a release archive, code copied into a container) the training
# code itself marks the root: a setup script, or the package the launchers run.
CODE_MARKERS = ("setup.py", "setup.cfg", "aiak_training_llm", "llava")
# A configuration file says how to check; it never moves where the training code is looked
# for: packgate's own marks the root only when nothing above the script marks one
# (`examples/.packgate.toml` in a clone of the training repository leaves the root at the top).
CONFIG_MARKERS = (".packgate.toml",)


@record(frozen=True)
class Read:
    """One place in the training code that reads a gate."""

    name: str
    path: str
    line: int  # 1-based
    column: int  # 1-based, code points
    parse: str  # "int" (int(v) == 1), "str" (v == "1") or "other"
    text: str  # the source line, stripped


@record(eq=True)
class ProjectIndex:
    """Every gate read found below a root, and the profile they imply."""

    root: str
    reads: list = factory(list)
    files_scanned: int = 0
    stamp: tuple = ()

    def profile(self) -> G.Profile | None:
        """The profile the reads imply, or None when the project holds no such code."""
        live = {r.name for r in self.reads}
        if not live:
            return None
        encoding = tuple(n for n in (G.VQA, G.BMR) if n in live)
        batch = G.PACKED
        if not encoding:
            # only the batch gate is read: the encoding side cannot be packed by an env gate
            encoding = (G.BMR,)
        dead = tuple(n for n in (G.BMR, G.VQA) if n not in live)
        places = []
        for r in sorted(self.reads, key=lambda r: (r.path, r.line)):
            place = f"{os.path.basename(r.path)}:{r.line}"
            if place not in places:
                places.append(place)
        title = "derived from " + ", ".join(places[:4])
        return G.Profile("auto", encoding, batch, dead, title,
                         "由项目代码推断：" + title[len("derived from "):], tuple(self.reads),
                         relations=G.packing_relations(encoding, batch) + G.MEGATRON_RELATIONS)


def find_root(start: str | os.PathLike[str]) -> str | None:
    """The nearest folder upward holding .git or pyproject.toml; without one, the nearest
    holding the training code (setup.py, setup.cfg, an aiak_training_llm/ or llava/ package);
    without that either, the nearest holding a .packgate.toml. So a configuration file never
    stops the search for the first two."""
    return find_root_marker(start)[0]


def find_root_marker(start: str | os.PathLike[str]) -> tuple[str | None, str | None]:
    """(find_root's folder, the marker found there), or (None, None)."""
    try:
        here = os.path.realpath(start)
    except (OSError, ValueError):
        return None, None
    if not os.path.isdir(here):
        here = os.path.dirname(here)
    folders = list(upward(here))
    for markers in (ROOT_MARKERS, CODE_MARKERS, CONFIG_MARKERS):
        for folder in folders:
            for m in markers:
                if os.path.exists(os.path.join(folder, m)):
                    return folder, m
    return None, None


def _reads_in(text: str, path: str) -> list:
    """Gate reads in one Python file, found on its syntax tree (strings and comments never count)."""
    import ast  # imported on first use: most checks never read Python code
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # Python counts lines at these only
    parents: dict = {}
    found = []
    stack = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            parents[child] = node
            stack.append(child)
        hit = _read_name(node)
        if hit is None:
            continue
        name, arg = hit
        kind = "other"
        up = parents.get(node)
        for _ in range(4):
            if up is None:
                break
            if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "int":
                kind = "int"
                break
            if isinstance(up, ast.Compare) and any(
                    isinstance(c, ast.Constant) and c.value == "1" for c in [up.left, *up.comparators]):
                kind = "str"
                break
            up = parents.get(up)
        line = lines[arg.lineno - 1] if 0 < arg.lineno <= len(lines) else ""
        # ast columns are UTF-8 byte offsets; +1 skips the opening quote
        column = len(line.encode("utf-8")[:arg.col_offset].decode("utf-8", "replace")) + 1
        found.append(Read(name, path, arg.lineno, column + 1, kind, line.strip()))
    found.sort(key=lambda r: (r.line, r.column))
    return found


def _read_name(node):
    """(gate, its string node) when node reads a gate: environ.get("X"), getenv("X"), environ["X"]."""
    import ast  # imported on first use: most checks never read Python code
    arg = None
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        attr = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if attr == "getenv" or (attr == "get" and isinstance(func, ast.Attribute)
                                and _is_environ(func.value)):
            arg = node.args[0]
    elif isinstance(node, ast.Subscript) and _is_environ(node.value):
        arg = node.slice
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value in G.GATES:
        return arg.value, arg
    return None


def _is_environ(node) -> bool:
    import ast  # imported on first use: most checks never read Python code
    return (isinstance(node, ast.Attribute) and node.attr == "environ") or \
        (isinstance(node, ast.Name) and node.id == "environ")


def scan(root: str) -> ProjectIndex:
    """Read the Python files below root (bounded) and index the gate reads."""
    index = ProjectIndex(str(root))
    stamps: list = []
    folders: list = []
    count = 0
    for path, st in python_files(root, folders):
        count += 1
        if st is None:
            continue
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        stamps.append((path, st.st_mtime_ns, st.st_size))
        if not any(g.encode() in data for g in G.GATES):
            continue
        text = data.decode("utf-8", "replace")
        index.reads.extend(_reads_in(text, path))
    index.files_scanned = count
    index.stamp = tuple(stamps + folders)
    return index


_CACHE: dict = {}
# a script's path -> its project root (find_root), for typing: a lookup stats every folder up
# to the root (2-5% of a keystroke); bounded, and forgotten by invalidate()
_ROOTS: dict = {}
_MAX_ROOTS = 4096


def root_of(path: str, *, refresh: bool = True) -> str | None:
    """find_root for a script's path; without refresh, the root found last time (the language
    server looks again on open and save, and forgets them all when the project changes)."""
    if not refresh and path in _ROOTS:
        return _ROOTS[path]
    root = find_root(path)
    if len(_ROOTS) >= _MAX_ROOTS:
        _ROOTS.clear()
    _ROOTS[path] = root
    return root


def index_for(path: str | None, *, revalidate: bool = True) -> ProjectIndex | None:
    """The (cached) index of the project holding path.

    With revalidate, a changed Python file triggers a rescan; the language server passes False
    and calls invalidate() from its file watcher instead, so typing never stats the tree. The
    project root is the one root_of found last (an analysis that revalidates looks it up first).
    """
    if not path:
        return None
    root = root_of(path, refresh=False)
    if root is None:
        return None
    cached = _CACHE.get(root)
    if cached is not None and (not revalidate or not _changed(cached)):
        return cached
    index = scan(root)
    _CACHE[root] = index
    return index


def auto_profile(path: str | None, *, revalidate: bool = True) -> G.Profile:
    """The profile `auto` means for a script: derived from the project's training code, else
    ov2 with the reason in `assumed_en` / `assumed_zh` (shown once by the CLI and the editor)."""
    if not path:
        return _assumed("standard input has no path, so no project code can be read",
                        "标准输入没有路径，无法读取项目代码")
    index = index_for(path, revalidate=revalidate)
    if index is None:
        return _assumed(
            "no project root above the script (a .git folder, pyproject.toml, setup.py, setup.cfg, "
            "an aiak_training_llm/ package or packgate's own configuration file)",
            "脚本上方没有项目根目录（.git 目录、pyproject.toml、setup.py、setup.cfg、"
            "aiak_training_llm/ 包或 packgate 自己的配置文件）")
    derived = index.profile()
    if derived is not None:
        return derived
    return _assumed(f"no Python code below {index.root} reads a packing gate "
                    f"({index.files_scanned} .py files read)",
                    f"{index.root} 下没有读取打包开关的 Python 代码（读取了 {index.files_scanned} 个 .py 文件）")


def assumed_message(profile: G.Profile, lang: str = "en") -> str:
    """The line that says `auto` assumed ov2 and why, in en, zh or both (one line each); "" when the
    profile was chosen or derived (what the editor shows once, like the CLI's summary)."""
    if not profile.assumed_en:
        return ""
    en = f"packgate: profile ov2 assumed: {profile.assumed_en}"
    zh = f"packgate：假定使用 ov2 配置：{profile.assumed_zh}"
    return zh if lang == "zh" else f"{en}\n{zh}" if lang == "both" else en


def _assumed(why_en: str, why_zh: str) -> G.Profile:
    # asked at every keystroke of a document with `auto`: the same reasons give the same record
    # (frozen, so one serves them all)
    made = _ASSUMED.get((why_en, why_zh))
    if made is None:
        if len(_ASSUMED) >= _MAX_ROOTS:
            _ASSUMED.clear()
        made = _ASSUMED[why_en, why_zh] = replace(G.profile("ov2"), assumed_en=why_en, assumed_zh=why_zh)
    return made


_ASSUMED: dict = {}


def _changed(index: ProjectIndex) -> bool:
    return stamp_changed(index.stamp)


def invalidate(root: str | None = None) -> None:
    """Forget cached indexes (all, or the one of root), the contract indexes with them, and every
    project root found."""
    from .code.index import invalidate as forget_contract  # lazily: check need not import it
    forget_contract(root, files=False)  # the server passes revalidate=False: new files need this
    _ROOTS.clear()
    if root is None:
        _CACHE.clear()
    else:
        _CACHE.pop(os.path.realpath(root), None)
