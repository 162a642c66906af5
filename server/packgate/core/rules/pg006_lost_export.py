"""PG006 lost-export: a gate exported in a child process the launch never sees."""

from __future__ import annotations

from ..findings import Applicability, Edit
from ..flow.facts import ValKind
from ..parse import Assign, ExportNames, SubKind
from .base import Context, site_value
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

RULE = Rule(
    code="PG006",
    name="lost-export",
    severity="error",
    summary_en="A gate is exported where the launch cannot see it",
    summary_zh="开关在启动命令看不到的地方导出",
    problem_en=(
        "An export inside `( ... )`, `$( ... )`, a pipeline stage or a background job (`cmd &`) "
        "changes a child process and vanishes with it. The setup line "
        "`export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'` runs the first export "
        "in the background, so the launch never sees `OFFLINE_PACKED_DATA`. An export is lost the same way where a "
        "wrapper's own rules keep it from the trainer: `sudo` (sudoers' default `env_reset` gives "
        "the command a fresh environment: of this shell's variables only TERM and PATH, with "
        "HOME, MAIL, SHELL, LOGNAME, USER and SUDO_* set for the target user), `srun --export=NONE` or a list without the gate, "
        "`mpirun` ranks on other hosts (only `-x NAME` travels), and `deepspeed` on several nodes "
        "(only the names of its forwarded prefixes, NCCL, PYTHON, UCX..., and the lines of "
        "`.deepspeed_env` reach the other nodes' ranks). Where what decides it cannot be read (a "
        "hostfile's hosts, a `.deepspeed_env` in a folder packgate cannot locate) the finding is "
        "information; a site's sudoers `env_keep` could keep a gate, which packgate cannot see."),
    problem_zh=(
        "在 `( ... )`、`$( ... )`、管道的某一段或后台任务（`cmd &`）中的 export 只改变子进程，随子进程一起消失。"
        "`export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'` 这一行会在后台执行第一个 export，"
        "所以启动命令永远看不到 `OFFLINE_PACKED_DATA`。包装命令按自身规则挡住导出时也一样："
        "`sudo`（sudoers 默认的 `env_reset` 给命令一个全新的环境：本 shell 的变量只保留 TERM 和 PATH，"
        "HOME、MAIL、SHELL、LOGNAME、USER 和 SUDO_* 按目标用户设置）、`srun --export=NONE` 或不含该开关的列表、"
        "`mpirun` 在其他主机上的进程（只有 `-x NAME` 会传过去）、多节点的 `deepspeed`（其他节点的进程只拿到"
        "转发前缀 NCCL、PYTHON、UCX 等开头的变量和 `.deepspeed_env` 中的行）。决定这一点的内容无法读取时"
        "（主机文件中的主机、packgate 无法定位的 `.deepspeed_env`），结论为 information；站点 sudoers 的 "
        "`env_keep` 可能保留某个开关，packgate 无法看到。"),
    rationale_en="Run the export as a plain statement of the launching shell (`;` or a new line, not "
                 "`&`); through a wrapper, pass the gates on its own terms (`sudo --preserve-env=...`, "
                 "`srun --export=ALL` or the names, `mpirun -x NAME`, `.deepspeed_env`).",
    rationale_zh="请把 export 作为启动 shell 的普通语句执行（用 `;` 或换行，而不是 `&`）；经过包装命令时，"
                 "按它的方式传递开关（`sudo --preserve-env=...`、`srun --export=ALL` 或列出变量名、"
                 "`mpirun -x NAME`、`.deepspeed_env`）。",
    exceptions_en="An export followed by the launch inside the same subshell is fine.",
    exceptions_zh="在同一个子 shell 中先 export 再启动是正确的。",
    bad=(
        "#!/bin/bash\nexport OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'\n"
        + EXAMPLE_LAUNCH),
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKED_DATA='1'\nexport OFFLINE_PACKING_BMR='1'\n"
        + EXAMPLE_LAUNCH),
    messages={
        "background": Text(
            "export {name} runs in a background job (the '&'), so it never reaches {launch}; "
            "use ';' or a new line",
            "export {name} 在后台任务中执行（因为 '&'），永远到不了 {launch}；请改用 ';' 或换行"),
        "subshell": Text(
            "export {name} happens inside a subshell and is gone before {launch}; export it in the "
            "launching shell",
            "export {name} 发生在子 shell 中，到 {launch} 时已经不存在；请在启动 shell 中导出"),
        "pipeline": Text(
            "export {name} runs in a pipeline stage (its own subshell) and is gone before {launch}",
            "export {name} 在管道的一段（独立的子 shell）中执行，到 {launch} 时已经不存在"),
        "cmdsubst": Text(
            "export {name} runs inside a command substitution and is gone before {launch}",
            "export {name} 在命令替换中执行，到 {launch} 时已经不存在"),
        "child": Text(
            "export {name} runs in a child shell (bash -c / a container) with no launch after it",
            "export {name} 在子 shell（bash -c / 容器）中执行，之后没有启动命令"),
        # a wrapper's own rules keep an export from the launch (launch paths' Seen.dropped)
        "sudo": Text(
            "{name} is exported, but sudo gives {launch} a fresh environment (sudoers' default "
            "env_reset), so the trainer does not see it; use sudo --preserve-env={names} (a site's "
            "env_keep could keep it, which packgate cannot see)",
            "{name} 已导出，但 sudo 给 {launch} 一个全新的环境（sudoers 默认的 env_reset），训练进程看不到它；"
            "请使用 sudo --preserve-env={names}（站点的 env_keep 配置可能保留它，packgate 无法看到）"),
        "srun": Text(
            "{name} is exported, but srun's {option} does not pass it to the tasks of {launch}; "
            "add {names} to the list (or start it with ALL)",
            "{name} 已导出，但 srun 的 {option} 没有把它传给 {launch} 的任务；请把 {names} 加入列表（或以 ALL 开头）"),
        "srun-none": Text(
            "{name} is exported, but srun --export=NONE passes none of this shell's variables to "
            "the tasks of {launch}; name the gates instead: --export={names}",
            "{name} 已导出，但 srun --export=NONE 不把本 shell 的任何变量传给 {launch} 的任务；"
            "请改为列出开关：--export={names}"),
        "mpirun": Text(
            "{name} is exported, but mpirun gives the ranks of {launch} on other hosts only its -x "
            "names, so their data loaders do not see it; add -x {name}",
            "{name} 已导出，但 mpirun 只把 -x 指定的变量传给 {launch} 在其他主机上的进程，"
            "它们的 dataloader 看不到它；请加上 -x {name}"),
        "mpirun-maybe": Text(
            "mpirun reads its hosts from a file packgate does not read: if it names other hosts, "
            "their ranks of {launch} get only the -x names, and {name} is not one (add -x {name})",
            "mpirun 从 packgate 不读取的文件中获取主机：如果其中有其他主机，{launch} 在那里的进程只拿到 -x "
            "指定的变量，而 {name} 不在其中（可加上 -x {name}）"),
        "deepspeed": Text(
            "{name} is exported, but on several nodes deepspeed starts the ranks of {launch} with "
            "only the names of its forwarded prefixes (NCCL, PYTHON, UCX...) and the lines of "
            "{file}, so the other nodes pack differently; list {pairs} in {file}",
            "{name} 已导出，但在多节点上 deepspeed 启动 {launch} 的进程时只转发特定前缀（NCCL、PYTHON、UCX 等）"
            "的变量和 {file} 中的行，其他节点的 packing 方式不同；请在 {file} 中写入 {pairs}"),
        "deepspeed-maybe": Text(
            "deepspeed may start the ranks of {launch} on other nodes ({why}): there they get only "
            "the names of its forwarded prefixes and the lines of .deepspeed_env, and {name} is not "
            "one unless that file lists it",
            "deepspeed 可能在其他节点上启动 {launch} 的进程（{why}）：那里只转发特定前缀的变量和 .deepspeed_env "
            "中的行，除非该文件列出 {name}，否则它传不过去"),
    },
    fixes={
        "preserve": FixText(
            "Keep {names} through sudo", "让 {names} 穿过 sudo",
            doc_en="Where sudo's env_reset drops the gates: `sudo --preserve-env=OFFLINE_PACKING_BMR,"
                   "OFFLINE_PACKED_DATA torchrun ...` keeps them for the command",
            doc_zh="sudo 的 env_reset 丢掉开关时：`sudo --preserve-env=OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA "
                   "torchrun ...` 为该命令保留它们"),
        "export-list": FixText(
            "Add {names} to srun's --export", "把 {names} 加入 srun 的 --export",
            doc_en="Where srun's `--export` list leaves a gate out: the gate's name is added to the list",
            doc_zh="srun 的 `--export` 列表漏掉某个开关时：把开关名加入列表"),
        "send": FixText(
            "Send {name} to the other hosts with -x", "用 -x 把 {name} 传给其他主机",
            doc_en="Where mpirun starts ranks on other hosts: `-x OFFLINE_PACKED_DATA` after `mpirun` "
                   "sends this shell's value there",
            doc_zh="mpirun 在其他主机上启动进程时：在 `mpirun` 之后加上 `-x OFFLINE_PACKED_DATA`，把本 shell 的值传过去"),
        "env-file": FixText(
            "List {pairs} in .deepspeed_env", "在 .deepspeed_env 中写入 {pairs}",
            doc_en="Where deepspeed starts ranks on several nodes and the script changes folder "
                   "nowhere: the gates' `NAME=value` lines (`OFFLINE_PACKING_BMR=1`) go into the "
                   "`.deepspeed_env` beside the script, a new file or the end of the one there (in "
                   "its line endings; a name it already lists is left alone). Unsafe: the file is "
                   "not the script, and every deepspeed run started from that folder reads it, so "
                   "the launchers beside this one get the gates too (in the editor it is never the "
                   "preferred action). No fix where a gate's value is not known or is not a plain word",
            doc_zh="deepspeed 在多个节点上启动进程且脚本从不切换目录时：把开关的 `NAME=value` 行"
                   "（`OFFLINE_PACKING_BMR=1`）写入脚本旁边的 `.deepspeed_env`：新建该文件，或追加到已有文件末尾"
                   "（沿用它的换行符；已列出的变量名不再重复）。不安全：该文件不是脚本本身，从该目录启动的每次 deepspeed "
                   "运行都会读取它，同目录的其他启动脚本也会拿到这些开关（编辑器中从不作为首选操作）。"
                   "开关的值未知或不是普通单词时不提供修复",
            applicability=Applicability.UNSAFE),
        "split": FixText(
            "Run the export in the launching shell", "在启动 shell 中执行该 export",
            doc_en="Run the export in the launching shell: the `&` after it becomes a new line, "
                   "or the `( ... )` around a group of plain exports is removed",
            doc_zh="让 export 在启动 shell 中执行：把其后的 `&` 换成换行，或去掉只包含 export 的 `( ... )`",
            profile_bound=True),
    },
)


def check(ctx: Context) -> None:
    """Gate exports made in a child process that the launch never sees, and those a wrapper's
    own rules keep from it (check_dropped)."""
    check_dropped(ctx)
    for a, sub in ctx.flow.lost:
        # the launch the export misses: the first one after it
        at = ctx.flow.sourced_at.get(a, (a.start, a.end))[0] if a.file else a.start
        later = [l for l in ctx.flow.launches if l.start > at]
        launch = later[0] if later else (ctx.flow.launches[0] if ctx.flow.launches else None)
        if a.name not in ctx.live and a.name not in ctx.profile.dead:
            continue
        if a.name in ctx.profile.dead:
            continue  # PG002 already says it does nothing
        name = ctx.launch_name(launch) if launch is not None else ("the launch", "启动命令")
        msg = ctx.message(RULE, sub.kind, name=a.name, launch=name)
        fixes = []
        edits = _split(ctx, sub)
        if edits:
            fixes.append(ctx.fix(RULE, "split", edits, preferred=True))
        related = [ctx.launch_related(launch)] if launch is not None else []
        ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=fixes, related=related, site=a)


# the causes (environ.Cause's text) a message has a text for when the drop only may happen
_MAYBE = {"mpirun": "mpirun-maybe", "deepspeed": "deepspeed-maybe"}


def check_dropped(ctx: Context) -> None:
    """Gates a wrapper's own rules keep from a launch: sudo's env_reset, srun's --export list,
    the ranks mpirun or deepspeed start on other nodes (certain: an error; where it depends on
    what packgate cannot read, a hostfile or an unlocatable .deepspeed_env: information)."""
    for launch in ctx.flow.launches:
        offered: set = set()
        for path in launch.paths:
            drops = [(name, path.gates[name].dropped) for name in ctx.live
                     if path.gates[name].dropped is not None and path.gates[name].dropped.assign is not None]
            if drops:
                _report_dropped(ctx, launch, path, drops, offered)


def _report_dropped(ctx: Context, launch, path, drops: list, offered: set) -> None:
    names = ",".join(name for name, d in drops if d.certain)
    for name, d in drops:
        key = d.cause if d.certain else _MAYBE.get(d.cause)
        if key is None:
            continue
        a = d.assign
        fields = dict(name=name, launch=ctx.launch_name(launch), names=names or name)
        if d.cause == "srun":
            option = ctx.source.data[d.start:d.end].decode("utf-8", "replace")
            fields["option"] = option
            if option.endswith("NONE"):
                key = "srun-none"
        elif d.cause == "deepspeed":
            fields.update(file=_env_file(ctx), why=_why(ctx, launch, d), pairs=_pairs(ctx, path, drops))
        fixes = []
        if d.certain and (launch.start, d.cause) not in offered:
            offered.add((launch.start, d.cause))
            fixes = _env_file_fixes(ctx) if d.cause == "deepspeed" else _wrapper_fixes(ctx, d, names, name)
        severity = None if d.certain else "information"
        ctx.emit(RULE, ctx.message(RULE, key, **fields), a.name_start, a.name_end, fixes=fixes,
                 related=[ctx.launch_related(launch)], launch=launch, site=a, severity=severity,
                 dedupe=(a.name_start, a.name_end, key, launch.start))


def _wrapper_fixes(ctx: Context, d, names: str, name: str) -> list:
    data = ctx.source.data
    if d.cause == "sudo":
        return [ctx.fix(RULE, "preserve", [Edit(d.end, d.end, f" --preserve-env={names}")], preferred=True,
                        names=names)]
    if d.cause == "srun" and d.end > d.start and data[d.end - 1:d.end] not in (b"'", b'"', b"}"):
        if data[d.start:d.end].endswith(b"NONE"):  # NONE takes no names: the list replaces it
            return [ctx.fix(RULE, "export-list", [Edit(d.end - 4, d.end, names)], preferred=True, names=names)]
        return [ctx.fix(RULE, "export-list", [Edit(d.end, d.end, "," + names)], preferred=True, names=names)]
    if d.cause == "mpirun":
        sends = "".join(f" -x {n}" for n in names.split(","))
        return [ctx.fix(RULE, "send", [Edit(d.end, d.end, sends)], preferred=True, name=names)]
    return []


def _env_file_fixes(ctx: Context) -> list:
    """The fix that lists every gate deepspeed keeps from the other nodes in the
    .deepspeed_env beside the script (one file for every launch of it: one fix, the same edit
    under each launch's first finding); none where a value is unknown or two launches differ."""
    if "deepspeed-env" not in ctx.cache:
        ctx.cache["deepspeed-env"] = _env_file_fix(ctx)
    fix = ctx.cache["deepspeed-env"]
    return [fix] if fix is not None else []


def _env_file_fix(ctx: Context):
    import os
    from ..deepspeed_env import env_file_edit
    values: dict = {}
    for launch in ctx.flow.launches:
        for path in launch.paths:
            for name in ctx.live:
                d = path.gates[name].dropped
                if d is None or d.assign is None or d.cause != "deepspeed" or not d.certain:
                    continue
                val = site_value(ctx, d.assign)
                if val.kind != ValKind.KNOWN or values.setdefault(name, val.text) != val.text:
                    return None  # a value the path does not know, or two: nothing to write
    if not values or not ctx.path:
        return None
    edit = env_file_edit(os.path.dirname(ctx.path), list(values.items()))
    if edit is None:
        return None
    pairs = " ".join(f"{n}={v}" for n, v in values.items())
    return ctx.fix(RULE, "env-file", [edit], pairs=pairs)


def _env_file(ctx: Context) -> tuple:
    """Where deepspeed reads .deepspeed_env: the working folder, the script's (the walk located
    it there: the script changes folder nowhere)."""
    return (".deepspeed_env beside the script", "脚本旁边的 .deepspeed_env")


def _why(ctx: Context, launch, d) -> tuple:
    """Why the nodes deepspeed starts are not known here: its hostfile, or its working folder."""
    words = ctx.source.data[launch.name_end:launch.end].split()
    if any(w in (b"--hostfile", b"-H") or w.startswith(b"--hostfile=") for w in words):
        return ("its hostfile's hosts are not read here", "其主机文件中的主机在此不读取")
    return ("the script changes folder, so where .deepspeed_env would be is not known here",
            "脚本切换了目录，无法得知 .deepspeed_env 会在哪里")


def _pairs(ctx: Context, path, drops: list) -> str:
    out = []
    for name, d in drops:
        site = next((g for g in ctx.flow.gate_sites if g.assign is d.assign), None)
        known = site is not None and site.val.kind == ValKind.KNOWN
        out.append(f"{name}={site.val.text if known else '1'}")
    return " ".join(out)


def _split(ctx: Context, sub) -> list:
    data = ctx.source.data
    if sub.kind == SubKind.BACKGROUND and sub.amp_end:
        stop = sub.amp_end
        while stop < len(data) and data[stop] in b" \t":
            stop += 1
        begin = sub.amp_start
        while begin > 0 and data[begin - 1] in b" \t":
            begin -= 1
        line_end = ctx.source.line_end(ctx.source.line_of(stop))
        rest = data[stop:line_end].strip()
        if not rest or rest.startswith(b"#"):
            return [Edit(begin, sub.amp_end, "")]
        return [Edit(begin, stop, ctx.source.eol + ctx.source.indentation(sub.start))]
    if sub.kind == SubKind.SUBSHELL and sub.body is not None and sub.body.body:
        inner = sub.body.body
        if all(isinstance(s, (Assign, ExportNames)) for s in inner):
            first = min(s.start if not isinstance(s, Assign) else s.decl_start for s in inner)
            last = max(s.end if not isinstance(s, Assign) else s.decl_end for s in inner)
            return [Edit(sub.start, first, ""), Edit(last, sub.end, "")]
    return []
