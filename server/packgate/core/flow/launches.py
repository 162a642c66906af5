"""Recognising a launch (the launcher patterns are gates.py's) and what it is given: the
environment on each path, its prefix assignments and its arguments."""

from __future__ import annotations

import os

from .. import gates as G
from ..parse.model import AssignMode, Command, Ref
from ..parse.visit import children
from ..parse.words import is_name
from .commands import Call, base_name
from .effects import Environ
from .environ import read_launcher
from .facts import UNSET, Dropped, Launch, LaunchPath, Origin, Seen, Val, ValKind, Var
from .record import LaunchEntry
from .state import State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_KNOWN, _DEFAULT, _UNKNOWN, _UNSET = ValKind.KNOWN, ValKind.DEFAULT, ValKind.UNKNOWN, ValKind.UNSET
_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)  # the script gives the text (a default may be overridden)
_MBS, _MBS_EQ = G.MBS_FLAG, G.MBS_FLAG + "="
_LOOKED_FOR = (G.MBS_FLAG, G.PACKING_SFT, G.PACKING_PRETRAIN)  # what see() reads of the words starts so


class Launches:
    """The walk's launches: what each path reaching one gives it, recorded as LaunchEntry."""

    def __init__(self, inp, where, rec, evaluator, declarations, applier) -> None:
        self.inp, self.where, self.rec, self.evaluator = inp, where, rec, evaluator
        self.declarations, self.applier = declarations, applier
        self.folder_changes: Optional[bool] = None  # the script runs cd/pushd/popd (changes_folder())

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
        if self.where.via is not None:  # a launch in a sourced file: shown at the `source` command
            key = self.where.via
            launch = self.rec.launches.get(key) or Launch(key[0], key[1], key[0], key[1], launcher + " (sourced)")
        else:
            key = (cmd.start, cmd.end)
            launch = self.rec.launches.get(key) or Launch(cmd.start, cmd.end, words[i].start, words[i].end, launcher,
                                                      command=c.names[i] or "")
        self.rec.sub_launches += 1
        ranks = read_launcher(base_name(c.names[i]), c.names, words, i + 1)
        if ranks:  # srun --export, mpirun -x, deepspeed's nodes: what the ranks see
            self.applier.effect_environ(Environ(ranks), c, [s])
            prefix = c.prefix
        reach = c.reach
        # bash expands the arguments before it makes the prefix assignments: in
        # `MBS=4 torchrun ... --micro-batch-size $MBS` the flag gets the shell's MBS, not 4
        args = []
        replace = reach.input_args if reach is not None else None
        for w in words[i + 1:]:
            if replace and w.text is not None and replace in w.text:  # xargs -I{}: its input goes there
                args.append(Val(_UNKNOWN, w.text, via="xargs", span=(w.start, w.end), origin=Origin.UNKNOWN))
                continue
            args.extend(self.evaluator.values(w, s))
        if replace == "":  # xargs: its input joins the words at the end
            args.append(Val(_UNKNOWN, via="xargs", origin=Origin.UNKNOWN))
        args = tuple(args)
        if launch.paths and launch.paths[-1].pending is None:  # the paths to a launch mostly get
            last = launch.paths[-1].raw_args  # the same words: one tuple, moved once
            if len(last) == len(args) and all(a is b for a, b in zip(last, args)):
                args = last
        child = s.fork()
        if c.clears:  # `env -i`: only the assignments after it (and the names kept) reach the command
            kept = reach.kept if reach is not None else frozenset()
            for name in [n for n, v in child.vars.items() if v is not None and v.exported and n not in kept]:
                child.drop(name)
        prefix_sites = []
        relevant = self.inp.relevant
        for a in prefix:
            if a.mode == AssignMode.ENV_UNSET:
                child.drop(a.name)
                child.removed = {**child.removed, a.name: (a.start, a.end)}
                continue
            if relevant is not None and not self.inp.wide and a.name not in relevant and a.name not in G.OTHER_VARS \
                    and not (a.value is not None and a.value.effects):
                continue  # PYTHONPATH=... torchrun: nothing a check reads (a dry run shows it)
            self.declarations.assign(child, a)
            prefix_sites.append(a)
        dropped = self.reached(reach, child) if reach is not None else None
        self.rec.add_path(LaunchEntry(key, launch, self.see(child, args, prefix_sites, cleared=c.clears or s.cleared,
                                                        dropped=dropped)))

    def reached(self, reach, child: State) -> dict:
        """What a wrapper's rules did to the launch's environment beyond its prefix (on child):
        the .deepspeed_env lines set, gates made unknown by words that cannot be read, and per
        gate the Dropped that says which wrapper keeps it from the launch."""
        for name, text in reach.env_lines.items():
            child.set(name, Var(Val(_KNOWN, text, via=G.DEEPSPEED_ENV_FILE), True, None))
        if reach.unknown:
            for gate in G.GATES:
                child.set(gate, Var(Val(_UNKNOWN, via=reach.unknown, origin=Origin.UNKNOWN), True, None))
        dropped = {}
        for gate, (t, origin) in reach.drops.items():
            if reach.unknown:
                continue
            certain = not reach.unseen_file
            if not certain:  # the nodes may get it from a .deepspeed_env packgate cannot locate
                child.set(gate, Var(Val(_UNKNOWN, via=G.DEEPSPEED_ENV_FILE, origin=Origin.UNKNOWN), True, None))
            dropped[gate] = Dropped(origin, t.cause.value, t.start, t.end, certain)
        for t in reach.maybe:
            for gate in G.GATES:
                var = child.vars.get(gate)
                if gate not in dropped and var is not None and var.exported and not var.negated \
                        and var.val.kind != ValKind.UNSET:
                    dropped[gate] = Dropped(var.origin, t.cause.value, t.start, t.end, False)
        return dropped

    def deepspeed_env(self) -> Optional[dict]:
        """The NAME=value lines of `.deepspeed_env` where deepspeed would read it: the script's
        folder, when the script changes folder nowhere ({} when there is no such file); None
        when packgate cannot tell where the working folder is."""
        if self.inp.path is None or self.inp.loader is None or self.changes_folder():
            return None
        target = os.path.join(os.path.dirname(self.inp.path), G.DEEPSPEED_ENV_FILE)
        self.rec.dependencies.add(os.path.realpath(target))
        if not os.path.isfile(target):
            return {}
        text, _reason = self.inp.loader(target)
        if text is None:
            return None
        lines = {}
        for line in text.splitlines():
            name, eq, value = line.partition("=")
            if eq and is_name(name.strip()):
                lines[name.strip()] = value.strip()
        return lines

    def changes_folder(self) -> bool:
        """Whether the script runs `cd`, `pushd` or `popd` anywhere (computed once)."""
        found = self.folder_changes
        if found is None:
            found = self.folder_changes = _changes_folder(self.inp.script.body)
        return found

    def see(self, s: State, args: list, prefix_sites: list, implicit: bool = False,
            cleared: bool = False, dropped: Optional[dict] = None) -> LaunchPath:
        """What a launch given args sees on path s: each gate, the micro-batch size, the packing
        flags (dropped: gate -> Dropped, what a wrapper's rules keep from the launch)."""
        seen = {}
        read = self.rec.read
        for var in s.vars.values():  # the launched program may read every variable it is given
            if var is not None and var.exported and var.origin is not None:
                read[var.origin] = None
        for gate in G.GATES:
            var = s.vars.get(gate)
            lost = s.lost.get(gate)
            if var is not None and var.origin is not None:
                self.rec.read[var.origin] = None
            removed = s.removed.get(gate)
            drop = dropped.get(gate) if dropped else None
            if var is None or var.val.kind == _UNSET:
                if s.env_file:
                    seen[gate] = Seen(Val(_UNKNOWN, via="--env-file", origin=Origin.UNKNOWN), None, lost=lost)
                else:
                    seen[gate] = Seen(UNSET, None, lost=lost, removed=removed, dropped=drop)
            elif var.exported and var.array is not None:  # bash never puts an array in the environment
                seen[gate] = Seen(UNSET, None, lost=lost)
            elif var.exported:
                seen[gate] = Seen(var.val, var.origin, dropped=drop)
            elif var.negated:
                seen[gate] = Seen(UNSET, None, removed=removed)
            else:
                seen[gate] = Seen(UNSET, None, unexported=var.origin, lost=lost)
        mbs, flag, sft, pretrain = None, None, False, False
        after = 0  # the first word after the last --micro-batch-size and its value
        for idx, v in enumerate(args):
            t = v.text
            if v.prefix and v.kind == _UNKNOWN:  # `--micro-batch-size=$1`: the flag, its value unknown
                t = v.prefix if v.prefix.startswith(_MBS_EQ) else ""
            if not t.startswith(_LOOKED_FOR) or \
                    (v.kind != _KNOWN and v.kind != _DEFAULT and v.via != "xargs" and not v.prefix):
                continue  # most words are none of the flags looked for
            if t == _MBS:
                if idx + 1 < len(args):  # a flag without a value is argparse's error, not ours
                    flag = v.span
                    mbs = args[idx + 1]
                    after = idx + 2
            elif t.startswith(_MBS_EQ) and v.kind == _UNKNOWN:  # xargs -I{}: its input; `=$1`
                flag = v.span
                mbs = Val(_UNKNOWN, via=v.via, origin=Origin.UNKNOWN)
                after = idx + 1
            elif t.startswith(_MBS_EQ):
                flag = v.span
                lit = (v.lit[0] + len(_MBS_EQ), v.lit[1]) if v.lit else None
                mbs = v._replace(text=t[len(_MBS_EQ):], lit=lit)
                after = idx + 1
            elif t == G.PACKING_SFT:
                sft = True
            elif t == G.PACKING_PRETRAIN:
                pretrain = True
        if mbs is not None and mbs.kind == _KNOWN:
            # argparse keeps an option's last value: a later word packgate cannot read (the
            # caller's "$@") may give --micro-batch-size again, so the script's is a default
            later = next((a for a in args[after:] if a.kind == _UNKNOWN), None)
            if later is not None:
                mbs = mbs._replace(kind=_DEFAULT, via=later.via or "?", origin=Origin.DEFAULT, name=None)
        return LaunchPath(s.labels, seen, mbs, flag, sft, pretrain, s.docker_at, s.host_exported,
                          tuple(args), s.vars, cleared, s.env_file, s.removed)


_FOLDER_COMMANDS = frozenset(("cd", "pushd", "popd"))


def _changes_folder(block) -> bool:
    """Whether a statement at or below block runs cd, pushd or popd."""
    stack = [block]
    while stack:
        st = stack.pop()
        if type(st) is Command and st.words and st.words[0].text in _FOLDER_COMMANDS:
            return True
        stack.extend(children(st))
    return False
