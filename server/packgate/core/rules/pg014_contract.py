"""PG014 contract: a relation the code asserts, or the team declared, between variables and
options is broken at a launch."""

from __future__ import annotations

import os
import re

from ..code.relations import CONTRACT_RULE, Compare, Relation, Subject
from ..findings import Applicability, Edit
from ..parse import AssignMode
from .base import Context, value_edit
from .launch_relations import SWITCH_ACTIONS, Outcome, Words, absent_option, judge
from .rule import FixText, Rule, Text

_LAUNCH = "torchrun --nproc_per_node 8 aiak_training_llm/train.py --overlap-grad-reduce --micro-batch-size 1\n"

RULE = Rule(
    code=CONTRACT_RULE,
    name="contract",
    severity="error",
    summary_en="A relation the code asserts (or the team declared) between variables and options is broken",
    summary_zh="代码断言（或团队声明）的变量与选项之间的关系在启动时被违反",
    problem_en=(
        "The trainer checks some variables against its options once it has started: Megatron "
        "stops when `CUDA_DEVICE_MAX_CONNECTIONS` is 1 with `--use-torch-fsdp2`, or is not 1 with "
        "`--overlap-grad-reduce` outside FSDP; its language module refuses `NVTE_FLASH_ATTN=0` with "
        "`--attention-backend flash`; Transformer Engine wants `NVTE_APPLY_QK_LAYER_SCALING=1` with "
        "`--apply-query-key-layer-scaling`. Each of these stops the job, and only once every node "
        "has started."),
    problem_zh=(
        "训练进程启动后会拿一些环境变量和它的选项做比对：`--use-torch-fsdp2` 时 `CUDA_DEVICE_MAX_CONNECTIONS` "
        "为 1，或在 FSDP 之外用 `--overlap-grad-reduce` 时它不为 1，Megatron 都会终止；语言模块拒绝 "
        "`--attention-backend flash` 搭配 `NVTE_FLASH_ATTN=0`；`--apply-query-key-layer-scaling` 需要 "
        "`NVTE_APPLY_QK_LAYER_SCALING=1`。这些问题都会终止任务，而且要等所有节点都启动之后才暴露。"),
    rationale_en=(
        "packgate keeps these relations as a small table: the profile's own (the code they come "
        "from is named in each message; with the training code in the workspace, where it really "
        "reads the variable), and the team's, declared under `contract` in `[tool.packgate]`. At "
        "every launch, on every path, it compares what the launch is given with each relation. "
        "The packing gates and the micro-batch size are relations of the same table, reported by "
        "PG001 and PG003."),
    rationale_zh=(
        "packgate 把这些关系保存为一张小表：配置自带的（每条消息都写明出自哪段代码；工作区里有训练代码时，"
        "指向真正读取该变量的位置），以及团队在 `[tool.packgate]` 的 `contract` 下声明的。它在每个启动命令处、"
        "沿每条路径，把启动得到的变量和选项与每条关系比对。packing 开关与 micro-batch size 也是这张表里的关系，"
        "由 PG001 和 PG003 报告。"),
    exceptions_en=(
        "A variable the script never gives the launch may come from the environment it inherits "
        "(the caller's, a container image's): when the code's default breaks the relation, the "
        "finding is information; under `env -i`, or where a team's relation says `absent = \"unset\"`, "
        "absent is unset. A word or a "
        "value the script cannot know makes the relation unknown: no finding. With the training "
        "code in the workspace, a profile's relation is only checked where that code reads the "
        "variable; with no code and an assumed profile, its findings are information."),
    exceptions_zh=(
        "脚本没有交给启动命令的变量可能来自它继承的环境（调用方的、容器镜像的）：代码的默认值违反关系时只给出 "
        "information；在 `env -i` 下，或团队的关系写明 `absent = \"unset\"` 时，没有给出即为未设置。"
        "脚本无法确定的参数或取值让关系无法判断：不报告。工作区里有训练代码时，只有代码确实读取该变量，"
        "配置自带的关系才会检查；没有代码且配置是假定的时，其结论为 information。"),
    bad="#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\n" + _LAUNCH,
    good="#!/bin/bash\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n" + _LAUNCH,
    messages={
        "broken": Text(
            "{launch} breaks {relation}: {says}, but here {seen}{reason} ({at})",
            "{launch}违反了 {relation}：{says}，而此处{seen}{reason}（{at}）"),
        "caller": Text(
            "{launch} may break {relation}: {says}; the script does not give {var}, so unless the "
            "environment the launch inherits (the caller's, a container image's) sets it the code reads "
            "{default}{reason} ({at})",
            "{launch}可能违反 {relation}：{says}；脚本没有给出 {var}，除非启动命令继承的环境（调用方的、容器镜像的）"
            "设置了它，代码读到的是 {default}{reason}（{at}）"),
    },
    fixes={
        "set": FixText(
            "Set {name} to {value}", "把 {name} 设为 {value}",
            doc_en="Where the script sets the variable to another value, write the one the relation "
                   "requires: `export CUDA_DEVICE_MAX_CONNECTIONS=8` becomes "
                   "`export CUDA_DEVICE_MAX_CONNECTIONS=1`",
            doc_zh="脚本把变量设成了别的值时，改为关系要求的值：`export CUDA_DEVICE_MAX_CONNECTIONS=8` 改为 "
                   "`export CUDA_DEVICE_MAX_CONNECTIONS=1`"),
        "prefix": FixText(
            "Give the launch {name}={value}", "在启动命令前设置 {name}={value}",
            doc_en="Where the script does not give the variable at all, set it for the launch: "
                   "`torchrun ...` becomes `CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun ...`: an export "
                   "elsewhere may be what is meant",
            doc_zh="脚本完全没有给出该变量时，只为这次启动设置它：`torchrun ...` 改为 "
                   "`CUDA_DEVICE_MAX_CONNECTIONS=1 torchrun ...`：也许本意是在别处导出",
            applicability=Applicability.DISPLAY_ONLY),
    },
)

# compiled (and cached) by re when a fix first needs it
_BROKEN = Outcome.BROKEN  # (an enum's member read off its class is slow: flow/values.py says why)
_PREFIX_ONLY = rb"^(?:[A-Za-z_][A-Za-z0-9_]*=\S*[ \t]+)*$"


def check(ctx: Context) -> None:
    """Every relation of the profile and of the configuration that no other rule owns, at every
    launch and on every path."""
    own = [r for r in ctx.profile.relations if r.owner == RULE.code]
    declared = [r for r in ctx.declared if r.owner == RULE.code]
    if not own and not declared:
        return
    scope = _Scope(ctx)
    # (relation, from the profile, rests on an assumed profile); a profile's relation whose
    # variables the workspace's code does not read is not this code's: never judged
    relations = [(r, True, scope.guess(r)) for r in own] + [(r, False, False) for r in declared]
    relations = [x for x in relations if x[2] is not None]
    if not relations:
        return
    for launch in ctx.flow.launches:
        read: dict = {}  # id of a path's words -> (those words, Words): the paths to a launch share them
        for path in launch.paths:
            # judged on the words and values as recorded (an editor's walk may not have moved
            # their offsets yet: texts and kinds are all a judgement reads); a broken relation
            # is judged again at this version's offsets, which its finding points at
            exported = None  # (made for the first relation an absent option does not keep)
            words = None
            if not launch.implicit:
                # keyed by identity; the value keeps raw_args alive, so an id is never reused
                hit = read.get(id(path.raw_args))
                if hit is None:
                    hit = read[id(path.raw_args)] = (path.raw_args, Words(path.raw_args, scope.takes_value(launch, path)))
                words = hit[1]
            for relation, from_profile, guess in relations:
                if absent_option(relation, words) is not None:
                    continue  # kept: most relations name an option most launches never give
                if exported is None:
                    exported = path.exported(moved=False)
                judged = judge(relation, path, exported, words)
                if judged.outcome is not _BROKEN:
                    continue
                if path.pending is not None:
                    path.settle()
                    exported = path.exported()
                    words = None if launch.implicit else Words(path.args, scope.takes_value(launch, path))
                    judged = judge(relation, path, exported, words)
                if guess and judged.assumed:
                    continue  # a guess on a guess
                _report(ctx, scope, launch, path, relation, judged, from_profile,
                        "information" if guess or judged.assumed else None)


class _Scope:
    """What the workspace's code says of the profile's relations, asked once per analysis."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._index = False
        self._guess: dict = {}

    def index(self):
        if self._index is False:
            self._index = self.ctx.contract()
        return self._index

    def guess(self, relation: Relation):
        """None: the workspace's code does not read the relation's variables (not its relation);
        True: no code to look at and the profile was only assumed; else False."""
        if relation.name not in self._guess:
            index = self.index()
            if index is None:
                found = bool(self.ctx.profile.assumed_en)
            else:
                found = False if all(index.reads_of(n) for n in relation.variables()) else None
            self._guess[relation.name] = found
        return self._guess[relation.name]

    def at(self, relation: Relation) -> str:
        """Where the code asserts the relation: the workspace's read of its variable (in the
        file the table names, else anywhere, parsed the way the clause compares first), else the
        table's place (a team's relation without one: where it was declared)."""
        index = self.index() if relation.at and not relation.declared else None  # a team's `at` stands
        if index is not None:
            file = os.path.basename(relation.at.partition(":")[0])
            clauses = ((relation.then,) if relation.then is not None else ()) + relation.clauses
            for clause in clauses:
                if clause.subject is not Subject.VAR:
                    continue
                reads = [r for n in clause.names for r in index.reads_of(n)]
                if reads:
                    best = min(reads, key=lambda r: (os.path.basename(r.file) != file, _parse_distance(clause, r),
                                                     r.file, r.line))
                    rel = os.path.relpath(best.file, index.root).replace(os.sep, "/")
                    return f"{rel}:{best.line}"
        return relation.at or relation.declared

    def takes_value(self, launch, path):
        """takes_value(option) for the words of a launch: what its parser says of the option
        (None when it says nothing or no parser is known). Asked only for a word the script
        cannot know, so the index is opened only then."""
        found: dict = {}

        def takes(option: str):
            if "defs" not in found:
                found["defs"] = self._options(launch, path)
            opt = found["defs"].get(option)
            if opt is None:
                return None
            return not (opt.action in SWITCH_ACTIONS or opt.nargs == 0)
        return takes

    def _options(self, launch, path) -> dict:
        index = self.index()
        if index is None:
            return {}
        from ..code.entry import entry_of
        texts = [v.text if v.kind in ("known", "default") else None for v in path.args]
        entry = entry_of(launch.command, texts) if launch.command else None
        return {s: o for o in index.options_for(entry).options for s in o.strings}


def _parse_distance(clause, read) -> int:
    """0 when a read is parsed the way the clause compares (a `!=` read for a "must not" clause)."""
    parse = str(read.parse)
    family = "int" if clause.compare is Compare.INT else "str"
    score = 0 if parse.startswith(family) or (family == "int" and parse == "bool-int") else 2
    negated = read.negated or parse.endswith("-ne")
    return score + (0 if negated == (not clause.equal) else 1)


def _report(ctx: Context, scope: _Scope, launch, path, relation: Relation, judged, from_profile: bool,
            severity) -> None:
    looked = judged.looked
    reason = (f". {relation.reason_en}" if relation.reason_en else "",
              f"。{relation.reason_zh}" if relation.reason_zh else "")
    fields = dict(launch=ctx.launch_name(launch), relation=relation.name,
                  says=(relation.describe("en"), relation.describe("zh")), reason=reason, at=scope.at(relation))
    assumed = next((x for x in looked if x.assumed), None)
    if assumed is not None:
        default = assumed.clause.default
        fields.update(var=assumed.name, default=("no value (None)", "空值（None）") if default is None
                      else (repr(default),) * 2)
        msg = ctx.message(RULE, "caller", **fields)
    else:
        seen = [x.seen() for x in looked]
        english = [s[0] for s in seen]
        fields["seen"] = (", ".join(english[:-1]) + " and " + english[-1] if len(english) > 1 else english[0],
                          "，".join(s[1] for s in seen))
        msg = ctx.message(RULE, "broken", **fields)
    related = [ctx.launch_related(launch)]
    for x in looked:
        if x.site is not None and x.clause.subject is Subject.VAR:
            related.append(ctx.site_related(x.site, f"{x.name} is set here", f"{x.name} 在这里设置"))
        elif x.given and x.span is not None:
            related.append(ctx.related(x.span[0], x.span[1], f"{x.name} is given here", f"{x.name} 在这里传入"))
    anchor = _anchor(looked, launch)
    site = anchor if not isinstance(anchor, tuple) else None
    start, end = (site.name_start, site.name_end) if site is not None else anchor
    fixes = _fixes(ctx, launch, path, relation, judged, from_profile)
    ctx.emit(RULE, msg, start, end, fixes=fixes, related=related, site=site, severity=severity,
             dedupe=(relation.name, relation.declared, start, end), launch=launch)


def _anchor(looked, launch):
    """The assignment that breaks the relation, else the option word, else the launch."""
    failing = [x for x in looked if x.holds is False] or list(looked)
    for x in failing + list(looked):
        if x.clause.subject is Subject.VAR and x.site is not None:
            return x.site
    for x in failing + list(looked):
        if x.given and x.span is not None:
            return x.span
    return (launch.name_start, launch.name_end)


def _fixes(ctx: Context, launch, path, relation: Relation, judged, from_profile: bool) -> list:
    """Set each variable that must have a value and has another; give the launch one it lacks."""
    wanted = [x for x in judged.looked if x.holds is False and x.clause.subject is Subject.VAR and x.clause.equal]
    if relation.then is not None:
        wanted = [x for x in wanted if x.clause is relation.then]
    fixes = []
    for x in wanted:
        value = x.clause.value
        edit = _set_edit(ctx, x, value) if x.site is not None else _prefix_edit(ctx, launch, path, x.name, value)
        if edit is None:
            continue
        key = "set" if x.site is not None else "prefix"
        fixes.append(ctx.fix(RULE, key, [edit], preferred=not fixes, profile_bound=from_profile,
                             name=x.name, value=value))
    return fixes


def _set_edit(ctx: Context, x, value: str):
    """The assignment the launch sees, given the value (inside a `${X:-8}` default, the default:
    the caller's override stays); None for one in a sourced file or a `${X:=...}`."""
    a = x.site
    if a.file is not None or a.mode == AssignMode.PARAM_DEFAULT:
        return None
    if x.lit is not None:
        return Edit(x.lit[0], x.lit[1], value)
    return value_edit(a, value, ctx.source)


def _prefix_edit(ctx: Context, launch, path, name: str, value: str):
    """`NAME=value ` before the launch command, when nothing but assignments come before its name."""
    if launch.implicit or launch.label.endswith("(sourced)") or path.cleared or path.docker_at >= 0:
        return None
    data = ctx.source.data
    if launch.start > launch.name_start or not re.match(_PREFIX_ONLY, data[launch.start:launch.name_start]):
        return None
    return Edit(launch.name_start, launch.name_start, f"{name}={value} ")
