"""PG002 dead-var, PG004 not-exported, PG006 lost-export, PG008 overridden: where values go."""

from __future__ import annotations

from ..fixes import insert_statement_after, remove_statement, remove_word
from ..model import Edit, Related
from ..parse import Assign, ExportNames
from .base import Context, shown
from .table import pick


def _removal(ctx: Context, a: Assign) -> Edit:
    if a.mode in ("prefix", "env"):
        return remove_word(ctx.source, a.start, a.end)
    if a.mode == "docker":
        # `-e NAME=1` (two words) or `-eNAME=1` / `--env=NAME=1`
        data = ctx.source.data
        begin = a.start
        j = begin - 1
        while j > 0 and data[j] in b" \t":
            j -= 1
        flag_end = j + 1
        k = flag_end
        while k > 0 and data[k - 1] not in b" \t\n":
            k -= 1
        if data[k:flag_end] in (b"-e", b"--env"):
            return remove_word(ctx.source, k, a.end)
        return remove_word(ctx.source, begin, a.end)
    if a.decl_items > 1:
        return remove_word(ctx.source, a.start, a.end)
    return remove_statement(ctx.source, a.decl_start, a.decl_end)


def check_pg002(ctx: Context) -> None:
    """Assignments of variables the profile's code never reads."""
    for a, val in ctx.flow.gate_sites:
        if a.name not in ctx.profile.dead:
            continue
        profile = (ctx.profile.name, ctx.profile.name) if ctx.profile.name != "auto" else \
            ("project's", "本项目的")
        msg = ctx.text("PG002", "messages", "dead", name=a.name, profile=profile)
        fix = ctx.fix("PG002", "remove", [_removal(ctx, a)], preferred=True, name=a.name)
        ctx.emit("PG002", msg, a.name_start, a.name_end, fixes=[fix], site=a)


def check_pg004(ctx: Context) -> None:
    """Live gates that are assigned but never exported before the launch."""
    for launch in ctx.flow.launches:
        for path in launch.paths:
            for name in ctx.live:
                a = path.gates[name].unexported
                if a is None:
                    continue
                value = shown(_val(ctx, a))
                msg = ctx.text("PG004", "messages", "plain", name=name, value=value,
                               launch=ctx.launch_name(launch), line=ctx.line(launch.name_start))
                fixes = []
                if a.mode == "plain" and a.decl_items == 1:
                    fixes.append(ctx.fix("PG004", "export", [Edit(a.start, a.start, "export ")],
                                         preferred=True, name=name))
                elif a.mode == "plain":  # `A=1 B=2`: export just this one, after the statement
                    fixes.append(ctx.fix("PG004", "export", [insert_statement_after(
                        ctx.source, a.decl_end, f"export {name}", before=a.decl_start)],
                        preferred=True, name=name))
                elif a.mode == "declare" and a.keyword.split()[0] in ("declare", "typeset"):
                    kw = a.keyword.split()[0]
                    fixes.append(ctx.fix("PG004", "export",
                                         [Edit(a.decl_start, a.decl_start + len(kw), kw + " -x")],
                                         preferred=True, name=name))
                ctx.emit("PG004", msg, a.name_start, a.name_end, fixes=fixes, site=a,
                         related=[ctx.launch_related(launch)])


def _val(ctx: Context, a: Assign):
    vals = ctx.cache.get("site_vals")
    if vals is None:  # once per analysis: a lookup per finding would make many findings quadratic
        vals = ctx.cache["site_vals"] = {id(site): val for site, val in ctx.flow.gate_sites}
    val = vals.get(id(a))
    if val is None:
        from ..flow import UNSET
        return UNSET
    return val


def check_pg006(ctx: Context) -> None:
    """Gate exports made in a child process that the launch never sees."""
    for a, sub in ctx.flow.lost:
        # the launch the export misses: the first one after it
        at = ctx.flow.site_via.get(id(a), (a.start, a.end))[0] if a.file else a.start
        later = [l for l in ctx.flow.launches if l.start > at]
        launch = later[0] if later else (ctx.flow.launches[0] if ctx.flow.launches else None)
        if a.name not in ctx.live and a.name not in ctx.profile.dead:
            continue
        if a.name in ctx.profile.dead:
            continue  # PG002 already says it does nothing
        name = ctx.launch_name(launch) if launch is not None else ("the launch", "启动命令")
        msg = ctx.text("PG006", "messages", sub.kind, name=a.name, launch=name)
        fixes = []
        edits = _split(ctx, sub)
        if edits:
            fixes.append(ctx.fix("PG006", "split", edits, preferred=True))
        related = [ctx.launch_related(launch)] if launch is not None else []
        ctx.emit("PG006", msg, a.name_start, a.name_end, fixes=fixes, related=related, site=a)


def _split(ctx: Context, sub) -> list:
    data = ctx.source.data
    if sub.kind == "background" and sub.amp_end:
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
    if sub.kind == "subshell" and sub.body is not None and sub.body.body:
        inner = sub.body.body
        if all(isinstance(s, (Assign, ExportNames)) for s in inner):
            first = min(s.start if not isinstance(s, Assign) else s.decl_start for s in inner)
            last = max(s.end if not isinstance(s, Assign) else s.decl_end for s in inner)
            return [Edit(sub.start, first, ""), Edit(last, sub.end, "")]
    return []


def check_pg008(ctx: Context) -> None:
    """A gate assignment that nothing reads before it is replaced."""
    for a, by in ctx.flow.overwritten:
        if a.mode in ("prefix", "env", "docker") or a.name not in ctx.live:
            continue
        val = _val(ctx, a)
        key = "overwritten" if isinstance(by, Assign) else "unset"
        where = ctx.flow.overwrite_sites.get(id(by))
        if where is not None:  # in a sourced file: the line of the `source` command, and a link into the file
            by_file, via = where
            by_line = ctx.line(via[0])
            related = [Related(by.start, by.end, pick(ctx.lang, "overwritten here", "在这里被覆盖"), by_file)]
        else:
            by_line = ctx.line(by.start)
            related = [ctx.related(by.start, by.end, "overwritten here", "在这里被覆盖")]
        msg = ctx.text("PG008", "messages", key, name=a.name, value=shown(val), by_line=by_line)
        fix = ctx.fix("PG008", "remove", [_removal(ctx, a)], safe=False, preferred=True)
        ctx.emit("PG008", msg, a.name_start, a.name_end, fixes=[fix], related=related, site=a)
