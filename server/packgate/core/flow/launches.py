"""Recognising a launch (the launcher patterns are gates.py's) and what it is given: the
environment on each path, its prefix assignments and its arguments."""

from __future__ import annotations

from .. import gates as G
from ..parse.model import AssignMode, Ref
from .commands import Call, base_name
from .facts import UNSET, Launch, LaunchPath, Origin, Seen, Val, ValKind
from .incremental import LaunchEntry
from .state import State

_KNOWN, _DEFAULT, _UNKNOWN = ValKind.KNOWN, ValKind.DEFAULT, ValKind.UNKNOWN
_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)  # the script gives the text (a default may be overridden)


class Launches:
    """The walk's launches (a part of flow.analysis.Flow)."""

    def launcher(self, c: Call) -> str:
        """The label of the launch the command c is ('' when it is none): a launcher, a
        variable named like one, or python running a training module or script (gates.py)."""
        words, names, i = c.words, c.names, c.i
        name = names[i]
        base = base_name(name)
        if base in G.LAUNCHERS:
            return base
        sub = G.LAUNCHER_SUBCOMMANDS.get(base)
        if sub is not None and i + 1 < len(names) and names[i + 1] == sub:
            return base + " " + sub
        first = words[i].parts[0] if words[i].parts else None
        if isinstance(first, Ref) and any(part in first.name for part in G.LAUNCHER_VARIABLE_PARTS):
            return "$" + first.name
        if G.is_python(base):
            return G.python_launch(base, names, i + 1)
        return ""

    def launch(self, c: Call, launcher: str) -> None:
        """Record one path reaching the launch c: what it sees with its prefix applied."""
        cmd, words, i, s, prefix = c.cmd, c.words, c.i, c.s, c.prefix
        if self.via is not None:  # a launch in a sourced file: shown at the `source` command
            key = self.via
            launch = self.launches.get(key) or Launch(key[0], key[1], key[0], key[1], launcher + " (sourced)")
        else:
            key = (cmd.start, cmd.end)
            launch = self.launches.get(key) or Launch(cmd.start, cmd.end, words[i].start, words[i].end, launcher,
                                                      command=c.names[i] or "")
        self.sub_launches += 1
        # bash expands the arguments before it makes the prefix assignments: in
        # `MBS=4 torchrun ... --micro-batch-size $MBS` the flag gets the shell's MBS, not 4
        args = []
        for w in words[i + 1:]:
            args.extend(self.values(w, s))
        child = s.fork()
        if c.clears:  # `env -i`: only the assignments after it reach the command
            for name in [n for n, v in child.vars.items() if v is not None and v.exported]:
                child.drop(name)
        prefix_sites = []
        relevant = self.relevant
        for a in prefix:
            if a.mode == AssignMode.ENV_UNSET:
                child.drop(a.name)
                child.removed = {**child.removed, a.name: (a.start, a.end)}
                continue
            if relevant is not None and not self.wide and a.name not in relevant and a.name not in G.OTHER_VARS \
                    and not (a.value is not None and a.value.effects):
                continue  # PYTHONPATH=... torchrun: nothing a check reads (a dry run shows it)
            self.assign(child, a)
            prefix_sites.append(a)
        self.add_path(LaunchEntry(key, launch, self.see(child, args, prefix_sites, cleared=c.clears)))

    def see(self, s: State, args: list, prefix_sites: list, implicit: bool = False,
            cleared: bool = False) -> LaunchPath:
        """What a launch given args sees on path s: each gate, the micro-batch size, the packing flags."""
        seen = {}
        read = self.read
        for var in s.vars.values():  # the launched program may read every variable it is given
            if var is not None and var.exported and var.origin is not None:
                read[var.origin] = None
        for gate in G.GATES:
            var = s.vars.get(gate)
            lost = s.lost.get(gate)
            if var is not None and var.origin is not None:
                self.read[var.origin] = None
            removed = s.removed.get(gate)
            if var is None or var.val.kind == ValKind.UNSET:
                if s.env_file:
                    seen[gate] = Seen(Val(_UNKNOWN, via="--env-file", origin=Origin.UNKNOWN), None, lost=lost)
                else:
                    seen[gate] = Seen(UNSET, None, lost=lost, removed=removed)
            elif var.exported:
                seen[gate] = Seen(var.val, var.origin)
            elif var.negated:
                seen[gate] = Seen(UNSET, None, removed=removed)
            else:
                seen[gate] = Seen(UNSET, None, unexported=var.origin, lost=lost)
        mbs, flag, sft, pretrain = None, None, False, False
        for idx, v in enumerate(args):
            t = v.text
            if t[:2] != "--" or (v.kind != _KNOWN and v.kind != _DEFAULT):
                continue  # every flag looked for starts with --
            if t == G.MBS_FLAG:
                if idx + 1 < len(args):  # a flag without a value is argparse's error, not ours
                    flag = v.span
                    mbs = args[idx + 1]
            elif t.startswith(G.MBS_FLAG + "="):
                flag = v.span
                lit = (v.lit[0] + len(G.MBS_FLAG) + 1, v.lit[1]) if v.lit else None
                mbs = v._replace(text=t[len(G.MBS_FLAG) + 1:], lit=lit)
            elif t == G.PACKING_SFT:
                sft = True
            elif t == G.PACKING_PRETRAIN:
                pretrain = True
        return LaunchPath(s.labels, seen, mbs, flag, sft, pretrain, s.docker_at, s.host_exported,
                          tuple(args), s.vars, cleared, s.env_file, s.removed)
