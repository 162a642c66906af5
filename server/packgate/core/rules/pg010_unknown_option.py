"""PG010 unknown-option: a launch passes an option the trainer's parser does not define."""

from __future__ import annotations

import os

from ..findings import Applicability, Edit
from .base import Context, one_line
from .rule import FixText, Rule, Text

# the training code the examples are checked against (tests/core/test_rules.py writes it out)
EXAMPLE_WORKSPACE = (
    ("train.py",
     "import argparse\n\n"
     "parser = argparse.ArgumentParser(allow_abbrev=False)\n"
     "parser.add_argument(\"--micro-batch-size\", type=int, default=1)\n"
     "parser.add_argument(\"--seq-length\", type=int, default=4096)\n"
     "parser.add_argument(\"--attention-backend\", choices=[\"flash\", \"fused\", \"auto\"], default=\"auto\")\n"
     "parser.add_argument(\"--bf16\", action=\"store_true\")\n"
     "args = parser.parse_args()\n"),
)

RULE = Rule(
    code="PG010",
    name="unknown-option",
    severity="error",
    summary_en="A launch passes an option the trainer's argument parser does not define, so it stops at start-up",
    summary_zh="启动命令传入了训练程序参数解析器没有定义的选项，训练在启动时就会退出",
    problem_en=(
        "The trainer's `argparse` parser refuses what it does not define: `parse_args()` exits "
        "with \"unrecognized arguments\" once every node has started, after the job waited for "
        "its allocation. An option a newer trainer dropped (`--image-resolution` in launchers "
        "copied from LLaVA-OneVision-1.5) or shortened (`--seq-len` for `--seq-length` under "
        "Megatron's `allow_abbrev=False`) does that. packgate reads the options from the "
        "workspace's Python code: the parser the launch's entry point builds or imports, the "
        "helpers that add to it, and the `extra_args_provider` the entry hands over. Only the "
        "words after the entry point are the trainer's; the launcher's own (`torchrun "
        "--nproc_per_node 8`) are not checked, nor are words without a leading `-` (Hydra-style "
        "`train.micro_batch_size=1`). The examples below are checked against a workspace whose "
        "`train.py` builds its parser with `allow_abbrev=False` and defines `--micro-batch-size`, "
        "`--seq-length`, `--attention-backend` and `--bf16`."),
    problem_zh=(
        "训练程序的 `argparse` 解析器不接受它没有定义的选项：`parse_args()` 会以 "
        "\"unrecognized arguments\" 退出，而那时所有节点都已经启动、作业也已等到了资源。"
        "新版训练代码删掉的选项（从 LLaVA-OneVision-1.5 复制来的启动脚本里的 "
        "`--image-resolution`），或被缩写的选项（在 Megatron 的 `allow_abbrev=False` 下把 "
        "`--seq-length` 写成 `--seq-len`）都会这样。packgate 从工作区的 Python 代码读取选项："
        "启动入口构建或导入的解析器、向它添加选项的辅助函数，以及入口传入的 "
        "`extra_args_provider`。只有入口之后的词属于训练程序；启动器自己的选项（`torchrun "
        "--nproc_per_node 8`）不检查，不以 `-` 开头的词（Hydra 风格的 "
        "`train.micro_batch_size=1`）也不检查。下面的示例所依据的工作区中，`train.py` 以 "
        "`allow_abbrev=False` 构建解析器，定义了 `--micro-batch-size`、`--seq-length`、"
        "`--attention-backend` 和 `--bf16`。"),
    rationale_en=(
        "Pass only the options the trainer defines, spelled in full; drop the ones it no longer "
        "has. The finding names the closest defined spelling when there is one."),
    rationale_zh="只传训练程序定义的选项，并写全；删除它已经不再支持的选项。若有相近的已定义写法，提示会给出它。",
    exceptions_en=(
        "No finding where the parser lets unknown arguments through (`parse_known_args`, "
        "Megatron's `ignore_unknown_args=True`), where no `parse_args()` call on it was found "
        "(`parse_args(words)` with a list of the code's own parses what the code chose), "
        "where it may get options packgate cannot list (`parents=`, `prefix_chars=`, a helper outside the "
        "workspace such as `deepspeed.add_config_arguments`, `add_argument(*names)`, "
        "subcommands), where the entry point is not a file of the workspace or cannot be told, "
        "for launchers whose own syntax packgate does not know (`srun`, `mpirun`, `accelerate "
        "launch`), and for a word packgate cannot know (a caller's variable, an array of "
        "unknown length) or one such a word may take as its value. When no parser is reached "
        "from the entry file, the union of the workspace's options is checked instead: that is a "
        "guess about which parser runs, so the finding is a warning, and only when the "
        "workspace parses strictly (a `parse_args` call, no `parse_known_args` and no "
        "`ignore_unknown_args`) and the entry file reads its command line no other way "
        "(`sys.argv`, `HfArgumentParser`, Hydra, click, fire...). A fix is offered for an abbreviation the parser refuses (safe: "
        "the prefix names one option) and for a single close spelling (unsafe: a guess)."),
    exceptions_zh=(
        "以下情况不报告：解析器允许未知参数（`parse_known_args`、Megatron 的 "
        "`ignore_unknown_args=True`）；没有找到对它的 `parse_args()` 调用（`parse_args(words)` 解析的是代码自己"
        "选定的列表）；它可能获得 packgate "
        "无法列出的选项（`parents=`、`prefix_chars=`、工作区之外的辅助函数如 `deepspeed.add_config_arguments`、"
        "`add_argument(*names)`、子命令）；入口不是工作区中的文件或无法确定；packgate 不了解其"
        "语法的启动器（`srun`、`mpirun`、`accelerate launch`）；packgate 无法知道的词（调用方的"
        "变量、长度未知的数组）以及可能被这样的词当作取值的词。若从入口文件找不到解析器，则改为"
        "检查工作区全部选项的并集：这是对实际运行哪个解析器的推测，所以只报 warning，并且只在工作区"
        "严格解析（有 `parse_args` 调用，没有 `parse_known_args`，也没有 `ignore_unknown_args`）"
        "且入口文件没有用其他方式读取命令行（`sys.argv`、`HfArgumentParser`、Hydra、click、fire 等）时报告。"
        "对解析器拒绝的缩写提供修复（安全：该前缀只对应一个选项），对唯一一个相近的写法"
        "也提供修复（不安全：只是推测）。"),
    bad=(
        "#!/bin/bash\n"
        "# train.py builds its parser with allow_abbrev=False\n"
        "torchrun --nproc_per_node 8 train.py --micro-batch-size 1 --seq-len 8192\n"),
    good=(
        "#!/bin/bash\n"
        "# train.py builds its parser with allow_abbrev=False\n"
        "torchrun --nproc_per_node 8 train.py --micro-batch-size 1 --seq-length 8192\n"),
    messages={
        "undefined": Text(
            "{option} is not an option of the trainer's parser ({parser}), which refuses unknown "
            "arguments: {entry} stops at start-up with \"unrecognized arguments\"{hint}",
            "{option} 不是训练程序解析器（{parser}）定义的选项，而它不接受未知参数：{entry} 会在启动时以 "
            "\"unrecognized arguments\" 退出{hint}"),
        "refused": Text(
            "{option} abbreviates {full}, but the trainer's parser ({parser}) is built with "
            "allow_abbrev=False: {entry} stops at start-up with \"unrecognized arguments\". Write {full}",
            "{option} 是 {full} 的缩写，但训练程序的解析器（{parser}）以 allow_abbrev=False 构建："
            "{entry} 会在启动时以 \"unrecognized arguments\" 退出。请写成 {full}"),
        "ambiguous": Text(
            "{option} is a prefix of {candidates}: the trainer's parser ({parser}) cannot tell "
            "which is meant, and {entry} stops at start-up with \"ambiguous option\"",
            "{option} 是 {candidates} 的共同前缀：训练程序的解析器（{parser}）无法判断指的是哪一个，"
            "{entry} 会在启动时以 \"ambiguous option\" 退出"),
        "union": Text(
            "{option} is defined by no parser in the workspace; no parser was found for {entry}, "
            "so the union of the workspace's options was checked. If its parser refuses unknown "
            "arguments, as the workspace's parsers do, it stops at start-up{hint}",
            "工作区中没有任何解析器定义 {option}；没有找到 {entry} 的解析器，所以检查的是工作区全部选项的"
            "并集。如果它的解析器像工作区中的解析器一样不接受未知参数，它会在启动时退出{hint}"),
    },
    fixes={
        "full": FixText(
            "Write {full} in full", "写全为 {full}",
            doc_en="Replace an abbreviation the parser refuses with the one option it abbreviates "
                   "(`--seq-len` becomes `--seq-length`)",
            doc_zh="把解析器拒绝的缩写替换为它唯一对应的选项（`--seq-len` 改为 `--seq-length`）"),
        "closest": FixText(
            "Replace {option} with {closest} (a guess)", "把 {option} 替换为 {closest}（推测）",
            doc_en="Replace an option the parser does not define with its one close defined "
                   "spelling (`--micro-batch-sise` becomes `--micro-batch-size`); it is a guess at "
                   "what was meant",
            doc_zh="把解析器未定义的选项替换为唯一一个相近的已定义写法（`--micro-batch-sise` 改为 "
                   "`--micro-batch-size`）；这只是对原意的推测",
            applicability=Applicability.UNSAFE),
    },
    workspace=EXAMPLE_WORKSPACE,
)



def check(ctx: Context) -> None:
    """Options the entry's parser does not define, at every path of every launch."""
    read = argvs(ctx)
    if not read:
        return
    from ..code.argv import Role
    index = ctx.contract()
    for la in read:
        severity = _severity(ctx, index, la.options)
        if severity is None:
            continue
        for w in la.argv.trainer():
            if w.role in (Role.UNDEFINED, Role.REFUSED, Role.AMBIGUOUS):
                _report(ctx, index, la, w, severity)


def argvs(ctx: Context) -> tuple:
    """launch_argvs of this analysis, once (PG011 reads them too); empty without a launch or
    without training code, and then the workspace is not indexed nor the readers imported."""
    got = ctx.cache.get("argvs")
    if got is None:
        got = ()
        if any(not launch.implicit for launch in ctx.flow.launches):
            index = ctx.contract()
            if index is not None:
                from ..code.argv import launch_argvs
                got = launch_argvs(index, ctx.flow.launches)
        ctx.cache["argvs"] = got
    return got


def _severity(ctx: Context, index, options):
    """error where the entry's parser is known and strict, warning for a strict workspace's
    union, None where no claim can be made."""
    from ..code.index import How
    if options.gaps:
        return None
    if options.how in (How.ENTRY_FILE, How.IMPORTED):
        return "error" if options.tolerance.tolerant is False else None
    return "warning" if union_checkable(ctx, index, options) else None


# what else may read an entry's command line (Hugging Face's HfArgumentParser, Hydra, click,
# fire...): with one of these in the entry file, the workspace's argparse options say nothing of it
_OTHER_READERS = (b"sys.argv", b"HfArgumentParser", b"hydra", b"click", b"fire", b"typer", b"docopt",
                  b"jsonargparse", b"absl", b"tyro", b"OmegaConf")


def union_checkable(ctx: Context, index, options) -> bool:
    """Whether the union of the workspace's options may stand for an entry whose parser was not
    found: every parser there parses strictly, none can get options packgate cannot list, and
    the entry file reads its command line no other way."""
    from ..code.index import How
    if options.how is not How.UNION or options.gaps or options.tolerance.tolerant is not None:
        return False
    known = ctx.cache.setdefault("union_checkable", {})
    if options.file not in known:
        parsed = [f.options for f in index.files.values() if f.options is not None]
        ok = not any(fo.ignore_unknown or fo.known_args or fo.given_args for fo in parsed) and \
            any(fo.strict_args for fo in parsed)
        if ok:
            try:
                with open(os.path.join(index.root, options.file), "rb") as handle:
                    data = handle.read(1 << 22)
            except OSError:
                data = b"sys.argv"  # unreadable: say nothing
            ok = not any(mark in data for mark in _OTHER_READERS)
        known[options.file] = ok
    return known[options.file]


def _report(ctx: Context, index, la, w, severity: str) -> None:
    from ..code.argv import Role
    launch, options = la.launch, la.options
    span = word_range(ctx, w.val, w.spelled)
    start, end = span if span is not None else (launch.name_start, launch.name_end)
    fields = {"option": one_line(w.spelled), "entry": options.file or options.entry.target,
              "parser": parser_places(index, options)}
    fixes = []
    if w.role is Role.REFUSED:  # argparse says "unrecognized arguments", however many it abbreviates
        key = "refused"
        fields["full"] = (" or ".join(w.candidates), " 或 ".join(w.candidates))
        if span is not None and len(w.candidates) == 1:
            fixes.append(ctx.fix(RULE, "full", [Edit(start, end, w.candidates[0])], preferred=True,
                                 full=w.candidates[0]))
    elif w.role is Role.AMBIGUOUS:
        key = "ambiguous"
        fields["candidates"] = ", ".join(w.candidates)
    else:
        key = "undefined" if severity == "error" else "union"
        close = _closest(w.spelled, la.grammar.strings)
        fields["hint"] = _hint(close)
        if len(close) == 1 and span is not None:
            fixes.append(ctx.fix(RULE, "closest", [Edit(start, end, close[0])], option=w.spelled, closest=close[0]))
    ctx.emit(RULE, ctx.message(RULE, key, **fields), start, end, fixes=fixes, severity=severity,
             dedupe=(launch.start, start, end, w.spelled), related=[ctx.launch_related(launch)], launch=launch)


def word_range(ctx: Context, val, text: str):
    """The byte range in this document where text is written at the start of a word's value
    (the option part of `--opt=value`), or None when the word is not written there as it reads
    (it comes from a variable, or from a sourced file)."""
    if val.foreign:
        return None
    data = ctx.source.data
    want = text.encode("utf-8")
    for span in (val.lit, val.span):
        if span is not None and data[span[0]:span[0] + len(want)] == want:
            return span[0], span[0] + len(want)
    return None


def parser_places(index, options) -> str:
    """Where the chosen parsers are built, as `file:line` relative to the workspace."""
    if not options.parsers:
        return "the union of the workspace's options"
    return ", ".join(f"{os.path.relpath(p.file, index.root).replace(os.sep, '/')}:{p.line}" for p in options.parsers)


# (spelled, id of the option strings) -> (those strings, the answer): a launcher repeats its
# unknown words, and so do the launchers of a folder and the keystrokes of an editor
_CLOSE: dict = {}
_PAIRS: dict = {}  # id of the option strings -> (those strings, [(string, its letter pairs)])
_MAX_REMEMBERED = 4096


def _closest(spelled: str, strings) -> list:
    """The defined spellings a typo could have made this one (at most three, nearest first):
    a letter wrong, missing, added or two swapped, two such slips in a name of 12 letters or
    more. Not difflib: importing it costs a cold check more than the whole comparison."""
    key = (spelled, id(strings))
    hit = _CLOSE.get(key)
    if hit is not None and hit[0] is strings:
        return hit[1]
    if len(_CLOSE) >= _MAX_REMEMBERED:
        _CLOSE.clear()
    answer = _CLOSE[key] = (strings, _nearest(spelled, strings))
    return answer[1]


def _nearest(spelled: str, strings) -> list:
    name = spelled.lstrip("-")
    if len(name) < 3:
        return []
    limit = 2 if len(name) >= 12 else 1
    size, double = len(spelled), spelled.startswith("--")
    mine = _letter_pairs(spelled)
    near = []
    for s, pairs in _pairs_of(strings):
        if abs(len(s) - size) > limit or s.startswith("--") != double:
            continue
        # an edit takes at most three letter pairs out of either string (a swap does): one that
        # shares fewer distinct pairs than that allows is farther than limit, without the table
        if len(mine & pairs) < max(len(mine), len(pairs)) - 3 * limit:
            continue
        d = _distance(spelled, s, limit)
        if d <= limit:
            near.append((d, s))
    return [s for _, s in sorted(near)[:3]]


def _letter_pairs(text: str) -> frozenset:
    return frozenset(text[i:i + 2] for i in range(len(text) - 1))


def _pairs_of(strings) -> list:
    hit = _PAIRS.get(id(strings))
    if hit is None or hit[0] is not strings:
        if len(_PAIRS) >= 64:
            _PAIRS.clear()
        hit = _PAIRS[id(strings)] = (strings, [(s, _letter_pairs(s)) for s in strings])
    return hit[1]


def _distance(a: str, b: str, limit: int) -> int:
    """Edits (a character replaced, inserted, deleted, or two neighbours swapped) that turn a
    into b, or limit + 1 once more than limit are needed; only the cells within limit of the
    diagonal are computed."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    far = limit + 1
    before, row = None, [j if j <= limit else far for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        current = [far] * (len(b) + 1)
        if i <= limit:
            current[0] = i
        ca = a[i - 1]
        for j in range(max(1, i - limit), min(len(b), i + limit) + 1):
            cb = b[j - 1]
            best = min(current[j - 1] + 1, row[j] + 1, row[j - 1] + (ca != cb))
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, before[j - 2] + 1)
            current[j] = min(best, far)
        if min(current) > limit:
            return far
        before, row = row, current
    return row[-1]


def _hint(close: list):
    if not close:
        return ("; no option it defines is spelled close to it", "；它定义的选项中没有与之相近的写法")
    names = " or ".join(close)
    return (f"; did you mean {names}?", f"；是否想写 {' 或 '.join(close)}？")
