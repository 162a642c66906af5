"""PG002 dead-var: a variable the profile's training code never reads is set."""

from __future__ import annotations

from .base import Context, removal
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

RULE = Rule(
    code="PG002",
    name="dead-var",
    severity="warning",
    summary_en="A variable the training code never reads is set",
    summary_zh="设置了训练代码根本不读取的变量",
    problem_en=(
        "`OFFLINE_PACKING_VQA` was the encoding gate of LLaVA-OneVision-1.5; nothing in the "
        "LLaVA-OneVision-2 training code reads it. Setting it changes nothing, yet readers of the "
        "script believe packing is configured. Under the `ov15` profile the roles swap and "
        "`OFFLINE_PACKING_BMR` is the unread one."),
    problem_zh=(
        "`OFFLINE_PACKING_VQA` 是 LLaVA-OneVision-1.5 的编码开关；LLaVA-OneVision-2 的训练代码里没有任何地方读取它。"
        "设置它没有任何作用，却让读脚本的人以为 packing 已经配置好了。在 `ov15` 配置下角色互换，"
        "`OFFLINE_PACKING_BMR` 成为没人读取的那个。"),
    rationale_en="Dead configuration hides the real one; removing it keeps the launcher honest.",
    rationale_zh="无效配置会掩盖真正的配置；删掉它能让启动脚本名副其实。",
    exceptions_en=(
        "A script shared between 1.5 and 2 code bases can pick the `three-gate` profile "
        "(`# packgate profile=three-gate`), where both encoding gates are live. Other names the "
        "workspace's code does not read are PG012 `unread-var`'s: this rule is its case where the "
        "profile knows the name was read once, and PG012 leaves these names to it."),
    exceptions_zh=(
        "在 1.5 与 2 之间共用的脚本可以选用 `three-gate` 配置（`# packgate profile=three-gate`），此时两个编码开关都有效。"
        "工作区代码不读取的其他名字归 PG012 `unread-var`：本规则是它在“配置知道该名字曾被读取过”时的情形，"
        "PG012 把这些名字留给本规则。"),
    bad=(
        "#!/bin/bash\nexport OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKING_BMR=1\n"
        "export OFFLINE_PACKED_DATA=1\n" + EXAMPLE_LAUNCH),
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
        + EXAMPLE_LAUNCH),
    messages={
        "dead": Text(
            "{name} is not read by the {profile} training code: setting it has no effect. Remove it",
            "{profile} 训练代码不读取 {name}：设置它没有任何作用。请删除"),
    },
    fixes={"remove": FixText(
        "Remove the {name} assignment", "删除对 {name} 的赋值",
        doc_en="Remove the assignment of the variable nothing reads: the whole "
               "`export OFFLINE_PACKING_VQA=1` line, or only that word of a `docker run -e` list, a "
               "prefix assignment or a declaration of several names",
        doc_zh="删除对没人读取的变量的赋值：整行 `export OFFLINE_PACKING_VQA=1`；若它在 `docker run -e`、"
               "前缀赋值或一次声明多个变量的语句中，只删除这一项",
        profile_bound=True)},
    tags=("unnecessary",),
)


def reports(ctx: Context, name: str) -> bool:
    """Whether this rule reports assignments of name: a gate the profile knows its code no
    longer reads (it was read once, by another version of the code). This is the case of PG012
    `unread-var` where the profile knows the name, so PG012 leaves these names to this rule."""
    return name in ctx.profile.dead


def check(ctx: Context) -> None:
    """Assignments of variables the profile's code never reads."""
    for a, val in ctx.flow.gate_sites:
        if not reports(ctx, a.name):
            continue
        profile = (ctx.profile.name, ctx.profile.name) if ctx.profile.name != "auto" else \
            ("project's", "本项目的")
        msg = ctx.message(RULE, "dead", name=a.name, profile=profile)
        fix = ctx.fix(RULE, "remove", [removal(ctx, a)], preferred=True, name=a.name)
        ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=[fix], site=a)
