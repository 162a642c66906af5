"""PG009 unfollowed-source: a `source` / `.` the analysis could not follow, and why."""

from __future__ import annotations

from itertools import chain

from ..parse import OccurrenceKind
from .base import Context, one_line
from .rule import Rule, Text

# the mentions that set or export a variable (an expansion or an unset does neither)
_SETTING = frozenset({OccurrenceKind.ASSIGN, OccurrenceKind.EXPORT, OccurrenceKind.PREFIX,
                      OccurrenceKind.ENV, OccurrenceKind.DOCKER})

RULE = Rule(
    code="PG009",
    name="unfollowed-source",
    severity="information",
    summary_en="A sourced file (or another input that sets variables) could not be followed where "
               "its exports matter, so they are not checked",
    summary_zh="无法跟踪被 source 的文件（或其他设置变量的输入，其导出在此有影响），其中的导出没有被检查",
    problem_en=(
        "Training scripts often keep their environment in a file they `source`. packgate "
        "follows static paths, paths relative to the script (`$(dirname \"$0\")`, "
        "`${BASH_SOURCE[0]}`, a `SCRIPT_DIR` variable) and `# packgate source=PATH`. When it "
        "cannot tell which file is meant, or the file is refused (outside the project, not a "
        "regular file, too large, a cycle), the exports in it are invisible to the checks. "
        "That matters only where the script launches training or sets or exports a gate "
        "(anywhere: in a function, a branch, a file it sources): a script that does neither "
        "(a frame-extraction helper, a vendored tool) gets no PG009 for what it sources. The same "
        "goes for the other inputs no static reading can see: `source <(curl ...)`, a file the "
        "script writes before it sources it, and exports whose names are read at run time "
        "(`export $(grep -v '^#' .env | xargs)`, `while read -r k v; do export \"$k=$v\"; done < "
        "pack.conf`) or assigned (`printf -v \"$k\" %s \"$v\"`, `read -r \"$k\"`, `local \"$k=$v\"`) or unset (`unset \"$k\"`). After any of them the gates are unknown, so no finding above information "
        "rests on them."),
    problem_zh=(
        "训练脚本常把环境变量放在一个被 `source` 的文件里。packgate 会跟踪静态路径、相对脚本的路径"
        "（`$(dirname \"$0\")`、`${BASH_SOURCE[0]}`、`SCRIPT_DIR` 变量）以及 `# packgate source=PATH`。"
        "如果无法确定是哪个文件，或者文件被拒绝（在项目之外、不是普通文件、过大、循环 source），"
        "其中的导出就不会被检查。只有脚本启动训练、或设置或导出某个开关（任何位置：函数、分支、"
        "它 source 的文件）时这才有影响：两者都不做的脚本（抽帧脚本、第三方工具）不会因为它 source "
        "的文件报 PG009。其他静态分析无法看到的输入也一样：`source <(curl ...)`、脚本先写出再 source 的文件、"
        "变量名在运行时读取的导出（`export $(grep -v '^#' .env | xargs)`、`while read -r k v; do export "
        "\"$k=$v\"; done < pack.conf`），以及变量名在运行时才确定的赋值（`printf -v \"$k\" %s \"$v\"`、`read -r \"$k\"`、`local \"$k=$v\"`）或 unset（`unset \"$k\"`）。在它们之后开关取值未知，因此不会据此给出高于 information 的结论。"),
    rationale_en="Point packgate at the file with `# packgate source=relative/path.sh` on the line before.",
    rationale_zh="在前一行写 `# packgate source=相对路径.sh`，告诉 packgate 是哪个文件。",
    exceptions_en="Sources of files that set no packing variables can be silenced with `# packgate disable=PG009`.",
    exceptions_zh="被 source 的文件不涉及 packing 变量时，可以用 `# packgate disable=PG009` 静默。",
    bad="#!/bin/bash\nsource \"$ENV_FILE\"\ntorchrun aiak_training_llm/train.py --micro-batch-size 1\n",
    good=(
        "#!/bin/bash\n# packgate source=env/packing.sh\nsource \"$ENV_FILE\"\n"
        "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"),
    messages={
        "dynamic": Text("cannot tell which file this sources (it depends on {detail}); add "
                    "`# packgate source=PATH` on the line before",
                    "无法确定这里 source 的是哪个文件（取决于 {detail}）；请在前一行加上 `# packgate source=PATH`"),
        "relative": Text("cannot follow the relative path {detail} of a script that has no file name",
                     "脚本没有文件名，无法跟踪相对路径 {detail}"),
        "cycle": Text("source cycle not followed: {detail}", "检测到循环 source，未跟踪：{detail}"),
        "depth": Text("sources nested too deeply, not followed: {detail}", "source 嵌套过深，未跟踪：{detail}"),
        "refused": Text("sourced file not read: {detail}", "未读取被 source 的文件：{detail}"),
        # inputs no static reading can see (the gates after them are unknown, so nothing above
        # information is claimed where they reach)
        "process": Text("{detail} sources a command's output, which packgate cannot see: the gates "
                        "after it are unknown",
                        "{detail} source 的是命令的输出，packgate 无法看到：其后的开关取值未知"),
        "written": Text("the script writes {detail} itself (a redirection into it), so what it sets is known "
                        "only when it runs: the gates after it are unknown",
                        "脚本自己（通过重定向）写出 {detail}，其内容只有运行时才知道：其后的开关取值未知"),
        "computed": Text("the names exported here come from {detail}, which packgate cannot read: the "
                         "gates after it are unknown",
                         "此处导出的变量名来自 {detail}，packgate 无法读取：其后的开关取值未知"),
        "assigned": Text("the name assigned here comes from {detail}, which packgate cannot read: any "
                         "gate may be the one assigned, so the gates after it are unknown",
                         "此处赋值的变量名来自 {detail}，packgate 无法读取：任何开关都可能被赋值，其后的开关取值未知"),
        "local": Text("the name made local here comes from {detail}, which packgate cannot read: any gate "
                      "may be the one assigned, so the gates are unknown until the function returns",
                      "此处声明为 local 的变量名来自 {detail}，packgate 无法读取：任何开关都可能被赋值，函数返回之前开关取值未知"),
        "unset": Text("the name unset here comes from {detail}, which packgate cannot read: any gate may "
                      "be the one unset, so the gates after it are unknown",
                      "此处 unset 的变量名来自 {detail}，packgate 无法读取：任何开关都可能被 unset，其后的开关取值未知"),
    },
    fixes={},
)


def check(ctx: Context) -> None:
    """One information finding per source command that was not followed, in a script where
    what the file could export matters (matters())."""
    if not ctx.flow.unfollowed or not matters(ctx):
        return
    for start, end, (key, detail) in ctx.flow.unfollowed:
        msg = ctx.message(RULE, key, detail=one_line(detail))
        ctx.emit(RULE, msg, start, end, dedupe=(start, end, key))


def matters(ctx: Context) -> bool:
    """Whether what an unread file could export changes a verdict here: the script launches
    training (a launch of its own or of a file it sources), or sets or exports a gate of the
    profile anywhere (its code's mentions, `bash -c` bodies', a followed file's assignments).
    A script that does neither (frame extraction, a vendored tool) launches nothing an unread
    export could break, and a launcher that sources it is checked where it launches."""
    if any(not launch.implicit for launch in ctx.flow.launches):
        return True
    profile = ctx.profile
    gates = {*profile.encoding, profile.batch, *profile.dead}
    for o in chain(ctx.script.occurrences, ctx.flow.extra_occurrences):
        if o.kind in _SETTING and o.name in gates:
            return True
    return any(site.assign.name in gates for site in ctx.flow.gate_sites)
