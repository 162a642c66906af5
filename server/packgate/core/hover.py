"""Hover text: the bilingual truth table, rendered per locale, with what this script's launches see;
any other variable or option through the launch contract (contract_hover.py)."""

from __future__ import annotations

import re

from . import gates as G
from .flow import ValKind
from .hover_text import code as _code, heading as _h, site_line as _line, table as _table
from .parse import _DIRECTIVE
from .parse.model import DirectiveKind
from .rules.base import Context
from .rules.packing import path_verdict

# the four combinations in table order, each with the (encoding, batch) values that give it
_ROWS = ((G.Verdict.OFF, 0, 0), (G.Verdict.LEAK, 1, 0), (G.Verdict.CORRUPT, 0, 1), (G.Verdict.OK, 1, 1))


def _occurrence_at(analysis, offset: int):
    occs = list(analysis.script.occurrences) + list(analysis.flow.extra_occurrences)
    best = None
    for o in occs:
        if o.start <= offset <= o.end and (o.name in G.GATES or o.name in G.OTHER_VARS
                                          or o.name == G.MBS_FLAG):
            if best is None or (o.end - o.start) < (best.end - best.start):
                best = o
    return best


def hover_at(analysis, offset: int, lang: str, markdown: bool):
    """(text, start, end) for a gate variable, --micro-batch-size, any other variable or trainer
    option the workspace's code reads or defines, or a value of a `# packgate` directive at
    offset, else None."""
    if analysis.script is None or analysis.flow is None:
        return None
    langs = ("en", "zh") if lang == "both" else (lang,)
    occ = _occurrence_at(analysis, offset)
    if occ is None:
        return _contract_hover(analysis, offset, langs, markdown) or \
            _directive_hover(analysis, offset, langs, markdown)
    if occ.name == G.MBS_FLAG:
        body = _mbs(analysis, langs, markdown) + _contract_option(analysis, offset, langs, markdown)
    elif occ.name in G.OTHER_VARS:
        body = _other(occ.name, langs, markdown) + _contract_variable(analysis, occ.name, langs, markdown)
    else:
        body = _gate(analysis, occ.name, langs, markdown)
    return body, occ.start, occ.end


def _contract_hover(analysis, offset: int, langs, markdown: bool):
    """(text, start, end) for any other variable or a trainer option at offset, from the
    workspace's contract index; None without one (no project code: nothing to say)."""
    from . import launch_contract as C
    index = C.contract_for(analysis)
    if index is None:
        return None
    occ = C.variable_at(analysis, offset)
    if occ is not None:
        head = f"### `{occ.name}`" if markdown else occ.name
        return f"{head}\n\n" + _contract_variable(analysis, occ.name, langs, markdown, index), occ.start, occ.end
    word = C.option_word_at(analysis, offset)
    if word is not None:
        from .contract_hover import option_section
        head = f"### `{word.text}`" if markdown else word.text
        body = option_section(analysis, index, word, langs, markdown)
        return f"{head}\n\n" + body.rstrip() + "\n", word.start, word.end
    return None


def _contract_variable(analysis, name: str, langs, markdown: bool, index=None) -> str:
    """The contract's part of a variable's hover ("" without a contract index)."""
    from . import launch_contract as C
    from .contract_hover import variable_section
    if index is None:
        index = C.contract_for(analysis)
    if index is None:
        return ""
    text = variable_section(analysis, index, name, langs, markdown).rstrip()
    return text + "\n" if text else ""


def _contract_option(analysis, offset: int, langs, markdown: bool) -> str:
    """The contract's part of a trainer option's hover ("" off a launch or without an index)."""
    from . import launch_contract as C
    from .contract_hover import option_section
    index = C.contract_for(analysis)
    word = C.option_word_at(analysis, offset) if index is not None else None
    if word is None:
        return ""
    return "\n" + option_section(analysis, index, word, langs, markdown).rstrip() + "\n"


def _gate(analysis, name: str, langs, markdown: bool) -> str:
    out = [_variable_table(analysis.profile, name, langs, markdown)]
    out.append(_combos(analysis, langs, markdown))
    out.append(_seen(analysis, name, langs, markdown))
    return "\n".join(out).rstrip() + "\n"


def gate_doc(profile, name: str, lang: str = "both", markdown: bool = True) -> str:
    """The truth-table row of one gate under a profile (completion documentation, hover head)."""
    langs = ("en", "zh") if lang == "both" else (lang,)
    return _variable_table(profile, name, langs, markdown).rstrip() + "\n"


def _variable_table(prof, name: str, langs, markdown: bool) -> str:
    doc = G.VAR_DOCS[name]
    role = ("encoding" if name in prof.encoding else "batch" if name == prof.batch else "dead")
    out = [_h(name, markdown) if not markdown else f"### `{name}`", ""]
    for lang in langs:
        zh = lang == "zh"
        status = {"encoding": ("live: encoding (data-layer) gate", "生效：编码（数据层）开关"),
                  "batch": ("live: batch-layer gate", "生效：batch 层开关"),
                  "dead": ("dead: nothing reads it", "无效：没有代码读取它")}[role][1 if zh else 0]
        prof_title = prof.title_zh if zh else prof.title_en
        reads = [r for r in prof.reads if r.name == name]
        read_at = ", ".join(_code(f"{r.path}:{r.line}", markdown) for r in reads[:3]) if reads \
            else _code(doc.read_at, markdown)
        check = _code(reads[0].text, markdown) if reads else _code(doc.check, markdown)
        if prof.reads and not reads:
            read_at = "不在本项目的代码中" if zh else "not read anywhere in this project's code"
            check = "-"
        rows = [
            ("状态" if zh else "Status", f"{status} ({'配置' if zh else 'profile'} `{prof.name}`: {prof_title}"
                                          f"{_assumed(prof, zh)})"),
            ("默认值" if zh else "Default", doc.default),
            ("读取位置" if zh else "Read at", read_at),
            ("判断方式" if zh else "Check", check),
            ("作用" if zh else "Effect", doc.effect_zh if zh else doc.effect_en),
        ]
        if role == "dead" and name != G.VQA:
            rows[4] = ("作用" if zh else "Effect",
                       "当前配置的训练代码不读取它。" if zh else "The profile's training code does not read it.")
        out.append(_table(("项目", "说明") if zh else ("", ""), rows, markdown))
        out.append("")
    return "\n".join(out)


def _assumed(prof, zh: bool) -> str:
    """Why `auto` fell back to ov2, as a clause of the status row ("" when it did not)."""
    if not prof.assumed_en:
        return ""
    return f"；假定：{prof.assumed_zh}" if zh else f"; assumed: {prof.assumed_en}"


def _verdicts_here(analysis) -> set:
    ctx = Context(analysis.source, analysis.script, analysis.flow, analysis.profile, "en")
    out = set()
    for launch in analysis.flow.launches:
        for p in launch.paths:
            out.add(path_verdict(ctx, p)[0])
    return out


def _combos(analysis, langs, markdown: bool) -> str:
    here = _verdicts_here(analysis)
    # the full names: what the user has to type (the inlay hints keep the short ones)
    enc = "/".join(analysis.profile.encoding)
    batch = analysis.profile.batch
    out = []
    for lang in langs:
        zh = lang == "zh"
        title = "四种组合（本脚本启动时的组合标为 ▶）" if zh else "The four combinations (▶ marks this script's launch)"
        out.append(_h(title, markdown))
        out.append("")
        if markdown:
            out.append(f"| | {enc} | {batch} | {'结果' if zh else 'Result'} |")
            out.append("|---|---|---|---|")
        for key, e, b in _ROWS:
            mark = "▶" if key in here else ""
            text = G.COMBO_TEXT[key][1 if zh else 0]
            if markdown:
                out.append(f"| {mark} | {e} | {b} | {text} |")
            else:
                out.append(f"{mark or ' '} {enc}={e} {batch}={b}: {text}")
        out.append("")
    return "\n".join(out)


def _seen(analysis, name: str, langs, markdown: bool) -> str:
    src = analysis.source
    out = []
    for lang in langs:
        zh = lang == "zh"
        out.append(_h("各启动命令看到的值" if zh else "What each launch sees", markdown))
        out.append("")
        for launch in analysis.flow.launches:
            where = ("文件末尾" if zh else "end of file") if launch.implicit else \
                f"{launch.label} ({'第 ' if zh else 'line '}{src.line_of(launch.name_start) + 1}{' 行' if zh else ''})"
            values = []
            for p in launch.paths:
                seen = p.gates[name]
                if seen.val.kind == ValKind.UNSET:
                    v = "未设置" if zh else "unset"
                    if seen.unexported is not None:
                        at = _line(analysis, seen.unexported, zh)
                        v += f"（{at}赋值但未导出）" if zh else f" (assigned on {at} but not exported)"
                    elif seen.lost is not None:
                        at = _line(analysis, seen.lost[0], zh)
                        v += f"（{at}的导出丢失）" if zh else f" (the export on {at} is lost)"
                elif seen.val.kind == ValKind.UNKNOWN:
                    v = (f"由调用方决定（{seen.val.via}）" if zh else f"set by the caller ({seen.val.via})")
                else:
                    v = _code(repr(seen.val.text), markdown)
                    if seen.val.kind == ValKind.DEFAULT:
                        v += (f"（除非调用方设置 {seen.val.via}）" if zh else f" (unless the caller sets {seen.val.via})")
                    if seen.origin is not None:
                        at = _line(analysis, seen.origin, zh)
                        v += (f"，来自 {at}" if at[0].isascii() else f"，来自{at}") if zh else f", from {at}"
                if v not in values:
                    values.append(v)
            out.append(f"- {where}: " + "; ".join(values))
        out.append("")
    return "\n".join(out)


def _mbs(analysis, langs, markdown: bool) -> str:
    src = analysis.source
    out = [f"### `{G.MBS_FLAG}`" if markdown else G.MBS_FLAG, ""]
    for lang in langs:
        zh = lang == "zh"
        if zh:
            out.append("当 cu_lengths 为真实值（打开 OFFLINE_PACKED_DATA，或传了 --packing-pretrain-data）时，"
                       "`pretrain_llava_onevision2.py:157` 断言 `cu_lengths.shape[0] == 1`：micro-batch size 必须为 1。"
                       "`--packing-sft-data` 会自行把它设为 1。")
        else:
            out.append("When cu_lengths are real (OFFLINE_PACKED_DATA on, or --packing-pretrain-data), "
                       "`pretrain_llava_onevision2.py:157` asserts `cu_lengths.shape[0] == 1`: the "
                       "micro-batch size must be 1. `--packing-sft-data` forces it to 1 by itself.")
        out.append("")
        for launch in analysis.flow.launches:
            if launch.implicit:
                continue
            vals = []
            for p in launch.paths:
                if p.mbs is None:
                    continue
                if p.mbs.kind == ValKind.KNOWN:
                    v = p.mbs.text
                elif p.mbs.kind == ValKind.DEFAULT:
                    v = (f"默认 {p.mbs.text}（{p.mbs.via} 可覆盖）" if zh else
                         f"{p.mbs.text} by default ({p.mbs.via} can override)")
                else:
                    v = (f"未知（{p.mbs.via}）" if zh else f"unknown ({p.mbs.via})")
                if v not in vals:
                    vals.append(v)
            if vals:
                line = src.line_of(launch.name_start) + 1
                out.append(f"- {launch.label} ({'第 ' if zh else 'line '}{line}{' 行' if zh else ''}): "
                           + "; ".join(vals))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _other(name: str, langs, markdown: bool) -> str:
    check, en, zh = G.OTHER_VARS[name]
    out = [f"### `{name}`" if markdown else name, ""]
    for lang in langs:
        if lang == "zh":
            out.append(f"读取方式：{_code(check, markdown)}。{zh}")
        else:
            out.append(f"Read as {_code(check, markdown)}. {en}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# -- `# packgate disable=...` / `# packgate profile=...` ---------------------------------------

_DIRECTIVE_VALUES = re.compile(_DIRECTIVE.encode())  # the builder's, on bytes (for offsets)


def _directive_values(data: bytes, start: int, end: int):
    """(kind, keyword span, [(value, start, end)]) of the directive comment at data[start:end]."""
    m = _DIRECTIVE_VALUES.search(data, start, end)
    if m is None:
        return None
    values, at = [], m.start(2)
    for raw in m.group(2).split(b","):
        if raw:
            values.append((raw.decode("utf-8", "replace"), at, at + len(raw)))
        at += len(raw) + 1
    return m.group(1).decode(), (m.start(1), m.end(1)), values


def _directive_hover(analysis, offset: int, langs, markdown: bool):
    """What a directive's keyword or value means here, and whether packgate knows the value."""
    data = analysis.source.data
    for d in analysis.script.directives:
        if not d.start <= offset <= d.end:
            continue
        found = _directive_values(data, d.start, d.end)
        if found is None:
            return None
        kind, (ks, ke), values = found
        if ks <= offset <= ke:
            return _directive_keyword(kind, d, langs, markdown), ks, ke
        for value, vs, ve in values:
            if vs <= offset <= ve:
                if kind == DirectiveKind.DISABLE:
                    return _rule_value(value, langs, markdown), vs, ve
                if kind == DirectiveKind.PROFILE and (vs, ve) == values[0][1:]:
                    return _profile_value(value, langs, markdown), vs, ve
        return None
    return None


def _directive_keyword(kind: str, d, langs, markdown: bool) -> str:
    trailing = not d.file_wide and d.scope_start < d.scope_end <= d.start  # after code on its line
    if d.file_wide:
        scope = ("Placed before the first command, it covers the whole file.", "写在第一条命令之前：对整个文件生效。")
    elif trailing:
        scope = ("At the end of a line, it covers that line.", "写在行尾：只对这一行生效。")
    else:
        scope = ("It covers the next command (a whole `if`, loop or function included).",
                 "只对下一条命令生效（整个 `if`、循环或函数都算一条）。")
    on_launch = (" On a launch (its line, or the line before it) it also covers what that launch causes, "
                 "such as a PG001 on the export above it.",
                 "写在启动命令上（同一行或前一行）时，也覆盖该启动命令引起的问题，例如上方 export 处的 PG001。")
    texts = {
        "disable": ("Silences the rules listed after `=` (codes or names, or `all`). " + scope[0]
                    + ("" if d.file_wide else on_launch[0]),
                    "关闭 `=` 后列出的规则（编号、名称或 `all`）。" + scope[1] + ("" if d.file_wide else on_launch[1])),
        "profile": ("Chooses the training code this file launches (`ov2`, `ov15`, `three-gate` or `auto`); "
                    "it wins over the settings.",
                    "指定本文件启动的训练代码（`ov2`、`ov15`、`three-gate` 或 `auto`），优先于设置。"),
        "source": ("Names the file a `source` / `.` below reads when packgate cannot work it out.",
                   "当 packgate 推断不出下方 `source` / `.` 读取的文件时，用它指明文件。"),
    }
    en, zh = texts[kind]
    head = f"### `# packgate {kind}=`" if markdown else f"# packgate {kind}="
    return _paragraphs(head, langs, en, zh, markdown)


def _rule_value(value: str, langs, markdown: bool) -> str:
    from .rules import RULES, rule_by_key, rule_list
    if value.lower() == "all":
        return _paragraphs("### `all`" if markdown else "all", langs,
                           "Every rule: " + ", ".join(r.code for r in RULES) + ".",
                           "所有规则：" + "、".join(r.code for r in RULES) + "。", markdown)
    rule = rule_by_key(value)
    if rule is None:
        known = rule_list()
        return _paragraphs(f"### `{value}`" if markdown else value, langs,
                           f"No rule has this code or name: this value is ignored. Rules: {known}.",
                           f"没有这个编号或名称的规则：该值被忽略。规则：{known}。", markdown)
    head = f"### {rule.code} `{rule.name}` ({rule.severity})" if markdown else \
        f"{rule.code} {rule.name} ({rule.severity})"
    link = f"[{rule.code}]({rule.doc_url})" if markdown else rule.doc_url
    return _paragraphs(head, langs, f"{rule.summary_en}. {link}", f"{rule.summary_zh}。{link}", markdown)


def _profile_value(value: str, langs, markdown: bool) -> str:
    if value == "auto":
        return _paragraphs("### `auto`" if markdown else "auto", langs,
                           "The gates the project's Python training code reads decide (ov2 without such code).",
                           "由项目中 Python 训练代码读取的开关决定（没有这类代码时按 ov2）。", markdown)
    prof = G.PROFILES.get(value)
    if prof is None:
        from .settings import PROFILES
        names = ", ".join(PROFILES)
        return _paragraphs(f"### `{value}`" if markdown else value, langs,
                           f"No such profile: this directive is ignored. Profiles: {names}.",
                           f"没有这个 profile：该指令被忽略。可选：{names}。", markdown)
    enc = " / ".join(_code(n, markdown) for n in prof.encoding)
    dead = ", ".join(_code(n, markdown) for n in prof.dead) or "–"
    return _paragraphs(f"### `{value}`" if markdown else value, langs,
                       f"{prof.title_en}. Encoding gate {enc}, batch gate {_code(prof.batch, markdown)}, "
                       f"not read: {dead}.",
                       f"{prof.title_zh}。编码开关 {enc}，批次开关 {_code(prof.batch, markdown)}，不读取：{dead}。",
                       markdown)


def _paragraphs(head: str, langs, en: str, zh: str, markdown: bool) -> str:
    out = [head, ""]
    for lang in langs:
        out.append(zh if lang == "zh" else en)
        out.append("")
    text = "\n".join(out).rstrip() + "\n"
    return text if markdown else text.replace("`", "")
