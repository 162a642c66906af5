"""The rule table: ids, names, severities and every user-facing text, in English and Chinese.

Logic lives in the check modules beside this one; this module is data only.
"""

from __future__ import annotations

from ..links import rule_url
from ..records import record


@record(frozen=True)
class Rule:
    """One rule: stable code, kebab-case name, default severity and its texts."""

    code: str
    name: str
    severity: str
    summary_en: str
    summary_zh: str
    problem_en: str
    problem_zh: str
    rationale_en: str
    rationale_zh: str
    exceptions_en: str
    exceptions_zh: str
    bad: str
    good: str
    messages: dict  # message id -> (english template, chinese template)
    fixes: dict  # fix id -> (english, chinese)
    tags: tuple = ()

    def summary(self, lang: str) -> str:
        """The one-line summary in a language (en, zh or both)."""
        return pick(lang, self.summary_en, self.summary_zh)

    @property
    def doc_url(self) -> str:
        """The web address of the rule's page (never a file of the installed package)."""
        return rule_url(self.code)


def pick(lang: str, en: str, zh: str) -> str:
    """One text in the requested language; `both` joins English and Chinese."""
    if lang == "zh":
        return zh
    if lang == "both":
        return f"{en} / {zh}"
    return en


_LAUNCH = """#!/bin/bash
torchrun --nproc_per_node 8 aiak_training_llm/train.py \\
    --micro-batch-size 1 --packing-buffer-size 100
"""

RULES: tuple = (
    Rule(
        code="PG001",
        name="missing-companion",
        severity="error",
        summary_en="Only one of the two packing gates is on at a launch",
        summary_zh="启动时两个 packing 开关只打开了一个",
        problem_en=(
            "Packing needs two switches that live in different layers of the training code. "
            "The encoding gate (`OFFLINE_PACKING_BMR` on OV2) makes the data layer encode each "
            "packed sub-sample and build real `cu_lengths`; the batch gate (`OFFLINE_PACKED_DATA`) "
            "makes `batch()` forward those `cu_lengths` to the model. With the encoding gate alone "
            "the model receives the dummy `[[0]]` and every sub-sample attends to the ones packed "
            "before it. With the batch gate alone the forwarded `cu_lengths` do not match the tokens "
            "(on current main every packed sample raises and is skipped). Neither failure stops "
            "training."),
        problem_zh=(
            "packing 需要两个位于训练代码不同层的开关。编码开关（OV2 上是 `OFFLINE_PACKING_BMR`）让数据层对每个"
            "子样本正确编码并构造真实的 `cu_lengths`；batch 开关（`OFFLINE_PACKED_DATA`）让 `batch()` 把这些 "
            "`cu_lengths` 传给模型。只开编码开关时模型拿到占位的 `[[0]]`，每个子样本都会看到排在它前面的子样本；"
            "只开 batch 开关时传过去的 `cu_lengths` 与 token 对不上（当前 main 上每个 packed 样本都会报错并被跳过）。"
            "两种情况训练都不会停下来。"),
        rationale_en=(
            "The combination is what matters, and it is decided by what the launch command inherits. "
            "packgate checks it at every launch (or at the end of a file that only sets variables), "
            "on every path through the script, and points at the gate that is on."),
        rationale_zh=(
            "关键在于组合，而组合取决于启动命令继承到的环境。packgate 在每个启动命令处（没有启动命令的文件则在文件末尾）、"
            "沿脚本的每条执行路径检查它，并指向已打开的那个开关。"),
        exceptions_en=(
            "With `--packing-sft-data` the batch layer forwards `cu_lengths` by itself, so the "
            "encoding gate alone is fine. A deliberate A/B control run (encoding gate only, to measure "
            "leakage) is silenced with `# packgate disable=missing-companion` before the export. "
            "When the companion was set but lost (not exported, exported in a background job or "
            "subshell), PG004 or PG006 reports the cause instead."),
        exceptions_zh=(
            "使用 `--packing-sft-data` 时 batch 层自己会传递 `cu_lengths`，此时只开编码开关是正确的。"
            "有意为之的 A/B 对照实验（只开编码开关以测量泄漏）请在 export 之前写 "
            "`# packgate disable=missing-companion` 来静默。若另一个开关设置了但丢失了（未导出、在后台任务或子 shell "
            "中导出），则由 PG004 或 PG006 报告根因。"),
        bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\n" + _LAUNCH.split("\n", 1)[1],
        good="#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\nexport OFFLINE_PACKED_DATA='1'\n"
             + _LAUNCH.split("\n", 1)[1],
        messages={
            "leak": (
                "{on} is {on_value} but {off} is {off_state} at {launch}: real "
                "cu_lengths are built and then dropped, so packed sub-samples attend to each other. "
                "Export {off}='1' as well, or turn {on} off",
                "{launch}启动时 {on} 为 {on_value}，但 {off} {off_state}：构造好的 cu_lengths "
                "被丢弃，packed 子样本之间会互相看到（跨样本注意力泄漏）。请同时导出 {off}='1'，或关闭 {on}"),
            "corrupt": (
                "{on} is {on_value} but {off} is {off_state} at {launch}: the forwarded "
                "cu_lengths do not match how the sub-samples were encoded. Export {off}='1' as well, "
                "or turn {on} off",
                "{launch}启动时 {on} 为 {on_value}，但 {off} {off_state}：传给模型的 cu_lengths "
                "与子样本的编码方式不一致。请同时导出 {off}='1'，或关闭 {on}"),
        },
        fixes={
            "insert": ("Export {off}={value} after {on}", "在 {on} 之后导出 {off}={value}"),
            "set": ("Set {off} to {value}", "把 {off} 设为 {value}"),
            "turn-off": ("Turn {on} off instead", "改为关闭 {on}"),
        },
    ),
    Rule(
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
            "(`# packgate profile=three-gate`), where both encoding gates are live."),
        exceptions_zh="在 1.5 与 2 之间共用的脚本可以选用 `three-gate` 配置（`# packgate profile=three-gate`），此时两个编码开关都有效。",
        bad="#!/bin/bash\nexport OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKING_BMR=1\n"
            "export OFFLINE_PACKED_DATA=1\n" + _LAUNCH.split("\n", 1)[1],
        good="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
             + _LAUNCH.split("\n", 1)[1],
        messages={
            "dead": (
                "{name} is not read by the {profile} training code: setting it has no effect. Remove it",
                "{profile} 训练代码不读取 {name}：设置它没有任何作用。请删除"),
        },
        fixes={"remove": ("Remove the {name} assignment", "删除对 {name} 的赋值")},
        tags=("unnecessary",),
    ),
    Rule(
        code="PG003",
        name="micro-batch-size",
        severity="error",
        summary_en="Packed training with a micro-batch size other than 1",
        summary_zh="packing 训练的 micro-batch size 不为 1",
        problem_en=(
            "When `cu_lengths` are real (`OFFLINE_PACKED_DATA` on, or `--packing-pretrain-data` "
            "passed), the pretrain step asserts `cu_lengths.shape[0] == 1`: with "
            "`--micro-batch-size` above 1 every step fails the assertion."),
        problem_zh=(
            "当 `cu_lengths` 为真实值（打开 `OFFLINE_PACKED_DATA`，或传了 `--packing-pretrain-data`）时，预训练步骤会断言 "
            "`cu_lengths.shape[0] == 1`：`--micro-batch-size` 大于 1 时每一步都会断言失败。"),
        rationale_en=(
            "The size usually comes from a variable with a positional default (`MBS=\"${4:-1}\"`). "
            "A default of 1 is fine even though the caller could override it; any other default is "
            "reported, and a value the script cannot know is reported as information."),
        rationale_zh=(
            "这个值通常来自带位置参数默认值的变量（`MBS=\"${4:-1}\"`）。默认值为 1 时即使调用方可以覆盖也算正确；"
            "其他默认值会被报告，脚本无法确定的值以 information 级别提示。"),
        exceptions_en="`--packing-sft-data` forces the micro-batch size to 1 by itself.",
        exceptions_zh="`--packing-sft-data` 会自行把 micro-batch size 设为 1。",
        bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
            "torchrun aiak_training_llm/train.py --micro-batch-size 4\n",
        good="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
             "torchrun aiak_training_llm/train.py --micro-batch-size 1\n",
        messages={
            "value": (
                "--micro-batch-size is {value} at {launch} while cu_lengths are real "
                "({why}): the pretrain step asserts a micro-batch size of 1. Set it to 1",
                "{launch}启动时 --micro-batch-size 为 {value}，而 cu_lengths 是真实的（{why}）："
                "预训练步骤要求 micro-batch size 为 1。请设为 1"),
            "default": (
                "--micro-batch-size defaults to {value} (unless {via} is given) at {launch} "
                "while cu_lengths are real ({why}): the pretrain step asserts 1. Make the default 1",
                "{launch}启动时 --micro-batch-size 默认为 {value}（除非传入 {via}），而 cu_lengths "
                "是真实的（{why}）：预训练步骤要求为 1。请把默认值改为 1"),
            "unknown": (
                "--micro-batch-size comes from {via} at {launch}, which the script cannot "
                "know; with packing on ({why}) it must be 1",
                "{launch}启动时 --micro-batch-size 来自 {via}，脚本无法确定其值；"
                "packing 打开时（{why}）它必须为 1"),
        },
        fixes={"one": ("Set the micro-batch size to 1", "把 micro-batch size 设为 1")},
    ),
    Rule(
        code="PG004",
        name="not-exported",
        severity="error",
        summary_en="A gate is assigned but never exported, so the trainer does not see it",
        summary_zh="开关被赋值但从未导出，训练进程看不到它",
        problem_en=(
            "`OFFLINE_PACKED_DATA=1` on its own line sets a shell variable. The trainer reads "
            "`os.environ`, which only holds exported variables, so it sees the default 0."),
        problem_zh="单独一行的 `OFFLINE_PACKED_DATA=1` 只设置了 shell 变量。训练进程读取的是 `os.environ`，其中只有导出过的变量，所以它看到的是默认值 0。",
        rationale_en="Use `export`, `declare -x`, a later `export NAME`, or `set -a` before the assignment.",
        rationale_zh="请使用 `export`、`declare -x`、之后再 `export NAME`，或在赋值前 `set -a`。",
        exceptions_en="A prefix assignment (`NAME=1 torchrun ...`) is exported to that command and is fine.",
        exceptions_zh="前缀赋值（`NAME=1 torchrun ...`）会导出给该命令，是正确的。",
        bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n" + _LAUNCH.split("\n", 1)[1],
        good="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
             + _LAUNCH.split("\n", 1)[1],
        messages={
            "plain": (
                "{name}={value} is assigned but never exported before {launch}: the "
                "trainer sees it unset. Add export",
                "{name}={value} 只赋值、在 {launch}之前从未导出：训练进程看到的是未设置。请加上 export"),
        },
        fixes={"export": ("Export {name}", "导出 {name}")},
    ),
    Rule(
        code="PG005",
        name="invalid-value",
        severity="error",
        summary_en="A gate's value makes Python's int() raise",
        summary_zh="开关的值会让 Python 的 int() 抛出异常",
        problem_en=(
            "The gates are read with `int(os.environ.get(NAME, 0)) == 1`. `true`, `yes`, `on`, "
            "`1.0`, `0x1` and the empty string raise `ValueError` inside the dataloader: samples or "
            "batches are skipped with one log line each, and training goes on."),
        problem_zh=(
            "开关通过 `int(os.environ.get(NAME, 0)) == 1` 读取。`true`、`yes`、`on`、`1.0`、`0x1` 以及空字符串"
            "会在 dataloader 中引发 `ValueError`：样本或 batch 被逐个跳过并各打一行日志，训练照常进行。"),
        rationale_en="Use exactly `1` (on) or `0` (off). Quotes are fine: bash removes them.",
        rationale_zh="请只用 `1`（开）或 `0`（关）。引号没有关系，bash 会去掉它们。",
        exceptions_en="None: a value int() rejects is never what was meant.",
        exceptions_zh="没有例外：int() 拒绝的值从来不是本意。",
        bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\n"
            + _LAUNCH.split("\n", 1)[1],
        good="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
             + _LAUNCH.split("\n", 1)[1],
        messages={
            "value": (
                "{name}={shown} makes int() raise ValueError in the training code ({where}); use 1 or 0",
                "{name}={shown} 会让训练代码中的 int() 抛出 ValueError（{where}）；请使用 1 或 0"),
            "level": (
                "{name}={shown} makes int() raise ValueError in the training code ({where}); use an "
                "integer level",
                "{name}={shown} 会让训练代码中的 int() 抛出 ValueError（{where}）；请使用整数级别"),
            "string": (
                "{name}={shown} is compared with the string \"1\": only 1 turns it on; use 1 or 0",
                "{name}={shown} 是与字符串 \"1\" 比较的：只有 1 才算打开；请使用 1 或 0"),
        },
        fixes={"value": ("Set {name} to {value}", "把 {name} 设为 {value}")},
    ),
    Rule(
        code="PG006",
        name="lost-export",
        severity="error",
        summary_en="A gate is exported where the launch cannot see it",
        summary_zh="开关在启动命令看不到的地方导出",
        problem_en=(
            "An export inside `( ... )`, `$( ... )`, a pipeline stage or a background job (`cmd &`) "
            "changes a child process and vanishes with it. The setup line "
            "`export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'` runs the first export "
            "in the background, so the launch never sees `OFFLINE_PACKED_DATA`."),
        problem_zh=(
            "在 `( ... )`、`$( ... )`、管道的某一段或后台任务（`cmd &`）中的 export 只改变子进程，随子进程一起消失。"
            "`export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'` 这一行会在后台执行第一个 export，"
            "所以启动命令永远看不到 `OFFLINE_PACKED_DATA`。"),
        rationale_en="Run the export as a plain statement of the launching shell (`;` or a new line, not `&`).",
        rationale_zh="请把 export 作为启动 shell 的普通语句执行（用 `;` 或换行，而不是 `&`）。",
        exceptions_en="An export followed by the launch inside the same subshell is fine.",
        exceptions_zh="在同一个子 shell 中先 export 再启动是正确的。",
        bad="#!/bin/bash\nexport OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'\n"
            + _LAUNCH.split("\n", 1)[1],
        good="#!/bin/bash\nexport OFFLINE_PACKED_DATA='1'\nexport OFFLINE_PACKING_BMR='1'\n"
             + _LAUNCH.split("\n", 1)[1],
        messages={
            "background": (
                "export {name} runs in a background job (the '&'), so it never reaches {launch}; "
                "use ';' or a new line",
                "export {name} 在后台任务中执行（因为 '&'），永远到不了 {launch}；请改用 ';' 或换行"),
            "subshell": (
                "export {name} happens inside a subshell and is gone before {launch}; export it in the "
                "launching shell",
                "export {name} 发生在子 shell 中，到 {launch} 时已经不存在；请在启动 shell 中导出"),
            "pipeline": (
                "export {name} runs in a pipeline stage (its own subshell) and is gone before {launch}",
                "export {name} 在管道的一段（独立的子 shell）中执行，到 {launch} 时已经不存在"),
            "cmdsubst": (
                "export {name} runs inside a command substitution and is gone before {launch}",
                "export {name} 在命令替换中执行，到 {launch} 时已经不存在"),
            "child": (
                "export {name} runs in a child shell (bash -c / a container) with no launch after it",
                "export {name} 在子 shell（bash -c / 容器）中执行，之后没有启动命令"),
        },
        fixes={
            "split": ("Run the export in the launching shell", "在启动 shell 中执行该 export"),
        },
    ),
    Rule(
        code="PG007",
        name="path-dependent",
        severity="warning",
        summary_en="Different paths reach the launch with different gate combinations, one of them wrong",
        summary_zh="不同执行路径到达启动命令时开关组合不同，且其中有错误组合",
        problem_en=(
            "An `if`, `case`, `&&` or `||` sets the gates on some paths only. Whether packing is "
            "correct then depends on arguments or the environment at run time."),
        problem_zh="`if`、`case`、`&&` 或 `||` 只在部分路径上设置了开关。packing 是否正确就取决于运行时的参数或环境。",
        rationale_en="Set both gates together in every branch, or both outside the branch.",
        rationale_zh="请在每个分支里同时设置两个开关，或都放到分支之外。",
        exceptions_en="A stage switch that turns packing fully on or fully off in each branch is fine.",
        exceptions_zh="在每个分支中把 packing 完整打开或完整关闭的阶段开关是正确的。",
        bad=("#!/bin/bash\nif [ \"$STAGE\" = 2 ]; then\n  export OFFLINE_PACKING_BMR=1\n"
             "  export OFFLINE_PACKED_DATA=1\nelse\n  export OFFLINE_PACKING_BMR=1\nfi\n"
             + _LAUNCH.split("\n", 1)[1]),
        good=("#!/bin/bash\nif [ \"$STAGE\" = 2 ]; then\n  export OFFLINE_PACKING_BMR=1\n"
              "  export OFFLINE_PACKED_DATA=1\nelse\n  export OFFLINE_PACKING_BMR=0\n"
              "  export OFFLINE_PACKED_DATA=0\nfi\n" + _LAUNCH.split("\n", 1)[1]),
        messages={
            "paths": (
                "{launch} sees different packing gates depending on the path: {paths}",
                "{launch}看到的 packing 开关取决于执行路径：{paths}"),
        },
        fixes={},
    ),
    Rule(
        code="PG008",
        name="overridden",
        severity="information",
        summary_en="A gate assignment is overwritten before any launch reads it",
        summary_zh="开关的赋值在被任何启动命令读取之前就被覆盖",
        problem_en=(
            "The last assignment before the launch wins; an earlier one that nothing reads is "
            "misleading, especially when the two disagree."),
        problem_zh="启动之前最后一次赋值才生效；更早的、没有被任何命令读到的赋值会误导读者，尤其是两者不一致时。",
        rationale_en="Keep one assignment per gate, next to its companion.",
        rationale_zh="每个开关只保留一次赋值，并与另一个开关放在一起。",
        exceptions_en="Exporting the same value twice in a row is harmless; it is reported as information only.",
        exceptions_zh="连续两次导出相同的值没有危害；只作为 information 提示。",
        bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR=0\nexport OFFLINE_PACKING_BMR=1\n"
            "export OFFLINE_PACKED_DATA=1\n" + _LAUNCH.split("\n", 1)[1],
        good="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
             + _LAUNCH.split("\n", 1)[1],
        messages={
            "overwritten": (
                "{name}={value} is overwritten on line {by_line} before any launch reads it",
                "{name}={value} 在被任何启动命令读取之前就在第 {by_line} 行被覆盖"),
            "unset": (
                "{name}={value} is unset on line {by_line} before any launch reads it",
                "{name}={value} 在被任何启动命令读取之前就在第 {by_line} 行被 unset"),
        },
        fixes={"remove": ("Remove the overwritten assignment", "删除被覆盖的赋值")},
    ),
)

RULES = RULES + (
    Rule(
        code="PG009",
        name="unfollowed-source",
        severity="information",
        summary_en="A sourced file could not be followed, so its exports are not checked",
        summary_zh="无法跟踪被 source 的文件，其中的导出没有被检查",
        problem_en=(
            "Training scripts often keep their environment in a file they `source`. packgate "
            "follows static paths, paths relative to the script (`$(dirname \"$0\")`, "
            "`${BASH_SOURCE[0]}`, a `SCRIPT_DIR` variable) and `# packgate source=PATH`. When it "
            "cannot tell which file is meant, or the file is refused (outside the project, not a "
            "regular file, too large, a cycle), the exports in it are invisible to the checks."),
        problem_zh=(
            "训练脚本常把环境变量放在一个被 `source` 的文件里。packgate 会跟踪静态路径、相对脚本的路径"
            "（`$(dirname \"$0\")`、`${BASH_SOURCE[0]}`、`SCRIPT_DIR` 变量）以及 `# packgate source=PATH`。"
            "如果无法确定是哪个文件，或者文件被拒绝（在项目之外、不是普通文件、过大、循环 source），"
            "其中的导出就不会被检查。"),
        rationale_en="Point packgate at the file with `# packgate source=relative/path.sh` on the line before.",
        rationale_zh="在前一行写 `# packgate source=相对路径.sh`，告诉 packgate 是哪个文件。",
        exceptions_en="Sources of files that set no packing variables can be silenced with `# packgate disable=PG009`.",
        exceptions_zh="被 source 的文件不涉及 packing 变量时，可以用 `# packgate disable=PG009` 静默。",
        bad="#!/bin/bash\nsource \"$ENV_FILE\"\ntorchrun aiak_training_llm/train.py --micro-batch-size 1\n",
        good="#!/bin/bash\n# packgate source=env/packing.sh\nsource \"$ENV_FILE\"\n"
             "torchrun aiak_training_llm/train.py --micro-batch-size 1\n",
        messages={
            "dynamic": ("cannot tell which file this sources (it depends on {detail}); add "
                        "`# packgate source=PATH` on the line before",
                        "无法确定这里 source 的是哪个文件（取决于 {detail}）；请在前一行加上 `# packgate source=PATH`"),
            "relative": ("cannot follow the relative path {detail} of a script that has no file name",
                         "脚本没有文件名，无法跟踪相对路径 {detail}"),
            "no-loader": ("sourced files are not followed here ({detail})",
                          "此处不跟踪被 source 的文件（{detail}）"),
            "cycle": ("source cycle not followed: {detail}", "检测到循环 source，未跟踪：{detail}"),
            "depth": ("sources nested too deeply, not followed: {detail}", "source 嵌套过深，未跟踪：{detail}"),
            "refused": ("sourced file not read: {detail}", "未读取被 source 的文件：{detail}"),
        },
        fixes={},
    ),
)

BY_KEY: dict = {}
for _r in RULES:
    BY_KEY[_r.code.lower()] = _r
    BY_KEY[_r.name.lower()] = _r


def rule_by_key(key: str):
    """A rule by code or name (case-insensitive), or None."""
    return BY_KEY.get(key.strip().lower())


def rule_list() -> str:
    """Every rule as `PG001 (missing-companion), ...`: what messages about an unknown rule offer."""
    return ", ".join(f"{r.code} ({r.name})" for r in RULES)


DISABLE_TEXT = {
    "command": ("Disable {code} for this command", "对此命令禁用 {code}"),
    "file": ("Disable {code} for this file", "对整个文件禁用 {code}"),
}
