"""What a wrapper does to the environment its child gets, as data: a few transform records and
one table, WRAPPERS, from a wrapper's name to its option syntax (core/gates.py) and the reader
that turns its words into transforms. commands.py's handlers return the transforms inside their
effects (effects.Environ for a wrapper, effects.RunContainer for `docker run`); apply.py and
children.py apply them. Adding a wrapper is a row here (one that only keeps the environment:
a row of gates.WRAPPER_SYNTAX) and an oracle case.

A reader gets the row's syntax, the command's words (their texts, names, and the words) and the
index of the first word after the wrapper's name; it returns the transforms in the order the
words give them and the index of the command the wrapper runs (None: it runs none).
"""

from __future__ import annotations

from .. import gates as G
from ..parse.model import Lit, Word
from ..parse.words import is_name
from ..records import TextEnum, record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Callable, Optional

# ---------------------------------------------------------------- the transforms


@record(frozen=True)
class Keep:
    """The child gets this shell's exported environment and the command's prefix (`nohup`,
    `timeout 5`, `numactl -N 0`, `exec`...)."""


@record(frozen=True)
class SetVar:
    """`env NAME=value`, `docker run -e NAME=value`: the name set in the child's environment;
    strip: the length of an option glued to the word (`--env=`, `-e`)."""

    word: Word
    strip: int = 0


@record(frozen=True)
class UnsetVar:
    """`env -u NAME`: the name removed from the child's environment (start, end: the option's span)."""

    name: str
    start: int
    end: int


class Cause(TextEnum):
    """Which wrapper's rules, not the script's words, dropped this shell's exports (a Clear's
    cause: the rules report what it drops); "" for a clear the script asks for (`env -i`)."""

    NONE = ""
    SUDO = "sudo"  # sudoers(5)'s default env_reset
    SRUN = "srun"  # srun --export=NONE or a list without ALL
    MPIRUN = "mpirun"  # Open MPI: ranks on other hosts get only the -x names
    DEEPSPEED = "deepspeed"  # ranks on other nodes get the forwarded prefixes and .deepspeed_env


@record(frozen=True)
class Clear:
    """`env -i`, `docker run`: the child starts from nothing but the transforms after this;
    cause: the wrapper whose own rules clear it (start, end: its word), certain: False when
    they do only if something packgate cannot read says so (a hostfile's hosts): then nothing
    is cleared, and the rules say so at information level."""

    cause: Cause = Cause.NONE
    start: int = 0
    end: int = 0
    certain: bool = True


@record(frozen=True)
class Pass:
    """After a Clear: one name of the wrapper's own environment (this shell's exports and the
    prefix) passes to the child (`sudo --preserve-env=NAME`, `srun --export=NAME`, `-x NAME`)."""

    name: str


@record(frozen=True)
class PassPrefix:
    """After a Clear: every name of the wrapper's environment that starts with one of these
    passes (DeepSpeed's forwarded prefixes)."""

    prefixes: tuple


@record(frozen=True)
class SetText:
    """A `NAME=value` inside a wrapper's word (`--export=ALL,NAME=value`, `-x NAME=value`, an
    element of an array of assignments), literal: the value's bytes at start..end (end - start
    may differ from the value's length when the value came from elsewhere: foreign)."""

    name: str
    text: str
    start: int
    end: int
    yields: bool = False  # `srun --export=ALL,NAME=value`: the manual lets an exported NAME win


@record(frozen=True)
class Unreadable:
    """The wrapper's words that decide the child's environment cannot be read (`--export=$LIST`):
    the gates the child sees are unknown."""

    via: str


@record(frozen=True)
class InputArgs:
    """xargs: the words it reads from its input join the command's (replace: the words holding
    this string get the input instead; "" appends it)."""

    replace: str


@record(frozen=True)
class PassHost:
    """`docker run -e NAME`: the host's NAME passed to the child when the host exported it."""

    word: Word
    name: str
    strip: int = 0


@record(frozen=True)
class EnvFile:
    """`docker run --env-file FILE`: the child gets more names, from a file whose contents are unknown."""


KEEP, CLEAR, ENV_FILE = Keep(), Clear(), EnvFile()
_KEEPS = (KEEP,)


# ---------------------------------------------------------------- the readers


def keep(syntax: tuple, names, words: list, i: int) -> tuple:
    """A wrapper that keeps the environment: its options (those of syntax that take a value
    skip the next word too) and its operands (taskset's mask, timeout's duration) come before
    the command."""
    takes, operands = syntax
    n = len(words)
    while i < n:
        t = names[i]
        if t == "--":
            i += 1
            break
        if not t.startswith("-") or t == "-":
            break
        i += 2 if t in takes else 1  # `-N 0`; `--cpunodebind=0` and `-N0` are one word
    return _KEEPS, i + operands


SPLIT_STRING = frozenset(("-S", "--split-string"))
_IGNORE_ENVIRONMENT = frozenset(("-i", "-", "--ignore-environment"))
_UNSET = frozenset(("-u", "--unset"))


def _assigns(word: Word) -> bool:
    """Whether a word's literal start is `NAME=` (`PATH="$PATH"` too)."""
    lead = word.parts[0] if word.parts else None
    if type(lead) is not Lit:
        return False
    eq = lead.text.find("=")
    return eq > 0 and is_name(lead.text[:eq])


def read_env(syntax: tuple, names, words: list, i: int) -> tuple:
    """`env X=1 -u Y -i CMD`: set, unset, clear (what came before too), in order; the command is
    the first other word. `-S STRING` stops here: the index is the option's (the string, split
    into words, is the command: commands.env)."""
    takes = syntax[0]
    out: list = []
    n = len(words)
    while i < n:
        t = names[i]
        if _assigns(words[i]):
            out.append(SetVar(words[i]))
            i += 1
        elif t in SPLIT_STRING and i + 1 < n:
            break
        elif t in _IGNORE_ENVIRONMENT:
            out.append(CLEAR)
            i += 1
        elif t in _UNSET and i + 1 < n:
            out.append(UnsetVar(names[i + 1], words[i].start, words[i + 1].end))
            i += 2
        elif t in takes:  # `-C DIR`: the folder, not the command
            i += 2
        elif t.startswith("--unset=") or (t.startswith("-u") and len(t) > 2 and not t.startswith("--")):
            out.append(UnsetVar(t.split("=", 1)[1] if t.startswith("--") else t[2:], words[i].start, words[i].end))
            i += 1
        elif t.startswith("-"):
            i += 1
        else:
            break
    return tuple(out), i


def _container_var(word: Word, spec: str, strip: int = 0):
    """One `-e` option's operand: NAME=value sets, NAME passes the host's."""
    return SetVar(word, strip) if "=" in spec else PassHost(word, spec, strip)


def read_docker_run(syntax: tuple, names, words: list, i: int) -> tuple:
    """`docker run [options] IMAGE CMD` from the word after `run`: the container starts from
    nothing (Clear), then its `-e`/`--env` options and `--env-file`s in order; the index is the
    image's (None: no image)."""
    takes = syntax[0]
    out: list = [CLEAR]
    n = len(words)
    while i < n:
        t = names[i]
        if t in ("-e", "--env") and i + 1 < n:
            out.append(_container_var(words[i + 1], names[i + 1]))
            i += 2
        elif t.startswith("--env="):
            out.append(_container_var(words[i], t[len("--env="):], len("--env=")))
            i += 1
        elif t.startswith("-e") and len(t) > 2 and "=" in t:
            out.append(_container_var(words[i], t[2:], 2))
            i += 1
        elif t == "--env-file" or t.startswith("--env-file="):
            out.append(ENV_FILE)
            i += 1 if "=" in t else 2
        elif t in takes:
            i += 2
        elif t.startswith("-"):
            i += 1
        else:
            return tuple(out), i
    return tuple(out), None


def _lit_start(word: Word, text: str) -> Optional[int]:
    """The byte offset of a literal word's text (None when the word is not one plain literal)."""
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is Lit and parts[0].text == text \
            and parts[0].end - parts[0].start == len(text.encode("utf-8")):
        return parts[0].start
    return None


def _set_text(item: str, word: Word, text: str, offset: int) -> SetText:
    """`NAME=value` at character offset of a word's text: its value's bytes where the word has them."""
    name, _, value = item.partition("=")
    at = _lit_start(word, text)
    if at is None:
        return SetText(name, value, word.end, word.end)
    start = at + len(text[:offset + len(name) + 1].encode("utf-8"))
    return SetText(name, value, start, start + len(value.encode("utf-8")))


def element_assignment(text: str, val, word: Word) -> SetText:
    """An array element `NAME=value` used as a wrapper's word (`env "${ENVS[@]}" CMD`): its
    value's bytes where the element's literal is in this document, else the word's end."""
    name, _, value = text.partition("=")
    lit = val.lit
    if lit is not None and not val.foreign and lit[1] - lit[0] == len(text.encode("utf-8")):
        start = lit[0] + len(name) + 1
        return SetText(name, value, start, lit[1])
    return SetText(name, value, word.end, word.end)


def read_sudo(syntax: tuple, names, words: list, i: int) -> tuple:
    """`sudo [options] [NAME=value...] CMD`: sudoers' default env_reset gives CMD a fresh
    environment (Clear, then the few names it keeps); `-E`/`--preserve-env` keeps everything,
    `--preserve-env=A,B` those names too; the NAME=value words are set after it."""
    takes = syntax[0]
    n = len(words)
    at = words[i - 1]
    keep_all, kept = False, []
    while i < n:
        t = names[i]
        if t == "--":
            i += 1
            break
        if t in G.SUDO_PRESERVE:
            keep_all = True
            i += 1
        elif t.startswith("--preserve-env="):
            kept.extend(x for x in t[len("--preserve-env="):].split(",") if is_name(x))
            i += 1
        elif t in takes:
            i += 2
        elif t.startswith("--"):
            i += 1  # `--user=bob`, `--login`...
        elif t.startswith("-") and len(t) > 1:
            for k, letter in enumerate(t[1:], start=1):
                if letter == "E":
                    keep_all = True
                elif "-" + letter in takes:
                    i += 1 if k == len(t) - 1 else 0  # `-ubob` glues its value, `-Eu bob` takes the next
                    break
            i += 1
        else:
            break
    out: list = [KEEP] if keep_all else \
        [Clear(Cause.SUDO, at.start, at.end), *(Pass(name) for name in (*G.SUDO_RESET_KEEPS, *kept))]
    while i < n and _assigns(words[i]):
        out.append(SetVar(words[i]))
        i += 1
    return tuple(out), i


def read_xargs(syntax: tuple, names, words: list, i: int) -> tuple:
    """`xargs [options] CMD ARGS`: the environment is kept; the words xargs reads are CMD's
    too: in place of `-I STRING`'s string, else after ARGS."""
    takes = syntax[0]
    n = len(words)
    replace = ""
    while i < n:
        t = names[i]
        if t == "--":
            i += 1
            break
        if not t.startswith("-") or t == "-":
            break
        if t == "-I" and i + 1 < n:
            replace = names[i + 1] or "\0"
        elif t.startswith("-I") and len(t) > 2:
            replace = t[2:]
        elif t == "-i" or t == "--replace":
            replace = "{}"
        elif t.startswith(("-i", "--replace=")):
            replace = t.split("=", 1)[1] if t.startswith("--") else t[2:]
        i += 2 if t in takes else 1
    return (KEEP, InputArgs(replace)), i


def _options(syntax: tuple, names, words: list, i: int, wanted: frozenset):
    """The launcher's options before its program, as (option, value, the value's word index):
    `--opt=value` and `--opt value` alike (a value-less switch has value None)."""
    takes = syntax[0]
    n = len(words)
    while i < n:
        t = names[i]
        if not t:  # `--export="$LIST"`: an option whose value cannot be read ("" stands for it)
            lead = words[i].parts[0] if words[i].parts else None
            if type(lead) is not Lit or not lead.text.startswith("-") or "=" not in lead.text:
                return
            opt = lead.text.split("=", 1)[0]
            if opt in wanted:
                yield opt, "", i, len(opt) + 1
            i += 1
            continue
        if not t.startswith("-") or t in ("-", "--"):
            return
        if t.startswith("--") and "=" in t:
            opt, _, value = t.partition("=")
            if opt in wanted:
                yield opt, value, i, len(opt) + 1
            i += 1
        elif t in takes:
            if t in wanted and i + 1 < n:
                yield t, names[i + 1], i + 1, 0
            i += 2
        else:
            if t in wanted:
                yield t, None, i, 0
            i += 1


_SRUN_WANTED = frozenset({G.SRUN_EXPORT})
_SLURM = PassPrefix(("SLURM_",))


def read_srun(syntax: tuple, names, words: list, i: int) -> tuple:
    """`srun [--export=...] PROGRAM`: its tasks see this shell's environment (ALL, the default),
    none of it (NONE), or the listed names and NAME=value only (plus SLURM_*); with ALL in the
    list, everything and the values."""
    spec = None
    for _opt, value, at, glued in _options(syntax, names, words, i, _SRUN_WANTED):
        spec = (value, at, glued)
    if spec is None:
        return _KEEPS, None
    value, at, glued = spec
    word = words[at]
    if not value:
        return (Unreadable("srun " + G.SRUN_EXPORT),), None
    items = value.split(",")
    kept = [KEEP] if "ALL" in items else [Clear(Cause.SRUN, word.start, word.end), _SLURM]
    offset = glued
    for item in items:
        if "=" in item and is_name(item.split("=", 1)[0]):
            # with ALL, srun's manual says the user's environment takes precedence over the
            # values given: where this shell exports the name too, which wins is not certain
            t = _set_text(item, word, names[at], offset)
            kept.append(SetText(t.name, t.text, t.start, t.end, True) if kept[0] is KEEP else t)
        elif is_name(item) and item not in ("ALL", "NONE") and kept[0] is not KEEP:
            kept.append(Pass(item))
        offset += len(item) + 1
    return tuple(kept), None


_MPIRUN_WANTED = frozenset({G.MPIRUN_EXPORT}) | G.MPIRUN_HOSTS | G.MPIRUN_HOSTFILES


def read_mpirun(syntax: tuple, names, words: list, i: int) -> tuple:
    """`mpirun [-x NAME[=value]] [-H hosts | --hostfile FILE] PROGRAM` (Open MPI): ranks on this
    host inherit mpirun's environment; those on other hosts get only the -x names. Hosts named
    other than this one: the ranks there see Clear plus the -x names; a hostfile (not read
    here): that may be so."""
    at = words[i - 1]
    sent: list = []
    remote = maybe = False
    for opt, value, k, _glued in _options(syntax, names, words, i, _MPIRUN_WANTED):
        if opt == G.MPIRUN_EXPORT:
            if _assigns(words[k]):  # `-x NAME=value`, the value evaluated as env's words are
                sent.append(SetVar(words[k]))
            elif value and is_name(value):
                sent.append(Pass(value))
            else:
                sent.append(Unreadable("mpirun -x"))
        elif opt in G.MPIRUN_HOSTS:
            hosts = [h.split(":", 1)[0] for h in (value or "").split(",")]
            if not value or any(not h for h in hosts):
                maybe = True
            elif any(h not in G.LOCAL_HOSTS for h in hosts):
                remote = True
        else:
            maybe = True
    sets = [t for t in sent if type(t) is not Pass]
    if remote:
        return (Clear(Cause.MPIRUN, at.start, at.end), PassPrefix(("OMPI_",)), *sent), None
    if maybe:
        return (Clear(Cause.MPIRUN, at.start, at.end, certain=False), *sets), None
    return (KEEP, *sets), None


_DEEPSPEED_WANTED = G.DEEPSPEED_HOSTFILE | G.DEEPSPEED_HOSTS | G.DEEPSPEED_EXCLUDE | \
    frozenset({G.DEEPSPEED_NUM_NODES, G.DEEPSPEED_FORCE_MULTI})
_DEEPSPEED_SYNTAX = (G.DEEPSPEED_HOSTFILE | G.DEEPSPEED_HOSTS | G.DEEPSPEED_EXCLUDE | frozenset({
    G.DEEPSPEED_NUM_NODES, "--num_gpus", "--num-gpus", "--master_port", "--master_addr", "--launcher",
    "--launcher_args", "--ssh_port", "--min_elastic_nodes", "--max_elastic_nodes", "--save_pid",
    "--enable_each_rank_log", "--bind_core_list", "--autotuning", "--venv_script", "--node_rank"}), 0)


def read_deepspeed(syntax: tuple, names, words: list, i: int) -> tuple:
    """`deepspeed [--hostfile F] [--num_nodes N] [--include H1@H2] [--force_multi] SCRIPT`: on
    several nodes its runner starts every rank over pdsh/ssh (or MPI), with only the exported
    names of DeepSpeed's forwarded prefixes and the lines of `.deepspeed_env` (DeepSpeedEnv);
    with a hostfile alone the node count is the file's (not read: that may be so)."""
    at = words[i - 1]
    hostfile = multi = False
    for opt, value, _k, _glued in _options(_DEEPSPEED_SYNTAX, names, words, i, _DEEPSPEED_WANTED):
        if opt in G.DEEPSPEED_HOSTFILE:
            hostfile = True
        elif opt == G.DEEPSPEED_NUM_NODES:
            multi = multi or (value or "").isdigit() and int(value) > 1
        elif opt in G.DEEPSPEED_HOSTS:
            multi = multi or len([h for h in (value or "").split("@") if h]) > 1
        elif opt == G.DEEPSPEED_FORCE_MULTI:
            multi = True
    if multi:
        return (Clear(Cause.DEEPSPEED, at.start, at.end), PassPrefix(G.DEEPSPEED_EXPORT_PREFIXES),
                DEEPSPEED_ENV), None
    if hostfile:
        return (Clear(Cause.DEEPSPEED, at.start, at.end, certain=False),), None
    return _KEEPS, None


@record(frozen=True)
class DeepSpeedEnv:
    """The NAME=value lines of `.deepspeed_env` in the working folder (the script's, when it
    changes folder nowhere) are set on every node; a home folder's file is the user's, unseen."""


DEEPSPEED_ENV = DeepSpeedEnv()


# ---------------------------------------------------------------- the table


@record(frozen=True)
class Wrapper:
    """A wrapper's row: its option syntax (gates.py: the options that take the next word, the
    operands before the command) and the reader of its words."""

    syntax: tuple
    read: Callable[[tuple, object, list, int], tuple]


# wrapper name (its base name) -> its row; `docker` reads the words after `run`
WRAPPERS: dict[str, Wrapper] = {
    **{name: Wrapper(syntax, keep) for name, syntax in G.WRAPPER_SYNTAX.items()},
    "env": Wrapper(G.ENV_SYNTAX, read_env),
    "docker": Wrapper(G.DOCKER_RUN_SYNTAX, read_docker_run),
    "sudo": Wrapper(G.SUDO_SYNTAX, read_sudo),
    "xargs": Wrapper(G.WRAPPER_SYNTAX["xargs"], read_xargs),
}
# launchers that decide what their ranks see (the launch is the launcher: its words and
# findings stay where they are); read by launches.Launches.launch
LAUNCHERS: dict[str, Wrapper] = {
    "srun": Wrapper(G.SRUN_SYNTAX, read_srun),
    "mpirun": Wrapper(G.MPIRUN_SYNTAX, read_mpirun),
    "deepspeed": Wrapper(_DEEPSPEED_SYNTAX, read_deepspeed),
}


def read(name: str, names, words: list, i: int) -> tuple:
    """The transforms of the wrapper `name` whose first word after its name is at i, and the
    index of the command it runs (None: none)."""
    row = WRAPPERS[name]
    return row.read(row.syntax, names, words, i)


def read_launcher(name: str, names, words: list, i: int) -> tuple:
    """The transforms a launcher (LAUNCHERS: srun, mpirun, deepspeed) applies to what its ranks
    see, from its words after its name at i; () for the others."""
    row = LAUNCHERS.get(name)
    return row.read(row.syntax, names, words, i)[0] if row is not None else ()
