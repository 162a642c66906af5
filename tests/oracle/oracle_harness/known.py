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
    "oracle/idiom_test_and_export_chain": _STATUS + "export returns 0, so `test && export A && export B` "
                                          "sets both or neither; packgate adds the two one-gate paths (PG007)",
    "oracle/idiom_mkdir_and_exports": _STATUS + "`mkdir -p && export A && export B`: both or neither; "
                                      "packgate adds the two one-gate paths (PG007)",
    "oracle/chain_second_test_can_leave_one_off": _STATUS + "when the first test fails the whole rest "
                                                  "of the list is skipped; packgate adds a PACKED-only path",
    "oracle/and_then_or_left_assoc": _STATUS + "`t && export B || export P`: export returns 0, so P "
                                     "is set exactly when the test fails; packgate adds both-gates and "
                                     "no-gate paths",
    "oracle/or_then_and_left_assoc": _STATUS + "`(t || export) && export P`: P is exported on every "
                                     "path; packgate adds paths without it (PG007)",
    "oracle/test_status_three_way": _STATUS + "`t && export || export && export`: the last export "
                                    "always runs; packgate adds paths where it is skipped",
    "oracle/assignment_status_zero": _STATUS + "a plain assignment returns 0; packgate forks the "
                                     "&& chain after it (PG007)",
    "oracle/colon_and_exports": _STATUS + "`:` returns 0; packgate forks the chain after it (PG007)",
    "oracle/declare_x_chain": _STATUS + "declare -x returns 0; packgate forks the && after it (PG007)",
    "oracle/local_status_in_function": _STATUS + "local returns 0; packgate forks the chain after it (PG007)",
    "oracle/export_or_never_runs": _STATUS + "export returns 0, so `|| export X=0` / `|| unset` never "
                                   "run; packgate takes them (PG007)",
    "oracle/false_and_export": _STATUS + "false returns 1: the export after && never runs; packgate "
                               "takes it too (PG007 instead of PG001)",
    "oracle/true_or_export": _STATUS + "true returns 0: the export after || never runs; packgate "
                             "takes it too (PG007 instead of PG001)",
    "oracle/bang_false_and_exports": _STATUS + "`! false` returns 0; packgate forks the chain (PG007)",
    "oracle/bang_true_and_export": _STATUS + "`! true` returns 1: the export never runs; packgate "
                                   "takes it too (PG007 instead of PG001)",
    "oracle/set_e_or_list": _STATUS + "false returns 1, so `false || export P=1` always exports; "
                            "packgate adds a path without P (PG007)",
    "oracle/readonly_failed_export_in_list": "readonly not modelled: `export P=1` of a readonly P "
                                             "fails (status 1, P keeps 0 and gets exported), so the "
                                             "`&& export B=1` after it never runs",
    "oracle/cmdsubst_status_true": "out of reach: the status of `X=$(true)` is the substitution's "
                                   "(0); issue 16 keeps it unknown, so packgate forks (PG007)",
    "oracle/subshell_exit_status_and": "out of reach: the status of `( true )` is 0; issue 16 keeps "
                                       "a subshell's status unknown, so packgate forks (PG007)",
    # -- if / while / until conditions
    "oracle/if_true_exports": _COND + "`if true` always takes then; packgate adds the no-branch path",
    "oracle/if_false_else": _COND + "`if false` always takes else; packgate adds the then path (PG007)",
    "oracle/if_colon_elif": _COND + "`if :` always takes then, the elif is never tested; packgate "
                            "adds elif and no-branch paths (PG007)",
    "oracle/while_false_body_never_runs": _COND + "`while false` never runs its body; packgate "
                                          "adds the loop-ran path (PG007)",
    "oracle/until_true_body_never_runs": _COND + "`until true` never runs its body; packgate adds "
                                         "the loop-ran path (PG007)",
    "oracle/while_true_break": _COND + "`while true; ...; break` always runs the body; packgate "
                               "adds the loop-skipped path",
    "oracle/until_false_break": _COND + "`until false; ...; break` always runs the body; packgate "
                                "adds the loop-skipped path",
    "oracle/while_true_exit_inside": _COND + "`while true` without a break never reaches what "
                                     "follows; packgate reaches the launch after the loop",
    "oracle/while_counter_loop": "out of reach: `while [ $n -lt 2 ]` on a counter the script set "
                                 "always runs; issue 16 keeps tests unknown, so packgate adds the "
                                 "loop-skipped path (PG007)",
    # -- set -e
    "oracle/set_e_false_ends": _ERREXIT + "false ends the script before the launch; packgate reaches it",
    "oracle/set_o_errexit_false_ends": _ERREXIT + "set -o errexit, then false: the launch is never "
                                       "reached; packgate reaches it",
    "oracle/shebang_bash_e": _ERREXIT + "a `#!/bin/bash -e` shebang, then false: the launch is "
                             "never reached; packgate reaches it",
    "oracle/set_e_and_list_last": _ERREXIT + "the last command of `true && false` fails: the "
                                  "script ends; packgate reaches the launch",
    "oracle/set_e_pipefail_ends": _ERREXIT + "with pipefail, `false | true` fails and ends the "
                                  "script; packgate reaches the launch",
    "oracle/set_e_failing_subshell": "out of reach: set -e and `( exit 1 )` end the script, but "
                                     "issue 16 keeps a subshell's status unknown; packgate reaches "
                                     "the launch",
    "oracle/set_e_function_in_condition": _COND + "`if setup` where setup ends with an export "
                                          "returns 0 (set -e is suspended inside it, so its false "
                                          "does not end the script); packgate adds the no-branch "
                                          "path (PG007)",
    # -- paths that stop
    "oracle/exit_in_function": _STOP + "after `exit` inside a called function packgate judges the "
                               "end of the file with no variables set; bash exits with both gates "
                               "exported",
    "oracle/exit_before_launch": _STOP + "after an unconditional `exit 0` packgate judges the end "
                                 "of the file with no variables set; bash exits with BMR=1 exported "
                                 "(leak, no finding)",
    "oracle/exec_launcher": _STOP + "`exec torchrun` replaces the shell; packgate reaches the "
                            "second launch after it",
    "oracle/exec_env_then_nothing": _STOP + "`exec env ... torchrun` replaces the shell; packgate "
                                    "reaches the second launch after it",
    "oracle/set_u_unset_variable": _STOP + "set -u and a variable the script never sets end the "
                                   "script; packgate reaches the launch",
    # -- case fall-through
    "oracle/case_fallthrough": "case ;& not modelled: the first arm also runs the next arm's body "
                               "(both gates); packgate ends the arm (BMR only)",
    "oracle/case_fallthrough_both": "case ;& not modelled: the default arm runs both bodies; "
                                    "packgate takes each arm alone (PG007)",
    "oracle/case_continue_testing": "case ;;& not modelled: `packed` matches both patterns and "
                                    "runs both bodies; packgate stops at the first match",
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
    "oracle/env_i_clears": "`env -i PATH=... torchrun` not found as a launch (bash starts it with "
                           "no gates); packgate has no launch",
    "oracle/env_i_with_values": "`env -i PATH=... B=1 P=1 torchrun` not found as a launch; "
                                "packgate has no launch",
    "oracle/env_dash_clears": "`env - ... torchrun` not found as a launch; packgate has no launch",
    "oracle/env_split_string": "`env -S 'P=1 torchrun ...'` not found as a launch; packgate has "
                               "no launch",
    "oracle/exec_env_i": "`exec env -i ... torchrun` not found as a launch; packgate judges the end "
                         "of the file instead",
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
