"""Random launchers for the oracle: a few statements drawn from the ways scripts set the gates and
the micro-batch size (quoting, $'...', defaults, arithmetic, arrays, printf -v, read, mapfile,
functions, locals, subshells, conditions on the caller's input, loops, export -n, set -a,
namerefs, names held in variables, brace expansion...),
then a launch. Deterministic by seed; every script runs under bash with each of INPUTS."""

from __future__ import annotations

import random

GATES = ("OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA")
INPUTS = ("", "IN=1 V=1", "-- 2 0")
VALUES = ("1", "0", '"1"', "'0'", "$'\\x31'", "$'\\060'", "${V:-1}", "${V:-0}", "${V-1}", "${IN:-1}",
          "${IN:+0}", "$((0+1))", "$(( 2 - 2 ))", "$V", "${V}", '"$V"', "${A[0]}", "${A[1]}", "${A[-1]}",
          "${#A[@]}", "${V:0:1}", "${V/1/0}", "1${E}", "${E}0", '"${E}"1', "${1:-1}", "${2:-0}", "yes", '""',
          "${U:=1}", "$(echo 1)", "`echo 0`", "${V^^}", "${!N}", "${V%1}1", "$[1]", "${#V}", "${V#?}1",
          "${V//0/1}", "${V: -1}", "${V%%,*}", "${V##*,}", "${V/#/1}", "${V,,}")


def _statements(r: random.Random) -> list:
    def gate() -> str:
        return r.choice(GATES)

    def val() -> str:
        return r.choice(VALUES)

    return [
        lambda: f"export {gate()}={val()}",
        lambda: f"{gate()}={val()}",
        lambda: f"export {gate()}",
        lambda: f"declare -x {gate()}={val()}",
        lambda: f"typeset -x {gate()}={val()}",
        lambda: "declare -i V=" + r.choice(["1", "0", "1+0", "2-1", "V+1"]),
        lambda: f"V={val()}",
        lambda: "V=" + r.choice(["1,0", "0,1", "x1", "10", "'1 0'"]),
        lambda: r.choice(["IFS=,", "unset IFS", "IFS=' '", "IFS="]),
        lambda: (lambda g, h: f"export {g}={val()} {h}=${{{g}}}")(gate(), gate()),
        lambda: f"A+=($V); export {gate()}=${{A[-1]}}",
        lambda: "E=" + r.choice(["", "1", "0", '" "']),
        lambda: "A=(" + r.choice(["1 0", "0 1", '"1" "0"', ""]) + ")",
        lambda: f"unset {gate()}",
        lambda: f"unset -v {gate()}",
        lambda: f"export -n {gate()}",
        lambda: f"declare +x {gate()}",
        lambda: f'if [[ "$IN" == 1 ]]; then export {gate()}={val()}; else export {gate()}={val()}; fi',
        lambda: f'[ -n "$IN" ] && export {gate()}={val()}',
        lambda: f'[[ "$V" == 1 ]] || export {gate()}={val()}',
        lambda: f'case "${{IN:-x}}" in 1) export {gate()}={val()} ;; *) {gate()}={val()} ;; esac',
        lambda: f"f() {{ export {gate()}={val()}; }}; f",
        lambda: f"g() {{ local {gate()}={val()}; export {gate()}; }}; g",
        lambda: f'h() {{ [ -n "$IN" ] && return 0; export {gate()}={val()}; }}; h',
        lambda: f"( export {gate()}={val()} )",
        lambda: f"set -a; {gate()}={val()}; set +a",
        lambda: f"printf -v {gate()} '%s' {val()}",
        lambda: f"read -r {gate()} <<< {val()}",
        lambda: f'IFS=, read -r P Q <<< "1,0"; export {gate()}=$P',
        lambda: f"mapfile -t L <<< $'1\\n0'; export {gate()}=${{L[1]}}",
        lambda: f': "${{{gate()}:={val()}}}"',
        lambda: f'eval "export {gate()}={r.choice(["1", "0"])}"',
        lambda: "(( V = " + r.choice(["1", "0", "V+1"]) + " ))",
        lambda: "let V=" + r.choice(["1", "0", "V+1"]),
        lambda: f"export {gate()}=$(( {r.choice(['1', '0', 'V', 'V*2', '1?0:1'])} ))",
        lambda: f"for x in 1 0; do export {gate()}=$x; done",
        lambda: f"while false; do export {gate()}=0; done",
        lambda: f"readonly V={val()}",
        lambda: f"declare -A M=([a]={val()} [b]=0); export {gate()}=${{M[a]}}",
        lambda: f"A+=({val()}); export {gate()}=${{A[-1]}}",
        lambda: f"export {gate()}={val()} {gate()}={val()}",
        lambda: f"export {gate()}+=" + r.choice(["1", "0"]),
        lambda: (lambda g: f'export {g}="${{{g}:-{r.choice(["1", "0"])}}}"')(gate()),
        lambda: f"{gate()}={val()} true",
        lambda: (lambda g: f"{g}={val()} export {g}")(gate()),
        lambda: f"set -u; export {gate()}=${{V:-1}}; set +u",
        lambda: "MBS=" + r.choice(["1", "2", "${1:-1}", "${MBS:-2}", "$((1*1))"]),
        lambda: "shift",
        lambda: "set -- " + r.choice(["1", "2 1", "a b c"]),
        lambda: f"declare -n R={gate()}; R={val()}",
        lambda: f"declare -n R=$N; export R={val()}",
        lambda: f"declare -n R={gate()}; " + r.choice(["unset R", "unset -n R", "R+=1", "export V=$R"]),
        lambda: f"s() {{ local -n ref=$1; ref=$2; }}; s {gate()} {r.choice(['1', '0', '$V'])}",
        lambda: f"printf -v \"$N\" '%s' {val()}",
        lambda: f"for n in {gate()}; do read -r \"$n\" <<< {val()}; done",
        lambda: "export OFFLINE_PACK" + r.choice(["{ING_BMR,ED_DATA}", "{ED_DATA,X}", "ING_{BMR,X}"]) + f"={val()}",
        lambda: f"export {gate()}=" + r.choice(["{1,0}", "{0,1}", "{0..1}", "{,1}"]),
        lambda: "unset OFFLINE_PACK" + r.choice(["{ING_BMR,ED_DATA}", "ED_{DATA,X}", "{ING_BMR}"]),
        lambda: f"for n in OFFLINE_PACK{{ING_BMR,ED_DATA}}; do export \"$n\"={val()}; done",
        lambda: f"A=({{{r.choice(['0..1', '1..0', '01..1', '1,0'])}}}); export {gate()}=${{A[1]}}",
    ]


def _launch(r: random.Random) -> str:
    return r.choice([
        "torchrun train.py --micro-batch-size ${MBS:-1}",
        f"{r.choice(GATES)}={r.choice(VALUES)} torchrun train.py --micro-batch-size 1",
        f'env {r.choice(GATES)}={r.choice(VALUES)} torchrun train.py --micro-batch-size "$MBS"',
        "torchrun train.py --micro-batch-size=$1",
        'torchrun train.py "--micro-batch-size=${2}"',
        'ARGS=(--micro-batch-size "${MBS:-1}"); torchrun train.py "${ARGS[@]}"',
    ])


def launcher(seed: int) -> str:
    """The random launcher of a seed: N naming a gate, two to seven statements, then a launch."""
    r = random.Random(seed)
    statements = _statements(r)
    # `${!N}` with N unset is an error that aborts its command, which packgate does not follow
    # (one of its paths still runs it): N always names a variable here
    lines = ["#!/bin/bash", f"N={r.choice(GATES)}"] + [r.choice(statements)() for _ in range(r.randrange(2, 8))] \
        + [_launch(r)]
    return "\n".join(lines) + "\n"
