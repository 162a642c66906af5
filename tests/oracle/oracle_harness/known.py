"""Known disagreements between bash and packgate: case key -> why packgate does not agree.
Each runs as a strict xfail: when a fix makes one agree, its test passes, the suite turns red,
and the entry goes. Entries marked "out of reach" are outside what issue 16 models (a status it
keeps unknown, a grammar limit, a variable the walk does not track): each says why."""

KNOWN: dict = {
    # -- text bash reads differently
    "golden/crlf": "CRLF line ends: bash keeps the \\r (BMR is '1\\r', and `\\` before \\r is no "
                   "line continuation, so --micro-batch-size never reaches torchrun); packgate reads "
                   "the file as if the line ends were LF",
    # -- the caller's environment
    "golden/param_assign_default_unexported": "${X:=d} of a variable the caller exported keeps it "
                                              "exported (bash hands the caller's 1 to the launch); "
                                              "packgate says unset",
    # -- statuses issue 16 keeps unknown
    "oracle/cmdsubst_status_true": "out of reach: the status of `X=$(true)` is the substitution's "
                                   "(0); issue 16 keeps it unknown, so packgate forks (PG007)",
    "oracle/subshell_exit_status_and": "out of reach: the status of `( true )` is 0; issue 16 keeps "
                                       "a subshell's status unknown, so packgate forks (PG007)",
    "oracle/while_counter_loop": "out of reach: `while [ $n -lt 2 ]` on a counter the script set "
                                 "always runs; issue 16 keeps tests unknown, so packgate adds the "
                                 "loop-skipped path (PG007)",
    "oracle/correlated_reassigned": "out of reach: a variable only tests read is not tracked (the "
                                    "walk steps over its assignments, which keeps paths few), so after "
                                    "X=\"\" the test on X is unknown again and packgate keeps both sides "
                                    "(PG007 where bash always gives BMR unset)",
    "oracle/negated_group": "out of reach: tree-sitter-bash reads `! { false; }` as a command named "
                            "`{`, so the negation and the group are lost; packgate forks the && after it",
    # -- set -e
    "oracle/set_e_pipefail_ends": "out of reach: with pipefail, `false | true` fails and ends the "
                                  "script, but a pipeline stage's status is kept unknown (as a "
                                  "subshell's); packgate reaches the launch",
    "oracle/set_e_failing_subshell": "out of reach: set -e and `( exit 1 )` end the script, but "
                                     "issue 16 keeps a subshell's status unknown; packgate reaches "
                                     "the launch",
}


# `packgate launches` against bash (launchside.py): case key -> the construct whose argv or
# environment the view states differently from what bash hands the launch. Strict xfails too.
KNOWN_LAUNCH_VIEW: dict = {
    "golden/crlf": "CRLF line ends: bash keeps the \\r, so `\\` before it continues no line and "
                   "torchrun gets a lone '\\r' word instead of --micro-batch-size 1; packgate reads the "
                   "line ends as LF",
}
