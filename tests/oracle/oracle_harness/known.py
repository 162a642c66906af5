"""Known disagreements between bash and packgate: case key -> the construct packgate does not
model yet (the work plan of issue 16). Each runs as a strict xfail: when the semantics work
fixes one, its test passes, the suite turns red, and the entry goes. Entries marked "out of
reach" are outside the rules issue 16 sets (a status it keeps unknown): they stay until someone
decides otherwise."""

_STATUS = "exit status not followed by && / ||: "
_COND = "if/while/until condition status not followed: "
_ERREXIT = "set -e not modelled: "
_STOP = "path that stops not modelled: "

KNOWN: dict = {
    # -- text bash reads differently
    "golden/crlf": "CRLF line ends: bash keeps the \\r (BMR is '1\\r', and `\\` before \\r is no "
                   "line continuation, so --micro-batch-size never reaches torchrun); packgate reads "
                   "the file as if the line ends were LF",
    # -- the caller's environment
    "golden/param_assign_default_unexported": "${X:=d} of a variable the caller exported keeps it "
                                              "exported (bash hands the caller's 1 to the launch); "
                                              "packgate says unset",
    # -- exit statuses and left-associative lists (issue 16: exit statuses)
    "oracle/readonly_failed_export_in_list": "readonly not modelled: `export P=1` of a readonly P "
                                             "fails (status 1, P keeps 0 and gets exported), so the "
                                             "`&& export B=1` after it never runs",
    "oracle/cmdsubst_status_true": "out of reach: the status of `X=$(true)` is the substitution's "
                                   "(0); issue 16 keeps it unknown, so packgate forks (PG007)",
    "oracle/subshell_exit_status_and": "out of reach: the status of `( true )` is 0; issue 16 keeps "
                                       "a subshell's status unknown, so packgate forks (PG007)",
    # -- if / while / until conditions
    "oracle/while_counter_loop": "out of reach: `while [ $n -lt 2 ]` on a counter the script set "
                                 "always runs; issue 16 keeps tests unknown, so packgate adds the "
                                 "loop-skipped path (PG007)",
    # -- set -e
    "oracle/set_e_pipefail_ends": _ERREXIT + "with pipefail, `false | true` fails and ends the "
                                  "script; packgate reaches the launch",
    "oracle/set_e_failing_subshell": "out of reach: set -e and `( exit 1 )` end the script, but "
                                     "issue 16 keeps a subshell's status unknown; packgate reaches "
                                     "the launch",
    # -- paths that stop
    "oracle/set_u_unset_variable": _STOP + "set -u and a variable the script never sets end the "
                                   "script; packgate reaches the launch",
    # -- case fall-through
    # -- unset options
    "oracle/unset_f_keeps_variable": "unset -f not modelled: it removes a function, the gate stays; "
                                     "packgate removes the variable (PG001)",
    "oracle/unset_n_plain_variable": "unset -n not modelled: on a variable that is not a nameref "
                                     "bash 5.2 leaves it in place; packgate removes it (PG001)",
    "oracle/unset_f_function_then_call": "unset -f not modelled: the function is gone, so calling "
                                         "it exports nothing; packgate still runs its body",
    "oracle/readonly_unset_fails": "readonly not modelled: unset of a readonly gate fails and it "
                                   "stays; packgate removes it (PG001)",
    "oracle/command_unset": "`command unset` not taken for unset: the gate is removed; packgate "
                            "keeps it",
    # -- local / declare inside functions
    "oracle/local_x_launch_inside": "local -x not modelled as an export: a launch inside the "
                                    "function sees the gate; packgate says unset",
    "oracle/local_shadows_exported": "local of an exported gate keeps the export attribute: the "
                                     "launch in the function sees the local 0; packgate says unset",
    # -- readonly
    "oracle/readonly_keeps_old_value": "readonly not modelled: `export P=1` of a readonly P=0 "
                                       "fails, P stays 0 (and is exported); packgate says 1",
    "oracle/declare_r_then_assign": "declare -r not modelled: P=0 fails, P keeps 1, and the later "
                                    "`export P` exports it; packgate says unset",
    # -- command / builtin
    "oracle/command_export": "`command export` not taken for export: both gates reach the "
                             "launch; packgate says unset",
    "oracle/builtin_export": "`builtin export` not taken for export: both gates reach the "
                             "launch; packgate says unset",
    # -- env options
    # -- eval
    "oracle/eval_literal_double": "eval of a literal string not run: `eval \"export P=1\"` "
                                  "exports P; packgate says unset (PG001)",
    "oracle/eval_literal_single_two": "eval of a literal string not run: both exports happen; "
                                      "packgate says unset",
    "oracle/eval_literal_in_and_list": "eval of a literal string not run: with PACK set both "
                                       "gates reach the launch; packgate says unset",
    "oracle/eval_nonliteral": "eval of a caller's string: the gates it may set are unknown after "
                              "it; packgate keeps BMR=1, PACKED unset and reports PG001",
    # -- correlated conditions
    "oracle/correlated_z_exit_then_n": "correlated tests: after `[ -z $1 ] && exit`, `[ -n $1 ] "
                                       "&& ...` always runs; packgate adds one-gate paths (PG007)",
    "oracle/correlated_n_or_exit": "correlated tests: after `[ -n $1 ] || exit`, `[ -n $1 ] && "
                                   "export B` always runs; packgate adds a PACKED-only path (PG007)",
    "oracle/correlated_if_exit": "correlated tests: after `if [ -z $PACK ]; then exit; fi`, "
                                 "`[ -n $PACK ] && export` always runs; packgate adds a PACKED-only "
                                 "path (PG007)",
    "oracle/correlated_equals": "correlated tests: after `[ $STAGE = sft ] || exit`, `[ $STAGE != "
                                "sft ]` never holds; packgate adds the unset path (PG007)",
}
