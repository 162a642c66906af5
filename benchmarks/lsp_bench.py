"""Language server speed: `initialize` after spawn, and didChange -> diagnostics on a 2,000-line launcher.

Run: .venv/bin/python benchmarks/lsp_bench.py [--edits 60] [--spawns 8] [--text generated|builtin] [--startup-only]

Prints figures and ratios against baselines measured in the same run (this machine's load moves
absolute numbers): a bare pygls server for `initialize`, and the core's own `analyze()` for
didChange. Targets from the issue: didChange -> publishDiagnostics p95 <= 25 ms, `initialize`
answered < 500 ms after spawn. Nothing here asserts; the tests never time anything.

The start-up figures also give the time from spawn to the first publishDiagnostics of a didOpen
sent right after `initialized`: what a user waits for when the editor starts the server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pytest_lsp import client_capabilities  # noqa: E402

SERVER = [sys.executable, "-m", "packgate", "lsp"]
# The floor: pygls and lsprotocol imported, no packgate at all.
BARE = [sys.executable, "-c", "from pygls.lsp.server import LanguageServer as S; S('bare', '0').start_io()"]
STARTUP_URI = "file:///packgate-bench/startup.sh"


def launcher(lines: int = 2000) -> str:
    """A launcher shaped like the real ones: arrays with comments, Chinese, a launch at the end."""
    head = ["#!/bin/bash", "set -euo pipefail", "# 训练脚本：LLaVA-OneVision-2 打包训练 🚀",
            'MBS="${4:-1}"', 'GBS="${5:-256}"', "export OFFLINE_PACKING_BMR='1'"]
    body: list[str] = []
    i = 0
    while len(head) + len(body) < lines - 7:
        body += [f"# 第 {i} 组参数", f"MODEL_ARGS_{i}=(", f"    --num-layers {i % 48}  # 层数",
                 f'    --hidden-size "${{HIDDEN_{i}:-4096}}"', "", f"    --data-path /data/part_{i}.jsonl", ")"]
        i += 1
    tail = ["TRAINING_ARGS=(", '    --micro-batch-size "${MBS}"', '    --global-batch-size "${GBS}"', ")",
            'PYTHONPATH="$PWD:${PYTHONPATH:-}" \\', "torchrun --nproc_per_node 8 aiak_training_llm/train.py \\",
            '    "${TRAINING_ARGS[@]}" 2>&1 | tee "train.log"']
    return "\n".join(head + body[: lines - len(head) - len(tail)] + tail) + "\n"


def env(extra: dict[str, str] | None = None) -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "server"), out.get("PYTHONPATH", "")) if p)
    out.update(extra or {})
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(values: list[float]) -> str:
    return (f"p50 {statistics.median(values):6.1f} ms  p95 {pct(values, 0.95):6.1f} ms  "
            f"max {max(values):6.1f} ms  (n={len(values)})")


async def spawn(command: list[str], caps: types.ClientCapabilities,
                extra_env: dict[str, str] | None = None) -> tuple[LanguageClient, float]:
    """Start a server and return the client and the ms from spawn to the initialize answer."""
    client, elapsed, _ = await spawn_and_open(command, caps, None, extra_env)
    return client, elapsed


async def spawn_and_open(command: list[str], caps: types.ClientCapabilities, text: str | None,
                         extra_env: dict[str, str] | None = None,
                         folders: list[Path] | None = None) -> tuple[LanguageClient, float, float | None]:
    """spawn(), then (with text) a didOpen sent right after `initialized`: the client, the ms from
    spawn to the initialize answer, and the ms from spawn to that document's first publishDiagnostics.
    folders: the workspace folders the client announces."""
    client = LanguageClient("packgate-bench", "1")
    published: dict = {}
    client.published = published  # type: ignore[attr-defined]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        waiter = published.pop((params.uri, params.version), None) or published.pop((params.uri, None), None)
        if waiter is not None and not waiter.done():
            waiter.set_result(time.perf_counter())

    for method in (types.WINDOW_LOG_MESSAGE, types.WINDOW_SHOW_MESSAGE):
        client.feature(method)(lambda params: None)

    @client.feature(types.WORKSPACE_CONFIGURATION)
    def configuration(params: types.ConfigurationParams):
        return [None for _ in params.items]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:
        return None

    start = time.perf_counter()
    await client.start_io(*command, env=env(extra_env))
    await client.initialize_async(types.InitializeParams(
        capabilities=caps, process_id=os.getpid(), root_uri=folders[0].as_uri() if folders else None,
        workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders] if folders else None))
    elapsed = (time.perf_counter() - start) * 1000
    client.initialized(types.InitializedParams())
    if text is None:
        return client, elapsed, None
    diagnosed = (await open_and_wait(client, STARTUP_URI, text) - start) * 1000
    return client, elapsed, diagnosed


async def workspace_pass(folder: Path, open_text: str, keystrokes: int = 20,
                         extra_env: dict[str, str] | None = None) -> dict[str, float]:
    """One workspace/diagnostic over a fresh server's workspace folder, with a partialResultToken,
    while a document of open_text is edited: seconds from the request to the first partial result
    and to the answer, the reports received, and the didChange -> publishDiagnostics seconds
    (p95 and count) of keystrokes typed one after another during the pass, and the CPU seconds
    the server's own process used (its workers not counted)."""
    caps = client_capabilities("visual_studio_code")
    client, _, _ = await spawn_and_open(SERVER, caps, None, extra_env, folders=[folder])
    arrived: list[float] = []
    reports = [0]

    @client.feature(types.PROGRESS)
    def progress(params: types.ProgressParams) -> None:
        value = params.value
        if params.token == "partial" and isinstance(value, dict) and "items" in value:
            arrived.append(time.perf_counter())
            reports[0] += len(value["items"])

    try:
        uri = (folder / "open_while_typing.sh").as_uri()  # not on disk: not one of the scripts
        await open_and_wait(client, uri, open_text)
        start = time.perf_counter()
        answer = asyncio.ensure_future(client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(
            previous_result_ids=[], partial_result_token="partial", work_done_token="work")))
        latencies, version, text = [], 1, open_text
        for spot in keystroke_spots(open_text, max(1, keystrokes // 2)):
            for rng, new, text in spot_edits(text, spot):  # an `x` typed at a code line, then deleted
                if answer.done():
                    break
                version += 1
                latencies.append(await change_and_wait(client, uri, version, rng, new))
        result = await answer
        done = time.perf_counter()
        reports[0] += len(result.items)
        cpu = cpu_ms(client)
    finally:
        await stop(client)
    return {"first": (arrived[0] if arrived else done) - start, "total": done - start, "reports": reports[0],
            "server_cpu": (cpu or 0.0) / 1000,
            "keystroke_p95": pct(latencies, 0.95) if latencies else float("nan"), "keystrokes": len(latencies)}


async def stop(client: LanguageClient) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def cpu_ms(client: LanguageClient) -> float | None:
    """The server process' CPU time so far (user + system), from /proc; None elsewhere."""
    pid = getattr(getattr(client, "_server", None), "pid", None)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def rss_mib(client: LanguageClient) -> float | None:
    pid = getattr(getattr(client, "_server", None), "pid", None)
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


async def startup(spawns: int, text: str | None = None) -> dict[str, list[float]]:
    """Start-up times in ms, the two servers spawned in turn (load spells hit them alike).

    Keys: "bare" (initialize, bare pygls server), "init" and "diag" (packgate: initialize, and the
    first publishDiagnostics of a didOpen sent right after initialized)."""
    caps = client_capabilities("visual_studio_code")
    text = launcher(200) if text is None else text
    times: dict[str, list[float]] = {k: [] for k in ("bare", "init", "diag")}
    for _ in range(spawns):
        client, ms = await spawn(BARE, caps)
        times["bare"].append(ms)
        await stop(client)
        client, init_ms, diag_ms = await spawn_and_open(SERVER, caps, text)
        times["init"].append(init_ms)
        times["diag"].append(diag_ms)
        await stop(client)
    return times


async def bench_initialize(spawns: int) -> None:
    times = await startup(spawns)
    print(f"start-up, VS Code capabilities, {spawns} spawns of each server in turn; the document is a "
          "200-line launcher opened right after initialized")
    print(f"initialize after spawn, {'bare pygls server':36s} {summary(times['bare'])}")
    print(f"initialize after spawn, {'packgate lsp':36s} {summary(times['init'])}")
    print(f"  ratio packgate/bare (p50): {statistics.median(times['init']) / statistics.median(times['bare']):.2f}x")
    print(f"first publishDiagnostics after spawn, {'packgate lsp':22s} {summary(times['diag'])}")


def edit_at(text: str, n: int) -> tuple[types.Range, str, str]:
    """The n-th edit: type an `x` just after a comment's `#`, then delete it (findings stay put)."""
    lines = text.split("\n")
    rows = [i for i, row in enumerate(lines) if row.lstrip().startswith("#") and not row.lstrip().startswith(("#!", "# packgate"))]
    row = rows[((n // 2) * 37) % len(rows)]
    col = lines[row].index("#") + 1  # only ASCII blanks before it: the same in every encoding
    if n % 2 == 0:
        rng, new = types.Range(start=types.Position(line=row, character=col), end=types.Position(line=row, character=col)), "x"
        lines[row] = lines[row][:col] + "x" + lines[row][col:]
    else:
        rng, new = types.Range(start=types.Position(line=row, character=col), end=types.Position(line=row, character=col + 1)), ""
        lines[row] = lines[row][:col] + lines[row][col + 1:]
    return rng, new, "\n".join(lines)


def code_edit_at(text: str, n: int) -> tuple[types.Range, str, str]:
    """The n-th edit in code: type a `0` into a number of an argument line (`--num-workers 16`
    becomes `106`), then delete it. The findings stay put, but nothing proves that without
    analysing again."""
    lines = text.split("\n")
    rows = [i for i, row in enumerate(lines)
            if row.lstrip().startswith(("--num-workers ", "--save-interval ", "--log-interval "))]
    row = rows[((n // 2) * 7) % len(rows)]
    col = lines[row].index("-") + lines[row][lines[row].index("-"):].index(" ") + 2  # after the first digit
    if n % 2 == 0:
        rng = types.Range(start=types.Position(line=row, character=col), end=types.Position(line=row, character=col))
        lines[row], new = lines[row][:col] + "0" + lines[row][col:], "0"
    else:
        rng = types.Range(start=types.Position(line=row, character=col), end=types.Position(line=row, character=col + 1))
        lines[row], new = lines[row][:col] + lines[row][col + 1:], ""
    return rng, new, "\n".join(lines)


GATES = ("OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA")
LAUNCHERS = ("torchrun", "python -m torch.distributed", "deepspeed", "accelerate launch")


def is_code(row: str) -> bool:
    """A line the user types code on: not blank, not a comment."""
    stripped = row.strip()
    return bool(stripped) and not stripped.startswith("#")


# Words that end a line of a compound statement: a character typed right after one (`thenx`,
# `fix`, `}x`) breaks that statement's syntax until it is deleted, as users type through.
SYNTAX_ENDS = ("then", "fi", "do", "done", "esac", ";;", "{", "}")
BREAKS_SYNTAX = "breaks syntax after "  # the kind of such a spot, the word follows
KEYSTROKE_BREAKING = 0.2  # the share of such spots in `make bench`'s 2,000-line keystroke series


def syntax_end(row: str) -> str | None:
    """The word of SYNTAX_ENDS a code line ends with (standing alone, not `${X}`'s brace), or None."""
    body = row.rstrip()
    if not is_code(body):
        return None
    for word in SYNTAX_ENDS:
        before = body[:len(body) - len(word)]
        if body.endswith(word) and (word == ";;" or not before or before[-1] in " \t;"):
            return word
    return None


def breaks_syntax(spot: tuple[str, int, int]) -> bool:
    """Whether a spot of keystroke_spots is one that breaks a compound statement's syntax."""
    return spot[0].startswith(BREAKS_SYNTAX)


def by_syntax(spots: list, times: list) -> tuple[list, list]:
    """The keystroke times of spots (two a spot, spot_edits' order) split into those at spots
    that break syntax and the others."""
    breaking, others = [], []
    for n, t in enumerate(times):
        (breaking if breaks_syntax(spots[n // 2]) else others).append(t)
    return breaking, others


def keystroke_spots(text: str, count: int, seed: int = 19, breaking: float = 0.0) -> list[tuple[str, int, int]]:
    """Where the keystrokes go: (kind, line, column), `count` of them, fixed by seed.

    Half are at the end of a random code line (before a trailing `\\`, so the continuation
    holds); the other half go in turn to the three places the issue names: inside a gate's
    value, at the end of an array element (the arrays reach the launch), on the launch line.
    With breaking, that share of the spots (spread evenly among the others, which stay the
    spots of the same seed without it) goes instead to the end of a line that ends with a word
    of SYNTAX_ENDS, the words taken in turn (those the text has)."""
    taken = round(count * breaking)
    spots = _plain_spots(text, count - taken, seed)
    if not taken:
        return spots
    lines = text.split("\n")
    ends: dict[str, list[int]] = {}
    for i, row in enumerate(lines):
        word = syntax_end(row)
        if word is not None:
            ends.setdefault(word, []).append(i)
    words = [w for w in SYNTAX_ENDS if w in ends]
    if not words:
        raise ValueError("no line ends with a compound statement's word: no syntax-breaking spots")
    import random
    rng = random.Random(seed + 1)
    breakers = []
    for n in range(taken):
        word = words[n % len(words)]
        row = rng.choice(ends[word])
        breakers.append((BREAKS_SYNTAX + word, row, len(lines[row].rstrip())))
    plain, broken, out = iter(spots), iter(breakers), []
    for n in range(count):  # the n-th spot breaks syntax when n * taken / count steps past an integer
        out.append(next(broken) if (n + 1) * taken // count > n * taken // count else next(plain))
    return out


def _plain_spots(text: str, count: int, seed: int) -> list[tuple[str, int, int]]:
    """keystroke_spots without the syntax-breaking ones."""
    import random
    rng = random.Random(seed)
    lines = text.split("\n")
    code = [i for i, row in enumerate(lines) if is_code(row)]
    gates = [i for i in code if any(g + "=" in lines[i] for g in GATES)]
    elements = [i for i in code if lines[i].lstrip().startswith("--") and not lines[i].rstrip().endswith("\\")]
    launch = [i for i in code if any(lines[i].lstrip().startswith(w) or f" {w} " in lines[i] for w in LAUNCHERS)]
    spots = []
    for n in range(count):
        kind = {0: "gate value", 2: "array element", 4: "launch line"}.get(n % 6, "code line")
        pool = {"gate value": gates, "array element": elements, "launch line": launch}.get(kind) or code
        kind = kind if pool is not code or kind == "code line" else "code line"
        row = rng.choice(pool)
        line = lines[row]
        if kind == "gate value":
            col = line.index("=", min(line.index(g) for g in GATES if g in line)) + 1
            col += 1 if line[col:col + 1] in ("'", '"') else 0
            col += 1 if col < len(line) and line[col].isalnum() else 0  # inside the value: `1` -> `1x`
        elif kind == "array element" or kind == "launch line":
            body = line.split("  #", 1)[0].rstrip()
            col = len(body.rstrip("\\").rstrip()) if body.endswith("\\") else len(body)
        else:
            body = line.rstrip()
            col = len(body) - 1 if body.endswith("\\") else len(body)
            if body.endswith(" \\"):
                col = len(body) - 2
        spots.append((kind, row, col))
    return spots


def spot_edits(text: str, spot: tuple[str, int, int]) -> list[tuple[types.Range, str, str]]:
    """The two keystrokes at a spot: an `x` typed, then deleted (range, new text, text after)."""
    _, row, col = spot
    lines = text.split("\n")
    # columns count UTF-16 units for VS Code's capabilities: the spot's prefix in those
    units = len(lines[row][:col].encode("utf-16-le")) // 2
    at = types.Position(line=row, character=units)
    typed = lines[:row] + [lines[row][:col] + "x" + lines[row][col:]] + lines[row + 1:]
    return [(types.Range(start=at, end=at), "x", "\n".join(typed)),
            (types.Range(start=at, end=types.Position(line=row, character=units + 1)), "", text)]


# bash-language-server, for the start-up comparison: installed from npm for the benchmark only,
# outside the repository (`make bench` installs it here), never at test time.
BLS_VERSION = "5.8"
BENCH_CACHE = Path(os.environ.get("PACKGATE_BENCH_CACHE", Path.home() / ".cache" / "packgate-bench"))


def bls_command() -> tuple[list[str] | None, str]:
    """The command starting bash-language-server from the bench cache, or None and why not."""
    import json
    import shutil
    pkg = BENCH_CACHE / "bls" / "node_modules" / "bash-language-server"
    node = shutil.which("node")
    if node is None:
        return None, "node is not installed"
    try:
        version = json.loads((pkg / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None, (f"bash-language-server is not installed in {pkg.parent.parent} "
                      f"(`npm install --prefix {pkg.parent.parent} bash-language-server@{BLS_VERSION}`)")
    if not version.startswith(BLS_VERSION + "."):
        return None, f"bash-language-server {version} in {pkg}, not {BLS_VERSION}.x"
    return [node, str(pkg / "out" / "cli.js"), "start"], version


async def first_diagnostics(command: list[str], text: str, extra_env: dict[str, str] | None = None) -> float:
    """Milliseconds from spawn to the first publishDiagnostics of a didOpen sent right after `initialized`."""
    client, _, diagnosed = await spawn_and_open(command, client_capabilities("visual_studio_code"), text, extra_env)
    await stop(client)
    return diagnosed


async def open_and_wait(client: LanguageClient, uri: str, text: str, timeout: float = 60) -> float:
    """didOpen text as version 1 and wait for its first publishDiagnostics: the clock time then."""
    first = asyncio.get_running_loop().create_future()
    client.published[(uri, 1)] = first  # type: ignore[attr-defined]
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="shellscript", version=1, text=text)))
    return await asyncio.wait_for(first, timeout)


async def change_and_wait(client: LanguageClient, uri: str, version: int, rng: types.Range, new: str,
                          timeout: float = 60) -> float:
    """Send one didChange (an edit at rng) and wait for that version's publishDiagnostics:
    the seconds it took."""
    waiter = asyncio.get_running_loop().create_future()
    client.published[(uri, version)] = waiter  # type: ignore[attr-defined]
    t0 = time.perf_counter()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)]))
    return await asyncio.wait_for(waiter, timeout) - t0


async def keystrokes(client: LanguageClient, uri: str, text: str, version: int, spots: list,
                     baseline=None) -> tuple[list[float], list[float], str, int]:
    """Type at each spot (spot_edits: an `x`, then deleted), each keystroke awaited to its
    publishDiagnostics. After each spot, baseline(text) is timed in this process (a full lint
    of the same text), so that both see the same machine. Returns the keystroke latencies and
    the baseline times (seconds), the text and the document version after them."""
    latencies, base = [], []
    for spot in spots:
        for rng, new, after in spot_edits(text, spot):
            version += 1
            latencies.append(await change_and_wait(client, uri, version, rng, new))
            text = after
        if baseline is not None:
            t0 = time.perf_counter()
            baseline(text)
            base.append(time.perf_counter() - t0)
    return latencies, base, text, version


BARE_PUBLISHER = [sys.executable, str(Path(__file__).with_name("bare_server.py"))]


def published_diagnostics(text: str, uri: str) -> list:
    """What packgate publishes for text at uri, as JSON (lsprotocol's, through packgate's converter)."""
    from packgate.lsp import convert
    from packgate.lsp.session import Session
    entry, _ = Session().analysis(uri, 1, text)
    analysis = entry.analysis
    rendered = convert.to_diagnostics(analysis.findings, analysis.source, uri, 1, convert.ClientFeatures(),
                                      analysis.source_for)
    return convert.converter().unstructure(rendered, list[types.Diagnostic])


async def bare_keystrokes(text: str, spots: list, baseline=None) -> tuple[list[float], list[float]]:
    """The keystrokes of spots (as keystrokes() types them) answered by the bare publisher
    (bare_server.py), which publishes what packgate publishes for text, unchanged, without
    analysing: the keystroke's floor over the wire. The latencies and baseline times (seconds)."""
    import json
    import tempfile
    uri = "file:///packgate-bench/keystrokes.sh"
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as handle:
        json.dump(published_diagnostics(text, uri), handle)
        handle.flush()
        client, _ = await spawn(BARE_PUBLISHER + [handle.name], client_capabilities("visual_studio_code"))
        try:
            await open_and_wait(client, uri, text)
            times, base, _, _ = await keystrokes(client, uri, text, 1, spots, baseline)
        finally:
            await stop(client)
    return times, base


def end_of_line_edit(text: str, rng, pending: tuple[int, int] | None) -> tuple[types.Range, str, str, tuple[int, int] | None]:
    """One edit of the long session: an `x` typed at the end of a random line, or (pending) that `x` deleted."""
    lines = text.split("\n")
    if pending is not None:
        row, units = pending
        at, to = types.Position(line=row, character=units), types.Position(line=row, character=units + 1)
        col = len(lines[row]) - 1
        lines[row] = lines[row][:col]
        return types.Range(start=at, end=to), "", "\n".join(lines), None
    row = rng.randrange(len(lines))
    units = len(lines[row].encode("utf-16-le")) // 2
    at = types.Position(line=row, character=units)
    lines[row] += "x"
    return types.Range(start=at, end=at), "x", "\n".join(lines), (row, units)


async def long_session(text: str, edits: int, marks: list[int], hover_every: int = 25,
                       seed: int = 19) -> dict[int, float]:
    """The server's RSS (MiB) after each edit number in marks, over one session of `edits`
    edits (end_of_line_edit, each awaited to its publishDiagnostics; a hover every
    hover_every edits), typed back to back: the client is never quiet."""
    import random
    rng = random.Random(seed)
    client, _ = await spawn(SERVER, client_capabilities("visual_studio_code"))
    uri = "file:///packgate-bench/long_session.sh"
    rss: dict[int, float] = {}
    try:
        await open_and_wait(client, uri, text)
        pending = None
        for n in range(1, edits + 1):
            rng_, new, text, pending = end_of_line_edit(text, rng, pending)
            await change_and_wait(client, uri, n + 1, rng_, new)
            if n % hover_every == 0:
                row = rng.randrange(text.count("\n") + 1)
                await client.text_document_hover_async(types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=row, character=2)))
            if n in marks:
                rss[n] = rss_mib(client) or 0.0
    finally:
        await stop(client)
    return rss


def bench_text(lines: int = 2000, kind: str = "generated") -> tuple[str, str]:
    """The benchmark launcher: benchmarks/generate.py's when present (and asked for), else the built-in one."""
    if kind == "builtin":
        return launcher(lines), "built-in"
    try:
        sys.path.insert(0, str(Path(__file__).parent))
        from generate import generate
        return generate(lines, seed=7), "benchmarks/generate.py seed 7"
    except ImportError:
        return launcher(lines), "built-in"


def reuse_times(text: str, edits: int) -> list[float]:
    """In process: the session's splice + analysis, which hands tree-sitter the edited old tree."""
    from packgate.core.text import Source
    from packgate.lsp import convert
    from packgate.lsp.session import Session
    session, uri = Session(), "untitled:bench"
    session.analysis(uri, 0, text)
    times = []
    for n in range(edits):
        rng, new, _ = edit_at(text, n)
        t0 = time.perf_counter()
        source = Source(text)
        change = types.TextDocumentContentChangePartial(range=rng, text=new)
        start, end = convert.change_offsets(source, change, "utf-16")
        text = session.splice(uri, source, start, end, new)
        session.analysis(uri, n + 1, text)
        times.append((time.perf_counter() - t0) * 1000)
    return times


async def bench_did_change(edits: int, kind: str) -> None:
    original, origin = bench_text(kind=kind)
    text = original
    uri = "file:///packgate-bench/train_2000.sh"

    from packgate.core.engine import analyze  # the baseline: the core alone, in this process
    core_times, core_cpu = [], []
    for _ in range(max(10, edits // 3)):
        t0, c0 = time.perf_counter(), time.process_time()
        analyze(text)
        core_times.append((time.perf_counter() - t0) * 1000)
        core_cpu.append((time.process_time() - c0) * 1000)
    print(f"core analyze() of {len(text.splitlines())} lines ({origin}), in process  {summary(core_times)}")
    print(f"  CPU per analysis: mean {statistics.mean(core_cpu):.1f} ms")
    print(f"  with the previous tree edited and reused (the server's path): {summary(reuse_times(text, edits))}")

    # Push: VS Code 1.65's capabilities (utf-16, no pull support).
    client, _ = await spawn(SERVER, client_capabilities("visual_studio_code"))
    await open_and_wait(client, uri, text, timeout=30)
    push_times = []
    cpu_before = cpu_ms(client)
    for n in range(edits):
        rng, new, text = edit_at(text, n)
        push_times.append(await change_and_wait(client, uri, n + 2, rng, new, timeout=30) * 1000)
    cpu_after = cpu_ms(client)
    rss = rss_mib(client)
    await stop(client)
    print(f"didChange -> publishDiagnostics (push, utf-16)  {summary(push_times)}   target: p95 <= 25 ms")
    print(f"  ratio server/core (p50): {statistics.median(push_times) / statistics.median(core_times):.2f}x")
    if cpu_before is not None and cpu_after is not None:
        print(f"  server CPU per didChange: mean {(cpu_after - cpu_before) / edits:.1f} ms "
              f"(core alone: {statistics.mean(core_cpu):.1f} ms)")
    if rss is not None:
        print(f"  server RSS with the document open: {rss:.0f} MiB")

    # Pull: Neovim 0.11's capabilities (utf-8, textDocument/diagnostic).
    text = original
    client, _ = await spawn(SERVER, client_capabilities("neovim"))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="sh", version=1, text=text)))
    ident = types.TextDocumentIdentifier(uri=uri)
    await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
    pull_times = []
    for n in range(edits):
        rng, new, text = edit_at(text, n)
        t0 = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=n + 2),
            content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new)]))
        await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(text_document=ident))
        pull_times.append((time.perf_counter() - t0) * 1000)
    await stop(client)
    print(f"didChange -> textDocument/diagnostic (pull, utf-8) {summary(pull_times)}")


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--spawns", type=int, default=8)
    parser.add_argument("--text", choices=("generated", "builtin"), default="generated",
                        help="benchmarks/generate.py's launcher (default) or a simpler built-in one")
    parser.add_argument("--startup-only", action="store_true", help="only the start-up figures")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    await bench_initialize(args.spawns)
    if not args.startup_only:
        await bench_did_change(args.edits, args.text)


if __name__ == "__main__":
    asyncio.run(main())
