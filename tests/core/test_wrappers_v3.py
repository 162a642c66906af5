"""Issue 27's wrappers, nodes, here-documents and opaque inputs: the readers' transforms
(core/flow/environ.py), what a launch behind them sees, and the findings (PG006's wrapper
causes, PG009's unreadable inputs). The bash oracle checks the same constructs against bash
(tests/oracle/cases/w3_*.sh)."""

from __future__ import annotations

from packgate.core import gates as G
from packgate.core.engine import analyze
from packgate.core.text import apply_edits as apply_bytes
from packgate.core.flow import commands as C
from packgate.core.flow import environ as E
from packgate.core.parse import parse_bytes
from packgate.core.settings import Settings

EN = Settings(lang="en")
BOTH = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
TRAIN = "aiak_training_llm/train.py --micro-batch-size 1\n"


def apply_edits(text: str, edits: list) -> str:
    """The text with the edits applied (one fix's edits, several findings' distinct ones)."""
    unique = {(e.start, e.end, e.text): e for e in edits}
    return apply_bytes(text.encode(), unique.values()).decode()


def _cmd(text: bytes):
    cmd = parse_bytes(text).body.body[0]
    return cmd, [w.text or "" for w in cmd.words]


def _read(text: bytes):
    cmd, names = _cmd(text)
    return E.read(C.base_name(names[0]), names, cmd.words, 1), names


def _launcher(text: bytes) -> tuple:
    cmd, names = _cmd(text)
    return E.read_launcher(names[0], names, cmd.words, 1)


def _gates(text: str, path=None):
    """Per launch, per path: the gates' (kind, text)."""
    a = analyze(text, settings=EN, path=path)
    return [[{g: (p.gates[g].val.kind, p.gates[g].val.text) for g in G.GATES[:2]} for p in launch.paths]
            for launch in a.flow.launches], a


ON = ("known", "1")
UNSET = ("unset", "")


# ---------------------------------------------------------------- the readers


def test_sudo_resets_keeps_term_and_path_and_sets_its_assignments():
    (transforms, at), names = _read(b"sudo -u bob OFFLINE_PACKED_DATA=1 torchrun a.py\n")
    assert names[at] == "torchrun"
    assert type(transforms[0]) is E.Clear and transforms[0].cause is E.Cause.SUDO
    assert [t.name for t in transforms if type(t) is E.Pass] == list(G.SUDO_RESET_KEEPS)
    assert type(transforms[-1]) is E.SetVar


def test_sudo_preserve_env_keeps_everything_or_the_listed_names():
    (transforms, at), names = _read(b"sudo -E torchrun a.py\n")
    assert transforms == (E.KEEP,) and names[at] == "torchrun"
    (transforms, at), names = _read(b"sudo -HEu root torchrun a.py\n")
    assert transforms == (E.KEEP,) and names[at] == "torchrun"
    (transforms, _), _ = _read(b"sudo --preserve-env=OFFLINE_PACKING_BMR,X torchrun a.py\n")
    assert {t.name for t in transforms if type(t) is E.Pass} == {"TERM", "PATH", "OFFLINE_PACKING_BMR", "X"}


def test_xargs_keeps_the_environment_and_marks_where_its_input_goes():
    (transforms, at), names = _read(b"xargs -n 1 -P 2 -I{} torchrun a.py --micro-batch-size {}\n")
    assert names[at] == "torchrun" and transforms == (E.KEEP, E.InputArgs("{}"))
    (transforms, at), names = _read(b"xargs torchrun a.py\n")
    assert names[at] == "torchrun" and transforms == (E.KEEP, E.InputArgs(""))


def test_srun_export_none_list_and_all():
    assert _launcher(b"srun -N 2 torchrun a.py\n") == (E.KEEP,)
    none = _launcher(b"srun --export=NONE torchrun a.py\n")
    assert type(none[0]) is E.Clear and none[0].cause is E.Cause.SRUN
    listed = _launcher(b"srun --export OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA=1 torchrun a.py\n")
    assert E.Pass("OFFLINE_PACKING_BMR") in listed
    sets = [t for t in listed if type(t) is E.SetText]
    assert [(t.name, t.text) for t in sets] == [("OFFLINE_PACKED_DATA", "1")]
    everything = _launcher(b"srun --export=ALL,OFFLINE_PACKED_DATA=0 torchrun a.py\n")
    assert everything[0] is E.KEEP and [(t.name, t.text) for t in everything[1:]] == [("OFFLINE_PACKED_DATA", "0")]


def test_srun_export_value_offsets_point_at_the_value():
    text = b"srun --export=ALL,OFFLINE_PACKED_DATA=0 torchrun a.py\n"
    t = _launcher(text)[1]
    assert text[t.start:t.end] == b"0"


def test_mpirun_other_hosts_local_hosts_and_a_hostfile():
    remote = _launcher(b"mpirun -np 16 -H n1:8,n2:8 -x OFFLINE_PACKING_BMR python train.py\n")
    assert type(remote[0]) is E.Clear and remote[0].certain and E.Pass("OFFLINE_PACKING_BMR") in remote
    assert _launcher(b"mpirun -np 8 -H localhost:8 python train.py\n") == (E.KEEP,)
    maybe = _launcher(b"mpirun --hostfile hosts python train.py\n")
    assert type(maybe[0]) is E.Clear and not maybe[0].certain


def test_deepspeed_several_nodes_one_node_and_a_hostfile():
    for text in (b"deepspeed --num_nodes 2 train.py\n", b"deepspeed --include n1@n2 train.py\n",
                 b"deepspeed --force_multi train.py\n", b"deepspeed --hostfile h --num_nodes=3 train.py\n"):
        out = _launcher(text)
        assert type(out[0]) is E.Clear and out[0].certain and out[-1] is E.DEEPSPEED_ENV, text
        assert out[1] == E.PassPrefix(G.DEEPSPEED_EXPORT_PREFIXES)
    assert _launcher(b"deepspeed --num_gpus 8 train.py\n") == (E.KEEP,)
    assert not _launcher(b"deepspeed --hostfile h train.py\n")[0].certain


def test_env_unset_long_and_glued():
    (transforms, _), _ = _read(b"env --unset=A -uB torchrun a.py\n")
    assert [t.name for t in transforms] == ["A", "B"]


# ---------------------------------------------------------------- what the launch sees


def test_sudo_drops_the_exports_and_pg006_offers_preserve_env():
    text = BOTH + "sudo torchrun " + TRAIN
    gates, a = _gates(text)
    assert gates == [[{G.BMR: UNSET, G.PACKED: UNSET}]]
    found = [f for f in a.findings if f.code == "PG006"]
    assert len(found) == 2 and all("env_reset" in f.message for f in found)
    fixed = apply_edits(text, [e for f in found for x in f.fixes if x.kind == "fix" for e in x.edits])
    assert "sudo --preserve-env=OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA torchrun" in fixed
    gates, a = _gates(fixed)
    assert gates == [[{G.BMR: ON, G.PACKED: ON}]] and not [f for f in a.findings if f.severity == "error"]


def test_sudo_reset_explains_the_missing_gate_instead_of_pg001():
    gates, a = _gates("export OFFLINE_PACKING_BMR=1\nsudo OFFLINE_PACKED_DATA=1 torchrun " + TRAIN)
    assert gates == [[{G.BMR: UNSET, G.PACKED: ON}]]
    assert [f.code for f in a.findings if f.severity == "error"] == ["PG006"]


def test_a_launch_behind_a_wrapper_is_checked_there():
    _, a = _gates(BOTH + "nohup setsid sudo -E torchrun aiak_training_llm/train.py --micro-batch-size 4\n")
    assert [f.code for f in a.findings] == ["PG003"]
    gates, a = _gates(BOTH + "echo 2 | xargs -I{} torchrun aiak_training_llm/train.py --micro-batch-size {}\n")
    assert a.flow.launches[0].paths[0].mbs.kind == "unknown"
    assert [f.severity for f in a.findings if f.code == "PG003"] == ["information"]


def test_srun_list_leaves_a_gate_out_and_the_fix_adds_it():
    text = BOTH + "srun --export=PATH,OFFLINE_PACKING_BMR python " + TRAIN
    gates, a = _gates(text)
    assert gates == [[{G.BMR: ON, G.PACKED: UNSET}]]
    found = [f for f in a.findings if f.code == "PG006"]
    fixed = apply_edits(text, [e for f in found for x in f.fixes if x.kind == "fix" for e in x.edits])
    assert "--export=PATH,OFFLINE_PACKING_BMR,OFFLINE_PACKED_DATA python" in fixed
    assert _gates(fixed)[0] == [[{G.BMR: ON, G.PACKED: ON}]]


def test_srun_keeps_its_launch_and_findings_where_they_were():
    _, a = _gates(BOTH + "srun -p gpu torchrun aiak_training_llm/train.py --micro-batch-size 2\n")
    assert a.flow.launches[0].label == "srun" and [f.code for f in a.findings] == ["PG003"]


def test_mpirun_remote_hosts_need_x_and_a_hostfile_is_information():
    text = BOTH + "mpirun -H n1,n2 -x OFFLINE_PACKING_BMR python " + TRAIN
    gates, a = _gates(text)
    assert gates == [[{G.BMR: ON, G.PACKED: UNSET}]]
    fixed = apply_edits(text, [e for f in a.findings if f.code == "PG006" for x in f.fixes if x.kind == "fix"
                               for e in x.edits])
    assert "mpirun -x OFFLINE_PACKED_DATA -H" in fixed and _gates(fixed)[0] == [[{G.BMR: ON, G.PACKED: ON}]]
    gates, a = _gates(BOTH + "mpirun --hostfile hosts python " + TRAIN)
    assert gates == [[{G.BMR: ON, G.PACKED: ON}]]
    assert {f.severity for f in a.findings} == {"information"}


def test_deepspeed_nodes_read_the_env_file_beside_the_script(tmp_path):
    script = tmp_path / "run.sh"
    text = BOTH + "deepspeed --num_nodes 2 " + TRAIN
    gates, a = _gates(text, path=str(script))
    assert gates == [[{G.BMR: UNSET, G.PACKED: UNSET}]]
    found = [f for f in a.findings if f.code == "PG006"]
    assert len(found) == 2 and all(f.severity == "error" and ".deepspeed_env beside the script" in f.message
                                   for f in found)
    (tmp_path / ".deepspeed_env").write_text("OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n")
    gates, a = _gates(text, path=str(script))
    assert gates == [[{G.BMR: ON, G.PACKED: ON}]] and not a.findings


def test_deepspeed_nodes_where_the_working_folder_is_unknown_are_information(tmp_path):
    gates, a = _gates("cd /workspace\n" + BOTH + "deepspeed --num_nodes 2 " + TRAIN, path=str(tmp_path / "r.sh"))
    assert gates == [[{G.BMR: ("unknown", ""), G.PACKED: ("unknown", "")}]]
    assert {f.severity for f in a.findings} == {"information"}


# ---------------------------------------------------------------- here-documents


def test_a_here_document_is_the_commands_stdin():
    body = parse_bytes(b"bash <<'EOF'\necho $A\nEOF\nbash <<EOF\necho $A\nEOF\n").body.body
    assert body[0].stdin.quote == "'" and body[0].stdin.text == "echo $A\n"
    assert body[1].stdin.quote == '"' and body[1].stdin.text is None


def test_here_document_child_sees_exports_and_the_parent_expands_an_unquoted_one():
    head = "export OFFLINE_PACKING_BMR=1\nPACK=1\n"
    quoted = head + "bash <<'EOF'\nexport OFFLINE_PACKED_DATA=$PACK\ntorchrun " + TRAIN + "EOF\n"
    gates, _ = _gates(quoted)
    assert gates[0][0][G.PACKED][0] != "known"  # PACK was not exported: the child's own (empty or the caller's)
    unquoted = head + "bash <<EOF\nexport OFFLINE_PACKED_DATA=$PACK\ntorchrun " + TRAIN + "EOF\n"
    assert _gates(unquoted)[0] == [[{G.BMR: ON, G.PACKED: ON}]]
    unexported = "export OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\nbash <<'EOF'\ntorchrun " + TRAIN + "EOF\n"
    gates, a = _gates(unexported)
    assert gates == [[{G.BMR: ON, G.PACKED: UNSET}]] and "PG001" in {f.code for f in a.findings}


# ---------------------------------------------------------------- opaque inputs


def _codes(a) -> dict:
    return {f.code: f.severity for f in a.findings}


def test_opaque_inputs_leave_the_gates_unknown_and_say_so_at_information():
    for line in ("source <(curl -s http://example.com/env.sh)\n", 'source "$ENV_FILE"\n',
                 "command export $(grep -v '^#' .env | xargs)\n",
                 "while IFS== read -r k v; do command export \"$k=$v\"; done < pack.conf\n",
                 "echo 'export OFFLINE_PACKED_DATA=1' > gen.sh\nsource ./gen.sh\n"):
        gates, a = _gates("export OFFLINE_PACKING_BMR=1\n" + line + "torchrun " + TRAIN, path="/nowhere/x.sh")
        assert gates[0][-1][G.PACKED][0] == "unknown", line
        assert {s for s in _codes(a).values()} == {"information"} and "PG009" in _codes(a), (line, a.findings)


def test_a_file_written_at_run_time_has_its_own_message(tmp_path):
    (tmp_path / "gen.sh").write_text("export OFFLINE_PACKED_DATA=1\n")  # stale: the script rewrites it
    text = "export OFFLINE_PACKING_BMR=1\nprintf 'export OFFLINE_PACKED_DATA=0\\n' > gen.sh\nsource ./gen.sh\n"
    a = analyze(text + "torchrun " + TRAIN, settings=EN, path=str(tmp_path / "run.sh"))
    [f] = [f for f in a.findings if f.code == "PG009"]
    assert "writes ./gen.sh itself" in f.message


def test_a_missing_file_the_script_does_not_write_still_sets_nothing(tmp_path):
    a = analyze("export OFFLINE_PACKING_BMR=1\nsource ./cluster_env.sh\ntorchrun " + TRAIN, settings=EN,
                path=str(tmp_path / "run.sh"))
    assert {f.code for f in a.findings} == {"PG001", "PG009"}


def test_an_export_list_packgate_cannot_read_leaves_the_gates_unknown():
    gates, a = _gates(BOTH + 'srun --export="$EXPORTS" python ' + TRAIN)
    assert gates == [[{G.BMR: ("unknown", ""), G.PACKED: ("unknown", "")}]]
    assert not [f for f in a.findings if f.severity == "error"]


def test_a_wrapper_behind_a_clear_passes_only_what_reached_it():
    # env -i first: sudo --preserve-env cannot bring back what env already removed
    gates, _ = _gates(BOTH + "env -i PATH=/bin sudo --preserve-env=OFFLINE_PACKING_BMR torchrun " + TRAIN)
    assert gates == [[{G.BMR: UNSET, G.PACKED: UNSET}]]
    # a prefix reaches sudo's environment, and a listed name carries it through
    gates, _ = _gates("OFFLINE_PACKING_BMR=1 sudo --preserve-env=OFFLINE_PACKING_BMR torchrun " + TRAIN)
    assert gates == [[{G.BMR: ON, G.PACKED: UNSET}]]


def test_a_child_shell_behind_sudo_starts_from_the_reset_environment():
    gates, _ = _gates(BOTH + "sudo bash -c 'torchrun aiak_training_llm/train.py --micro-batch-size 1'\n")
    assert gates == [[{G.BMR: UNSET, G.PACKED: UNSET}]]
    gates, _ = _gates(BOTH + "sudo -E bash -c 'torchrun aiak_training_llm/train.py --micro-batch-size 1'\n")
    assert gates == [[{G.BMR: ON, G.PACKED: ON}]]


def test_srun_all_with_a_value_for_a_name_this_shell_exports_is_not_certain():
    # srun's manual: with ALL, the user's environment takes precedence over the values given
    gates, a = _gates("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0\n"
                      "srun --export=ALL,OFFLINE_PACKED_DATA=1 python " + TRAIN)
    assert gates == [[{G.BMR: ON, G.PACKED: ("unknown", "")}]]
    assert not [f for f in a.findings if f.severity == "error"]


WRAPPED = BOTH + """echo one
sudo torchrun aiak_training_llm/train.py --micro-batch-size 1
echo two
mpirun -H a,b -x OFFLINE_PACKING_BMR python aiak_training_llm/train.py --micro-batch-size 1
bash <<'XX'
torchrun aiak_training_llm/train.py --micro-batch-size 2
XX
echo three
srun --export=ALL,OFFLINE_PACKED_DATA=0 python aiak_training_llm/train.py --micro-batch-size 1
source <(curl x)
echo four
deepspeed --num_nodes 2 aiak_training_llm/train.py --micro-batch-size 1
"""


def test_every_checkpoint_gives_the_walk_from_the_top(monkeypatch):
    """An editor's walk taken over from a checkpoint says what a walk from the top says."""
    from packgate.core.records import replace

    from packgate.core import engine
    from packgate.core.flow import incremental
    monkeypatch.setattr(incremental, "CHECKPOINTS", 64)

    def facts(a):  # the made assignments (`--export=ALL,X=0`) are new objects on each walk
        return ([(f.code, f.start, f.end, f.severity, f.message, tuple(x.edits for x in f.fixes))
                 for f in a.findings], a.launch_summaries,
                [[{g: (x.val, x.dropped and x.dropped[1:]) for g, x in p.gates.items()} for p in launch.paths]
                 for launch in a.flow.launches])

    first = analyze(WRAPPED, settings=EN, previous=engine.Previous())
    resume, script = first.walk.resume, first.script
    assert resume.points
    for point in resume.points:
        partial = replace(resume, body=resume.body[:point.index])
        again = analyze(WRAPPED, settings=EN, previous=engine.Previous(script.tree, script, partial, []))
        assert again.walk.resumed_at == point.index and facts(again) == facts(first), point.index
