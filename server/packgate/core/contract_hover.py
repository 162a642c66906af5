"""Hover text for the launch contract: where the workspace's code reads a variable or defines an
option, how it parses it, its default and what each launch gives it, in English and Chinese
with the layout of the gate hover (core/hover.py)."""

from __future__ import annotations

from . import launch_contract as C
from .code.envreads import Default, Parse
from .code.index import How
from .code.options import UNKNOWN_TYPE
from .flow import ValKind
from .hover_text import code as _code, heading as _h, site_line as _line, table as _table
from .parse.model import OccurrenceKind

MAX_READS = 8  # reads listed per variable; the rest are counted

# (English, 中文) of what a parse means for the text a launcher gives
_PARSE_TEXT = {
    Parse.INT_EQ: ("compared as an integer (`01` is 1); `true`, `yes` or an empty value make int() raise",
                   "按整数比较（`01` 等于 1）；`true`、`yes` 或空值会让 int() 报错"),
    Parse.STR_EQ: ("a string compare: only this exact text matches (`true` or `yes` do not)",
                   "字符串比较：只有完全相同的文本才匹配（`true`、`yes` 不算）"),
    Parse.STR_NE: ("a string compare: only this exact text matches (`true` or `yes` do not)",
                   "字符串比较：只有完全相同的文本才匹配（`true`、`yes` 不算）"),
    Parse.IN_SET: ("one of a fixed set of texts, compared exactly", "必须是固定集合中的一个文本，精确比较"),
    Parse.INT: ("a value int() rejects raises", "int() 无法解析的值会报错"),
    Parse.FLOAT: ("a value float() rejects raises", "float() 无法解析的值会报错"),
    Parse.BOOL_INT: ("any non-zero integer is on, 0 is off; a non-integer raises",
                     "非零整数为打开，0 为关闭；非整数会报错"),
    Parse.LOWER_EQ: ("compared without regard to case", "不区分大小写比较"),
    Parse.UPPER_EQ: ("compared without regard to case", "不区分大小写比较"),
    Parse.LOWER_IN: ("one of a fixed set, without regard to case", "不区分大小写，必须是固定集合中的一个"),
    Parse.UPPER_IN: ("one of a fixed set, without regard to case", "不区分大小写，必须是固定集合中的一个"),
    Parse.PRESENCE: ("only whether it is set counts, not its value (`0` is set too)",
                     "只看是否设置，不看取值（`0` 也算已设置）"),
    Parse.TRUTHY: ("any non-empty text is on, `0` and `false` included", "任何非空文本都算打开，包括 `0` 和 `false`"),
    Parse.PATH: ("used as a path", "作为路径使用"),
    Parse.STRING: ("used as text", "作为文本使用"),
    Parse.UNKNOWN: ("read; how the value is parsed is not in sight (stored or passed on)",
                    "被读取；值如何解析不可见（被保存或传递）"),
}

_DEFAULT_TEXT = {
    Default.NONE: ("none: the read gives None when it is unset", "无：未设置时得到 None"),
    Default.REQUIRED: ("none: `os.environ[...]` raises KeyError when it is unset",
                       "无：未设置时 `os.environ[...]` 抛出 KeyError"),
    Default.UNKNOWN: ("computed by the code", "由代码计算"),
    Default.NOT_APPLICABLE: ("–", "–"),
}


def _py(value) -> str:
    """A Python literal as the code writes it, double-quoted for text."""
    return '"' + value + '"' if isinstance(value, str) else repr(value)


def _cell(text: str, markdown: bool) -> str:
    return text.replace("|", "\\|") if markdown else text


def expression(read) -> str:
    """What the code does with the value, as a short Python expression (`int(v) == 1`)."""
    vals = [_py(v) for v in read.values]
    one = vals[0] if len(vals) == 1 else "{" + ", ".join(vals) + "}"
    neg = read.negated
    p = read.parse
    if p is Parse.INT_EQ:
        return f"int(v) {('not in' if neg else 'in') if len(vals) > 1 else ('!=' if neg else '==')} {one}"
    if p in (Parse.STR_EQ, Parse.STR_NE):
        return f"v {'!=' if p is Parse.STR_NE or neg else '=='} {one}"
    if p is Parse.IN_SET:
        return f"v {'not in' if neg else 'in'} {one}"
    if p in (Parse.LOWER_EQ, Parse.LOWER_IN, Parse.UPPER_EQ, Parse.UPPER_IN):
        method = "lower" if p in (Parse.LOWER_EQ, Parse.LOWER_IN) else "upper"
        member = p in (Parse.LOWER_IN, Parse.UPPER_IN)
        op = ("not in" if neg else "in") if member else ("!=" if neg else "==")
        return f"v.{method}() {op} {one}"
    return {Parse.INT: "int(v)", Parse.FLOAT: "float(v)", Parse.BOOL_INT: "bool(int(v))",
            Parse.PRESENCE: f'"{read.name}" in os.environ', Parse.TRUTHY: "bool(v)",
            Parse.PATH: "a path", Parse.STRING: "str", Parse.UNKNOWN: "?"}[p]


def parse_text(read, zh: bool, markdown: bool = True) -> str:
    """How a read parses the value: its expression and what that means, in one language."""
    en, cn = _PARSE_TEXT[read.parse]
    meaning = cn if zh else en
    if read.parse in (Parse.PATH, Parse.STRING, Parse.UNKNOWN):
        return meaning if markdown else meaning.replace("`", "")
    text = f"{_code(expression(read), markdown)}{'：' if zh else ': '}{meaning}"
    return text if markdown else text.replace("`", "")


def default_text(read, zh: bool, markdown: bool = True) -> str:
    """What a read gives when the variable is unset, in one language."""
    if read.default_kind is Default.LITERAL:
        return _code(_py(read.default), markdown)
    en, cn = _DEFAULT_TEXT[read.default_kind]
    text = cn if zh else en
    return text if markdown else text.replace("`", "")


def place(index, path: str, line: int, markdown: bool) -> str:
    """`rel:line` of a Python file, as a link that opens it there (plain text: with the URI)."""
    shown = f"{C.relative(index, path)}:{line}"
    link = C.file_link(path, line)
    return f"[{shown}]({link})" if markdown else f"{shown} ({link})"


# -- variables ---------------------------------------------------------------------------------


def variable_section(analysis, index, name: str, langs, markdown: bool) -> str:
    """Where the code reads a variable, how and with what default, and what each launch gives it."""
    reads = index.reads_of(name) if index is not None else ()
    out = []
    for lang in langs:
        zh = lang == "zh"
        if index is not None:
            out.append(_h("工作区代码如何读取它" if zh else "How the workspace's code reads it", markdown))
            out.append("")
            if reads:
                out.append(_reads_table(index, reads, zh, markdown))
            else:
                out.append("工作区的 Python 代码不读取它（工作区之外的库可能读取）。" if zh else
                           "No Python code in the workspace reads it (a library outside the workspace may).")
            out.append("")
        # a shell variable no code reads and no launch sees: what it holds is no launch's matter
        given = _launch_values(analysis, name, zh, markdown) if reads or _exported(analysis, name) else []
        if given:
            out.append(_h("各启动命令给它的值" if zh else "What each launch gives it", markdown))
            out.append("")
            out.extend(given)
            out.append("")
    return "\n".join(out)


def _reads_table(index, reads, zh: bool, markdown: bool) -> str:
    head = ("读取位置", "解析方式", "默认值") if zh else ("Read at", "Parse", "Default")
    rows = [(place(index, r.file, r.line, markdown), parse_text(r, zh, markdown), default_text(r, zh, markdown))
            for r in reads[:MAX_READS]]
    more = len(reads) - MAX_READS
    if not markdown:
        lines = [f"{a}: {b}; {head[2]} {c}" if not zh else f"{a}：{b}；{head[2]} {c}" for a, b, c in rows]
    else:
        lines = [f"| {head[0]} | {head[1]} | {head[2]} |", "|---|---|---|"]
        lines += [f"| {a} | {_cell(b, True)} | {_cell(c, True)} |" for a, b, c in rows]
    if more > 0:
        lines.append(f"另有 {more} 处读取。" if zh else f"and {more} more reads.")
    return "\n".join(lines)


def _exported(analysis, name: str) -> bool:
    """Whether some path gives the variable to its launch from the script."""
    return any(name in path.exported() for launch in analysis.flow.launches for path in launch.paths)


def _where(analysis, launch, zh: bool) -> str:
    if launch.implicit:
        return "文件末尾" if zh else "end of file"
    line = analysis.source.line_of(launch.name_start) + 1
    return f"{launch.label}（第 {line} 行）" if zh else f"{launch.label} (line {line})"


def _launch_values(analysis, name: str, zh: bool, markdown: bool) -> list:
    out = []
    assigned = [o.start for o in analysis.script.occurrences if o.name == name and o.kind == OccurrenceKind.ASSIGN]
    for launch in analysis.flow.launches:
        values = []
        before = [at for at in assigned if at < launch.start or launch.implicit]
        for path in launch.paths:
            v = _path_value(analysis, path, name, zh, markdown, before[-1] if before else None)
            if v not in values:
                values.append(v)
        if values:
            out.append(f"- {_where(analysis, launch, zh)}: " + "; ".join(values))
    return out


def _path_value(analysis, path, name: str, zh: bool, markdown: bool, assigned) -> str:
    var = path.var(name)
    if var is None:  # the walk kept no value: the script never exports it on this path
        if path.cleared:
            return "未设置（`env -i` 清空了环境）" if zh else "unset (`env -i` cleared the environment)"
        if assigned is not None:  # bash exports an assignment only to a name that came exported
            line = analysis.source.line_of(assigned) + 1
            return (f"第 {line} 行赋值但从未导出：只有当调用方已导出这个名字时训练进程才看得到" if zh else
                    f"assigned on line {line} but never exported: the trainer sees it only when the name came "
                    f"exported from the caller")
        return ("脚本没有设置它：训练进程看到的是调用方环境中的值（如果有）" if zh else
                "not set by the script: the trainer sees the caller's value, if any")
    at = _line(analysis, var.origin, zh) if var.origin is not None else ""
    if not var.exported or var.negated:
        if var.val.kind == ValKind.UNSET:
            return "未设置" if zh else "unset"
        where = f"（{at}）" if zh and at else f" ({at})" if at else ""
        return f"已赋值但未导出{where}：训练进程看不到" if zh else f"assigned but not exported{where}: the trainer does not see it"
    val = var.val
    if val.kind == ValKind.UNSET:
        return "未设置" if zh else "unset"
    if val.kind == ValKind.UNKNOWN:
        return f"由调用方决定（{val.via}）" if zh else f"set by the caller ({val.via})"
    text = _code(repr(val.text), markdown)
    if val.kind == ValKind.DEFAULT:
        text += f"（除非调用方设置 {val.via}）" if zh else f" (unless the caller sets {val.via})"
    if at:
        text += f"，来自{at}" if zh else f", from {at}"
    return text


# -- options -----------------------------------------------------------------------------------


def option_section(analysis, index, word, langs, markdown: bool) -> str:
    """Where the launch's parser defines an option, its type, choices, nargs, default and help,
    how the parser was found, and the values this launch passes."""
    accepted = C.accepted_options(index, word)
    defs = C.definitions_of(accepted, word.text)
    short = C.abbreviated(accepted, word.text)
    given = C.given_option(word, defs or short)
    out = []
    for lang in langs:
        zh = lang == "zh"
        out.append(_h("训练代码中的定义" if zh else "Where the trainer's parser defines it", markdown))
        out.append("")
        if short:
            names = ", ".join(_code(next(s for s in o.strings if s.startswith(word.text)), markdown)
                              for o in short[:MAX_READS])
            out.append((f"解析器允许缩写，会把它当作 {names} 的缩写" if zh else
                        f"The parser allows abbreviations and takes it for {names}") if len(short) == 1 else
                       (f"解析器允许缩写，但它同时是 {names} 的开头：argparse 报错 ambiguous option" if zh else
                        f"The parser allows abbreviations, but it begins {names}: argparse stops with "
                        f"\"ambiguous option\""))
            out.append("")
        if defs or len(short) == 1:
            for d in (defs or short)[:MAX_READS]:
                out.append(_table(("项目", "说明") if zh else ("", ""), _option_rows(index, d, zh, markdown), markdown))
                out.append("")
        elif not short:
            out.append(("这个启动命令的解析器没有定义它。" if zh else "No parser of this launch defines it.")
                       if accepted.how in (How.ENTRY_FILE, How.IMPORTED) else
                       ("工作区的代码没有定义它。" if zh else "No code in the workspace defines it."))
            out.append("")
        out.append(f"{'解析器' if zh else 'Parser'}{'：' if zh else ': '}{_how_text(accepted, zh, markdown)}")
        out.append("")
        values = _option_values(analysis, given, defs or short, zh, markdown)
        if values:
            out.append(_h("这个启动命令给它的值" if zh else "What this launch gives it", markdown))
            out.append("")
            out.extend(values)
            out.append("")
    return "\n".join(out)


def _option_rows(index, d, zh: bool, markdown: bool) -> list:
    none = "–"
    switch = not C.takes_value(d)
    if switch:
        typ = f"{'开关' if zh else 'switch'} ({_code(str(d.action), markdown)})"
    elif d.type is None:
        typ = "文本（没有 type=）" if zh else "text (no type=)"
    else:
        typ = _code("?" if d.type == UNKNOWN_TYPE else str(d.type), markdown)
    if d.choices is None:
        choices = none
    elif d.choices == UNKNOWN_TYPE:
        choices = "不是字面量" if zh else "not a literal"
    else:
        choices = ", ".join(_code(str(c), markdown) for c in d.choices)
    nargs = none if d.nargs is None else _code(str(d.nargs), markdown)
    default = none if not d.default else _code(d.default, markdown)
    if d.file and d.line > 0:
        defined = f"{place(index, d.file, d.line, markdown)} ({_code(d.function, markdown)})"
    else:  # -h/--help of a union: argparse adds it, no line says so
        defined = "argparse 自带（add_help）" if zh else "argparse's own (add_help)"
    rows = [
        ("定义位置" if zh else "Defined at", defined),
        ("选项" if zh else "Option strings", ", ".join(_code(s, markdown) for s in d.strings)),
        ("类型" if zh else "Type", typ),
        ("可选值" if zh else "Choices", choices),
        ("nargs", nargs),
        ("默认值" if zh else "Default", default),
    ]
    if d.help:
        rows.append(("说明" if zh else "Help", _cell(" ".join(d.help.split()), markdown)))
    return [(k, _cell(v, markdown) if k != rows[0][0] else v) for k, v in rows]


def _how_text(accepted, zh: bool, markdown: bool) -> str:
    why = accepted.why
    if accepted.how in (How.ENTRY_FILE, How.IMPORTED):
        text = f"从启动入口找到：{why}" if zh else f"found from the launch's entry point: {why}"
    else:
        text = f"未从启动入口找到，按工作区定义的全部选项：{why}" if zh else f"not found from the launch's entry point: {why}"
    if accepted.allow_abbrev is False:
        text += "；不接受缩写（`allow_abbrev=False`）" if zh else "; abbreviations are refused (`allow_abbrev=False`)"
    if accepted.tolerance.tolerant is True:
        text += f"；放行未知选项（{accepted.tolerance.why}）" if zh else \
            f"; unknown options are let through ({accepted.tolerance.why})"
    return text if markdown else text.replace("`", "")


def _option_values(analysis, given, defs, zh: bool, markdown: bool) -> list:
    switch = bool(defs) and not any(C.takes_value(d) for d in defs)
    shown = []
    for v in given.values:
        if v is None:
            shown.append("脚本无法确定" if zh else "unknown to the script")
        elif switch:
            shown.append("已给出" if zh else "given")
        else:
            shown.append(_code(repr(v), markdown))
    return [f"- {_where(analysis, given.launch, zh)}: " + "; ".join(dict.fromkeys(shown))] if shown else []
