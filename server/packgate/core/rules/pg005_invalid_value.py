"""PG005 invalid-value: a gate's value that makes Python's int() raise."""

from __future__ import annotations

from .. import gates as G
from ..findings import Applicability
from ..flow import Origin, ValKind
from .base import Context, shown, value_edit
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

RULE = Rule(
    code="PG005",
    name="invalid-value",
    severity="error",
    summary_en="A gate's value makes Python's int() raise, or any variable's that the code parses with int() or float()",
    summary_zh="开关的值会让 Python 的 int() 抛出异常；代码用 int() 或 float() 解析的任何变量亦然",
    problem_en=(
        "The gates are read with `int(os.environ.get(NAME, 0)) == 1`. `true`, `yes`, `on`, "
        "`1.0`, `0x1` and the empty string raise `ValueError` inside the dataloader: samples or "
        "batches are skipped with one log line each, and training goes on. The same holds for "
        "every variable the workspace's code parses with `int()` or `float()` (read from the code, "
        "with the file and line of the parse): `TE_EXTRA_STATE_MISSING_CHECK=true` goes through "
        "`int()` at import, so the trainer stops before its first step; a read in data-loading "
        "code (a `data` folder) fails inside a data-loader worker instead."),
    problem_zh=(
        "开关通过 `int(os.environ.get(NAME, 0)) == 1` 读取。`true`、`yes`、`on`、`1.0`、`0x1` 以及空字符串"
        "会在 dataloader 中引发 `ValueError`：样本或 batch 被逐个跳过并各打一行日志，训练照常进行。"
        "工作区代码用 `int()` 或 `float()` 解析的每个变量都是如此（从代码中读出，并给出解析所在的文件和行）："
        "`TE_EXTRA_STATE_MISSING_CHECK=true` 在 import 时经过 `int()`，训练在第一步之前就会退出；"
        "数据加载代码（`data` 目录）中的读取则会在 dataloader 工作进程中出错。"),
    rationale_en="Use exactly `1` (on) or `0` (off). Quotes are fine: bash removes them.",
    rationale_zh="请只用 `1`（开）或 `0`（关）。引号没有关系，bash 会去掉它们。",
    exceptions_en=(
        "None: a value int() rejects is never what was meant. A value the code reads without "
        "raising but not as it is spelled (`true` compared with `\"1\"`) is PG013 `misread-value`; "
        "where the workspace's code reads a variable, its parse decides, not packgate's table of "
        "known variables."),
    exceptions_zh=(
        "没有例外：int() 拒绝的值从来不是本意。代码读取时不会抛异常、但理解与写法不同的值（`true` 与 `\"1\"` 比较）"
        "属于 PG013 `misread-value`；工作区代码读取某个变量时，以代码的解析方式为准，而不是 packgate 内置的已知变量表。"),
    bad=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\n"
        + EXAMPLE_LAUNCH),
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
        + EXAMPLE_LAUNCH),
    messages={
        "value": Text(
            "{name}={shown} makes int() raise ValueError in the training code ({where}); use 1 or 0",
            "{name}={shown} 会让训练代码中的 int() 抛出 ValueError（{where}）；请使用 1 或 0"),
        "level": Text(
            "{name}={shown} makes int() raise ValueError in the training code ({where}); use an "
            "integer level",
            "{name}={shown} 会让训练代码中的 int() 抛出 ValueError（{where}）；请使用整数级别"),
        "caller": Text(
            "{name} takes {var} from the caller, which the script has not set by then: when the caller "
            "leaves it unset, {name} is empty and int('') raises ValueError in the training code "
            "({where}); set it to 1 or 0 here, or give {var} a default of 0",
            "{name} 取自调用方的 {var}，脚本在此之前没有设置它：调用方不设置时 {name} 为空，训练代码中的 "
            "int('') 会抛出 ValueError（{where}）；请在脚本中设为 1 或 0，或给 {var} 默认值 0"),
        "startup": Text(
            "{name}={shown} makes {call}() raise ValueError where the code reads it ({where}): the "
            "trainer stops at start-up; {remedy}",
            "{name}={shown} 会让代码读取它时的 {call}() 抛出 ValueError（{where}）：训练在启动时就会退出；{remedy}"),
        "worker": Text(
            "{name}={shown} makes {call}() raise ValueError where the code reads it ({where}), inside a "
            "data-loader worker: the samples or batches it reads fail; {remedy}",
            "{name}={shown} 会让代码读取它时的 {call}() 抛出 ValueError（{where}），发生在 dataloader 工作进程中："
            "读取它的样本或 batch 会出错；{remedy}"),
        "string": Text(
            "{name}={shown} is compared with the string \"1\": only 1 turns it on; use 1 or 0",
            "{name}={shown} 是与字符串 \"1\" 比较的：只有 1 才算打开；请使用 1 或 0"),
    },
    fixes={"value": FixText(
        "Set {name} to {value}", "把 {name} 设为 {value}",
        doc_en="Set the variable to `1` (offered first) or `0`: `OFFLINE_PACKING_BMR=true` becomes "
               "`OFFLINE_PACKING_BMR=1`; `MEGATRON_LOGGING_LEVEL` is offered `20` or `30`",
        doc_zh="把变量设为 `1`（首选）或 `0`：`OFFLINE_PACKING_BMR=true` 改为 `OFFLINE_PACKING_BMR=1`；"
               "`MEGATRON_LOGGING_LEVEL` 提供 `20` 或 `30`",
        applicability=Applicability.DISPLAY_ONLY)},
)


def check(ctx: Context) -> None:
    """A live gate (or another int-parsed variable) whose value int() rejects."""
    index = ctx.contract()
    read_names: dict = {}
    if index is not None:
        # the code's reads: only a workspace with Python code to index loads their kinds
        from ..code.outcome import reads_by_name
        _parsed_by_the_code(ctx, index)
        read_names = reads_by_name(ctx)
    for a, val in ctx.flow.gate_sites:
        if a.name not in G.GATES and a.name in read_names:
            continue  # how the workspace's code parses it decides (above; PG013 for a misreading)
        if val.kind == ValKind.UNKNOWN and a.name in G.GATES and val.origin in _CALLERS and not val.required:
            _from_the_caller(ctx, a, val)
            continue
        if val.kind not in (ValKind.KNOWN, ValKind.DEFAULT):
            continue
        judged = _judge(ctx, a.name, val.text)
        if judged is None:
            continue
        key, where = judged
        msg = ctx.message(RULE, key, name=a.name, shown=shown(val), where=where)
        choices = ("20", "30") if key == "level" else ("1", "0")
        # a gate's value is judged by the profile's reading of it; another variable's is not
        fixes = [ctx.fix(RULE, "value", [value_edit(a, v, ctx.source)], preferred=(v == choices[0]),
                         profile_bound=a.name in G.GATES, name=a.name, value=v) for v in choices]
        start = a.name_start
        end = a.value.end if a.value is not None else a.eq_end
        ctx.emit(RULE, msg, start, end, fixes=fixes, site=a)


_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)
# what a message asks for, by the parse that raised
_REMEDY = {"int": ("use an integer", "请使用整数"), "float": ("use a number", "请使用数字")}
_SWITCH = ("use 1 or 0", "请使用 1 或 0")


def _parsed_by_the_code(ctx: Context, index) -> None:
    """Every variable a launch is given that the workspace's code parses with int() or float()
    (the gates aside: the profile reads those, below), whose value makes the parse raise."""
    from ..code.outcome import Kind, in_data_module, place, reads_by_name, worst
    from ..code.readkinds import Parse
    table = reads_by_name(ctx)
    for launch in ctx.flow.launches:
        for path in launch.paths:
            for name, var in path.exported(moved=False).items():  # reads origins and texts only
                a = var.origin
                if a is None or var.val.kind not in _GIVEN or name in G.GATES:
                    continue
                got = worst(table.get(name, ()), var.val.text)
                if got.kind is not Kind.RAISES:
                    continue
                read = got.read
                rel = place(read, index.root)
                switch = read.parse in (Parse.INT_EQ, Parse.BOOL_INT)
                key = "worker" if in_data_module(rel) else "startup"
                msg = ctx.message(RULE, key, name=name, shown=shown(var.val), call=got.call, where=rel,
                                  remedy=_SWITCH if switch else _REMEDY[got.call])
                choices = ("1", "0") if switch else _default_of(read, got.call)
                fixes = [ctx.fix(RULE, "value", [value_edit(a, v, ctx.source)], preferred=(v == choices[0]),
                                 profile_bound=False, name=name, value=v) for v in choices]
                end = a.value.end if a.value is not None else a.eq_end
                ctx.emit(RULE, msg, a.name_start, end, fixes=fixes, site=a, launch=launch)


def _default_of(read, call: str) -> tuple:
    """The read's own default as the one value a fix offers, when it parses."""
    from ..code.readkinds import Default
    if read.default_kind is not Default.LITERAL or read.default is None or isinstance(read.default, bool):
        return ()
    text = str(read.default)
    try:
        (float if call == "float" else int)(text)
    except (ValueError, OverflowError):
        return ()
    return (text,)


# an unknown value that is the caller's variable or argument as it came, so empty when the
# caller leaves it unset (unless set -u stopped the script there: `required`)
_CALLERS = (Origin.CALLER, Origin.ARGUMENT)


def _from_the_caller(ctx: Context, a, val) -> None:
    """A gate given a variable the script never set (`"${SOME_VAR}"`): information, because
    the caller may set it right, but empty (the caller's default) makes int() raise."""
    judged = _judge(ctx, a.name, "")
    if judged is None:
        return
    where = judged[1]
    msg = ctx.message(RULE, "caller", name=a.name, var="$" + val.name, where=where)
    end = a.value.end if a.value is not None else a.eq_end
    ctx.emit(RULE, msg, a.name_start, end, severity="information", site=a)


def _judge(ctx: Context, name: str, text: str):
    """(message key, where the training code reads it) when the value is wrong, else None."""
    if name in G.GATES:
        if name not in ctx.live:
            return None
        if ctx.profile.parse_of(name) == "str":
            if text in ("1", "0", ""):
                return None
            key = "string"
        elif G.int_gate(text) != G.GateState.INVALID:
            return None
        else:
            key = "value"
        reads = [r for r in ctx.profile.reads if r.name == name]
        if reads:
            return key, f"{reads[0].path}:{reads[0].line}"
        if name == G.VQA:
            return key, "the LLaVA-OneVision-1.5 encoding gate"
        return key, G.VAR_DOCS[name].read_at
    if name in ("TE_EXTRA_STATE_MISSING_CHECK", "MEGATRON_LOGGING_LEVEL"):
        if G.int_gate(text) != G.GateState.INVALID:
            return None
        return ("level" if name == "MEGATRON_LOGGING_LEVEL" else "value"), G.OTHER_VARS[name][0]
    if name == "SCATTER_BEFORE_PATCH_EMBED":
        if text in ("1", "0", ""):
            return None
        return "string", G.OTHER_VARS[name][0]
    return None
