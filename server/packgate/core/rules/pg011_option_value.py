"""PG011 option-value: an option's value that its parser's `type=` or `choices=` rejects."""

from __future__ import annotations

from ..flow import ValKind
from .base import Context, one_line
from .pg010_unknown_option import EXAMPLE_WORKSPACE, argvs, parser_places, union_checkable, word_range
from .rule import Rule, Text

RULE = Rule(
    code="PG011",
    name="option-value",
    severity="error",
    summary_en=("An option's value that its parser's type= or choices= rejects, or values an option "
                "does not get or cannot take, so the trainer stops at start-up"),
    summary_zh="选项的取值被其解析器的 type= 或 choices= 拒绝，或选项缺少取值、不接受取值，训练在启动时就会退出",
    problem_en=(
        "`argparse` converts an option's value with its `type=` and checks it against its "
        "`choices=` before the trainer runs: `--seq-length 8k` with `type=int` exits with "
        "\"invalid int value\", `--attention-backend flashy` with `choices=[\"flash\", ...]` with "
        "\"invalid choice\", once every node has started. packgate converts the value the launch "
        "passes with Python's own `int()` and `float()`, so it rejects exactly what the trainer "
        "rejects: `int(\"1e3\")` raises, `float(\"1e-3\")` does not. The examples below are "
        "checked against a workspace whose `train.py` defines `--seq-length` with `type=int` "
        "and `--attention-backend` with `choices=[\"flash\", \"fused\", \"auto\"]`. argparse stops "
        "too where an option that needs a value is followed by another option or by the end of the "
        "command (`--micro-batch-size --bf16`: \"expected one argument\"), and where `=` gives a "
        "value to one that takes none (`--bf16=1`: \"ignored explicit argument\")."),
    problem_zh=(
        "`argparse` 在训练开始之前用选项的 `type=` 转换取值，并用 `choices=` 检查它："
        "`type=int` 的 `--seq-length 8k` 会以 \"invalid int value\" 退出，"
        "`choices=[\"flash\", ...]` 的 `--attention-backend flashy` 会以 \"invalid choice\" 退出，"
        "而那时所有节点都已启动。packgate 用 Python 自己的 `int()` 和 `float()` 转换启动命令传入的"
        "取值，因此拒绝的正是训练程序会拒绝的：`int(\"1e3\")` 会抛出异常，`float(\"1e-3\")` 不会。"
        "下面的示例所依据的工作区中，`train.py` 以 `type=int` 定义 `--seq-length`，以 "
        "`choices=[\"flash\", \"fused\", \"auto\"]` 定义 `--attention-backend`。需要取值的选项后面紧跟另一个"
        "选项或命令结尾时（`--micro-batch-size --bf16`：\"expected one argument\"），以及用 `=` 给不接受"
        "取值的选项赋值时（`--bf16=1`：\"ignored explicit argument\"），argparse 同样会退出。"),
    rationale_en="Pass a value of the option's type, or one of its choices (the finding lists them).",
    rationale_zh="传入符合选项类型的取值，或其可选值之一（提示中会列出）。",
    exceptions_en=(
        "Only `type=int`, `type=float`, `type=str` and no `type=` are judged; a function of the "
        "code's own (`type=str2bool`, a lambda) is not, and neither is `choices=` then, since "
        "the choices are compared with the converted value. A value packgate cannot know (a "
        "caller's variable) gives nothing, nor does a value that may belong to a word packgate "
        "cannot know. A default the caller may override (`${MBS:-abc}`) is judged: it is what "
        "the script runs with. Where no parser is reached from the entry file and the union of "
        "the workspace's options is checked, the finding is a warning (which parser runs is a "
        "guess), under the conditions PG010 states for it, and only for an option every "
        "definition in the workspace gives the same `type=` and `choices=`. Where the entry "
        "point is not a file of the workspace, nothing is checked."),
    exceptions_zh=(
        "只判断 `type=int`、`type=float`、`type=str` 和没有 `type=` 的选项；代码自己的函数"
        "（`type=str2bool`、lambda）不判断，此时 `choices=` 也不判断，因为可选值是与转换后的值比较的。"
        "packgate 无法知道的取值（调用方的变量）不报告，可能属于 packgate 无法知道的词的取值也不报告。"
        "调用方可以覆盖的默认值（`${MBS:-abc}`）会被判断：脚本就是以它运行的。若从入口文件找不到"
        "解析器、改为检查工作区全部选项的并集，则只报 warning（实际运行哪个解析器是推测），并且只针对"
        "工作区中所有定义都给出相同 `type=` 和 `choices=` 的选项，条件与 PG010 对并集的要求相同。入口不是工作区中的文件时不检查。"),
    bad=(
        "#!/bin/bash\n"
        "# train.py defines --seq-length with type=int\n"
        "torchrun --nproc_per_node 8 train.py --micro-batch-size 1 --seq-length 8k\n"),
    good=(
        "#!/bin/bash\n"
        "# train.py defines --seq-length with type=int\n"
        "torchrun --nproc_per_node 8 train.py --micro-batch-size 1 --seq-length 8192\n"),
    messages={
        "type": Text(
            "{value} is not a valid value of {option}: its parser ({parser}) converts it with "
            "type={type}, and {type}({literal}) raises, so {entry} stops at start-up with "
            "\"invalid {type} value\"",
            "{value} 不是 {option} 的有效取值：它的解析器（{parser}）用 type={type} 转换，而 "
            "{type}({literal}) 会抛出异常，所以 {entry} 会在启动时以 \"invalid {type} value\" 退出"),
        "missing": Text(
            "{option} is followed by {given} value word(s) before the next option or the end of "
            "the command, fewer than it needs, so {entry} stops at start-up with \"{expected}\"",
            "{option} 之后、下一个选项或命令结尾之前只有 {given} 个取值，少于它所需的数量，所以 {entry} "
            "会在启动时以 \"{expected}\" 退出"),
        "flag": Text(
            "{option} takes no value, yet `=` gives it {value}, so {entry} stops at start-up with "
            "\"{expected}\"",
            "{option} 不接受取值，但 `=` 给了它 {value}，所以 {entry} 会在启动时以 \"{expected}\" 退出"),
        "choice": Text(
            "{value} is not one of the choices of {option} ({choices}), so {entry} stops at "
            "start-up with \"invalid choice\"",
            "{value} 不是 {option} 的可选值（{choices}）之一，所以 {entry} 会在启动时以 "
            "\"invalid choice\" 退出"),
    },
    fixes={},
    workspace=EXAMPLE_WORKSPACE,
)

_CONVERT = {None: str, "str": str, "int": int, "float": float}


def check(ctx: Context) -> None:
    """Values the type= or choices= of their option rejects, at every path of every launch."""
    read = argvs(ctx)
    if not read:
        return
    from ..code.argv import Role, shortfalls  # as PG010: only where there is training code to read
    from ..code.index import How
    index = ctx.contract()
    for la in read:
        options = la.options
        if options.how not in (How.ENTRY_FILE, How.IMPORTED, How.UNION):
            continue
        union = options.how is How.UNION
        if union and not union_checkable(ctx, index, options):
            continue
        for w in la.argv.trainer():
            if w.role is Role.VALUE or (w.role is Role.OPTION and w.value is not None):
                _judge(ctx, index, la, w, union)
        for short in shortfalls(la.argv):
            _count(ctx, index, la, short, union)


def _count(ctx: Context, index, la, short, union: bool) -> None:
    """An option argparse stops at: too few values after it, or a value for one that takes none."""
    w, launch, options = short.word, la.launch, la.options
    if not la.grammar.agreed(w.option):
        return
    if w.value is not None:
        key = "flag"
        start, end = _value_range(ctx, w, launch)
    else:
        key = "missing"
        span = word_range(ctx, w.val, w.spelled)
        start, end = span if span is not None else (launch.name_start, launch.name_end)
    msg = ctx.message(RULE, key, option=w.resolved, value=_shown(w.value or ""), given=short.given,
                      expected=short.expected, entry=options.file or options.entry.target)
    ctx.emit(RULE, msg, start, end, severity="warning" if union else None,
             dedupe=(launch.start, start, end, key), related=[ctx.launch_related(launch)], launch=launch)


def _judge(ctx: Context, index, la, w, union: bool) -> None:
    from ..code.options import UNKNOWN_TYPE
    option = w.option
    if w.val.kind not in (ValKind.KNOWN, ValKind.DEFAULT) or not la.grammar.agreed(option):
        return
    convert = _CONVERT.get(option.type, None) if option.type != UNKNOWN_TYPE else None
    if convert is None:
        return
    text = w.value
    try:
        value = convert(text)
    except (ValueError, OverflowError):
        key = "type"
    else:
        if option.choices is None or option.choices == UNKNOWN_TYPE or _chosen(value, option.choices):
            return
        key = "choice"
    launch, options = la.launch, la.options
    start, end = _value_range(ctx, w, launch)
    name = w.resolved or option.strings[0]
    msg = ctx.message(RULE, key, value=_shown(text), option=name, parser=parser_places(index, options),
                      entry=options.file or options.entry.target, type=option.type or "str",
                      literal=repr(text), choices=", ".join(str(c) for c in option.choices or ()))
    ctx.emit(RULE, msg, start, end, severity="warning" if union else None,
             dedupe=(launch.start, start, end, text), related=[ctx.launch_related(launch)], launch=launch)


def _chosen(value, choices) -> bool:
    try:
        return value in choices
    except TypeError:
        return True  # choices packgate cannot compare with: no claim


def _value_range(ctx: Context, w, launch) -> tuple:
    """Where the value is written: its word, or the part after `=` of `--opt=value`."""
    from ..code.argv import Role
    if w.role is Role.VALUE:
        span = word_range(ctx, w.val, w.val.text)
        if span is not None:
            return span
        if w.val.span is not None and not w.val.foreign:
            return w.val.span
        return launch.name_start, launch.name_end
    prefix = word_range(ctx, w.val, w.spelled + "=")
    if prefix is not None:
        return prefix[1], prefix[1] + len(w.value.encode("utf-8"))
    if w.val.span is not None and not w.val.foreign:
        return w.val.span
    return launch.name_start, launch.name_end


def _shown(text: str) -> str:
    return repr(text) if text == "" or not text.isprintable() or text.strip() != text else one_line(text)
