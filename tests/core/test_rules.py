"""Every rule: its bad example fires, its good example is clean, its fix cleans the bad example."""

import shutil
import subprocess

import pytest

from packgate import Settings, analyze
from packgate.core.rules import CHECKS, RULES
from packgate.core.source import apply_edits

EN = Settings(lang="en")


def codes(text, **kw):
    return [f.code for f in analyze(text, settings=Settings(lang="en", **kw)).findings]


def bash_ok(text: str) -> bool:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    res = subprocess.run(["bash", "-n"], input=text.encode(), capture_output=True, timeout=30)
    return res.returncode == 0


def test_registry_matches_table():
    assert [r.code for r in RULES] == list(CHECKS)
    assert [r.code for r in RULES] == [f"PG00{i}" for i in range(1, 10)]
    names = [r.name for r in RULES]
    assert names == ["missing-companion", "dead-var", "micro-batch-size", "not-exported",
                     "invalid-value", "lost-export", "path-dependent", "overridden",
                     "unfollowed-source"]


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_bad_example_fires(rule):
    assert rule.code in codes(rule.bad)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_good_example_is_clean(rule):
    assert codes(rule.good) == []
    assert bash_ok(rule.good)


@pytest.mark.parametrize("rule", [r for r in RULES if r.fixes], ids=lambda r: r.code)
def test_preferred_fix_cleans_bad_example(rule):
    analysis = analyze(rule.bad, settings=EN)
    targets = [f for f in analysis.findings if f.code == rule.code]
    assert targets
    fix = next(x for x in targets[0].fixes if x.kind == "fix" and x.preferred)
    fixed = apply_edits(analysis.source.data, fix.edits).decode()
    assert rule.code not in codes(fixed), fixed
    assert bash_ok(fixed), fixed


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_finding_offers_both_disable_actions(rule):
    analysis = analyze(rule.bad, settings=EN)
    for f in analysis.findings:
        disables = [x for x in f.fixes if x.kind == "disable"]
        assert len(disables) == 2
        for x in disables:
            fixed = apply_edits(analysis.source.data, x.edits).decode()
            assert f.code not in codes(fixed), (x.description, fixed)
            assert bash_ok(fixed)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_fix_all_leaves_bad_example_valid_bash(rule):
    analysis = analyze(rule.bad, settings=EN)
    assert bash_ok(analysis.fixed_text())


def test_messages_in_each_language():
    bad = RULES[0].bad
    en = analyze(bad, settings=Settings(lang="en")).findings[0].message
    zh = analyze(bad, settings=Settings(lang="zh")).findings[0].message
    both = analyze(bad, settings=Settings(lang="both")).findings[0].message
    assert "leak" in en or "attend" in en
    assert "泄漏" in zh and "attend" not in zh
    assert en in both and zh in both


def test_messages_name_the_value_and_the_remedy():
    f = analyze(RULES[0].bad, settings=EN).findings[0]
    assert "'1'" in f.message and "Export OFFLINE_PACKED_DATA='1'" in f.message


def test_findings_carry_doc_links_and_positions():
    f = analyze(RULES[0].bad, settings=EN).findings[0]
    assert f.doc_url.startswith("https://") and f.doc_url.endswith("docs/rules/PG001.md")
    assert (f.line, f.column, f.end_line, f.end_column) == (2, 8, 2, 27)


def test_dead_var_is_tagged_unnecessary():
    f = next(f for f in analyze(RULES[1].bad, settings=EN).findings if f.code == "PG002")
    assert "unnecessary" in f.tags


# What the README says counts as a launch: each line below, after a PG001 setup, is the launch.
LAUNCH_FORMS = [
    "torchrun train.py", "deepspeed train.py", "srun python train.py", "mpirun -np 8 python train.py",
    "accelerate launch train.py", "python -m torch.distributed.run train.py", "python3 pretrain_train.py",
    "python aiak_training_llm/main.py", '"$TORCHRUN" train.py',
    "exec torchrun train.py", "nohup torchrun train.py", "time -p torchrun train.py",
    "command torchrun train.py", "builtin torchrun train.py", "stdbuf -o L torchrun train.py",
    "numactl -N 0 -m 0 torchrun train.py", "taskset -c 0-31 torchrun train.py",
    "timeout -s INT 72h torchrun train.py", "nice -n 10 torchrun train.py",
    "env OFFLINE_PACKING_BMR=0 torchrun train.py", "bash -c 'torchrun train.py'",
    "docker run -e OFFLINE_PACKED_DATA img torchrun train.py",
]


@pytest.mark.parametrize("line", LAUNCH_FORMS)
def test_every_launch_form_the_readme_names_is_a_launch(line):
    text = "export OFFLINE_PACKED_DATA=1\n" + line + "\n"
    analysis = analyze(text, settings=EN)
    line_start = len(b"export OFFLINE_PACKED_DATA=1\n")
    # a script without a launch is judged at its end: an empty span there, not a command
    launches = [s for s in analysis.launch_summaries if s.start >= line_start and s.end > s.start]
    assert len(launches) == 1, (line, analysis.launch_summaries)


def test_a_command_that_only_names_a_launcher_is_not_a_launch():
    analysis = analyze("export OFFLINE_PACKED_DATA=1\necho torchrun train.py\n", settings=EN)
    assert [(s.start, s.end) for s in analysis.launch_summaries] == [(len("export OFFLINE_PACKED_DATA=1\necho torchrun train.py"),) * 2]
