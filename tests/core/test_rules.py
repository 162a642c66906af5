"""Every rule: its bad example fires, its good example is clean, its fix cleans the bad example."""

import ast
import inspect
import os
import re
import shutil
import subprocess

import pytest

from packgate import Settings, analyze, lint
from packgate.core.rules import CHECKS, MODULES, RULES, rule_by_key
from packgate.core.records import replace
from packgate.core.rules.rule import FixText, Text
from packgate.core.text import apply_edits

EN = Settings(lang="en")


def codes(text, **kw):
    return [f.code for f in analyze(text, settings=Settings(lang="en", **kw)).findings]


def example(rule, text: str, tmp_path, settings=EN):
    """The analysis of one of a rule's examples: in the workspace of training code the rule
    states (Rule.workspace, written below tmp_path with a project root) when it has one."""
    if not rule.workspace:
        return analyze(text, settings=settings)
    root = tmp_path / "workspace"
    if not root.exists():
        for name, body in (("pyproject.toml", '[project]\nname = "example"\n'), *rule.workspace):
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(body, encoding="utf-8")
    script = root / "example.sh"
    script.write_text(text, encoding="utf-8")
    return analyze(text, settings=settings, path=str(script))


def example_codes(rule, text: str, tmp_path) -> list:
    return [f.code for f in example(rule, text, tmp_path).findings]


def bash_ok(text: str) -> bool:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    res = subprocess.run(["bash", "-n"], input=text.encode(), capture_output=True, timeout=30)
    return res.returncode == 0


# a released rule keeps its code and name for good (directives and CI settings spell them); a
# new rule takes the next code
RELEASED = {"PG001": "missing-companion", "PG002": "dead-var", "PG003": "micro-batch-size",
            "PG004": "not-exported", "PG005": "invalid-value", "PG006": "lost-export",
            "PG007": "path-dependent", "PG008": "overridden", "PG009": "unfollowed-source",
            "PG010": "unknown-option", "PG011": "option-value"}  # ../shared/CONTRACT.md fixes these


# CONTRACT.md fixes the launch contract's codes and names (PG010-PG014)
RESERVED = {"PG010": "unknown-option", "PG011": "option-value", "PG012": "unread-var",
            "PG013": "misread-value", "PG014": "contract"}


def test_registry_matches_table():
    assert [r.code for r in RULES] == list(CHECKS)
    codes = [r.code for r in RULES]
    assert codes == sorted(codes) and len(set(codes)) == len(codes)
    assert all(re.fullmatch(r"PG\d{3}", c) for c in codes)
    names = {r.code: r.name for r in RULES}
    assert {code: names.get(code) for code in RELEASED} == RELEASED
    assert {code: name for code, name in names.items() if code in RESERVED} == \
        {code: name for code, name in RESERVED.items() if code in names}
    assert len(set(names.values())) == len(RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_bad_example_fires(rule, tmp_path):
    assert rule.code in example_codes(rule, rule.bad, tmp_path)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_good_example_is_clean(rule, tmp_path):
    assert example_codes(rule, rule.good, tmp_path) == []
    assert bash_ok(rule.good)


@pytest.mark.parametrize("rule", [r for r in RULES if r.workspace], ids=lambda r: r.code)
def test_an_example_that_needs_training_code_is_silent_without_it(rule):
    """Rule.workspace is what its examples rest on: without that code they prove nothing."""
    assert rule.code not in codes(rule.bad)
    assert "train.py" in rule.bad
    # the rule's page shows the code the examples are checked against
    from packgate.core.docs import rule_page
    page = rule_page(rule, "en")
    assert all(name in page and text.strip().splitlines()[0] in page for name, text in rule.workspace)


@pytest.mark.parametrize("rule", [r for r in RULES if r.fixes], ids=lambda r: r.code)
def test_preferred_fix_cleans_bad_example(rule, tmp_path):
    analysis = example(rule, rule.bad, tmp_path)
    targets = [f for f in analysis.findings if f.code == rule.code]
    assert targets
    fix = next(x for x in targets[0].fixes if x.kind == "fix" and x.preferred)
    fixed = apply_edits(analysis.source.data, fix.edits).decode()
    assert rule.code not in example_codes(rule, fixed, tmp_path), fixed
    assert bash_ok(fixed), fixed


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_finding_offers_both_disable_actions(rule, tmp_path):
    analysis = example(rule, rule.bad, tmp_path)
    for f in analysis.findings:
        disables = [x for x in f.fixes if x.kind == "disable"]
        assert len(disables) == 2
        for x in disables:
            fixed = apply_edits(analysis.source.data, x.edits).decode()
            assert f.code not in example_codes(rule, fixed, tmp_path), (x.description, fixed)
            assert bash_ok(fixed)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_fix_all_leaves_bad_example_valid_bash(rule, tmp_path):
    analysis = example(rule, rule.bad, tmp_path)
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


# -- every message and fix key a check names exists, and every one a rule declares is used ------

def _keys_named(func: ast.AST, arg: ast.AST):
    """The literal keys an argument can be: a string, or a name every assignment in the function
    gives a string (directly or through `a if c else b`); None when it is computed."""
    def literals(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.IfExp):
            body, other = literals(node.body), literals(node.orelse)
            return body | other if body is not None and other is not None else None
        return None
    if isinstance(arg, ast.Name):
        found: set = set()
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == arg.id
                                                    for t in node.targets):
                got = literals(node.value)
                if got is None:
                    return None
                found |= got
        return found or None
    return literals(arg)


# keys a check computes from a fact; test_every_declared_text_is_produced shows each of them
COMPUTED_KEYS = {
    ("PG001", "message"): "the verdict of the path, and `-container` when the launch runs in one",
    ("PG005", "message"): "what _judge returns for the variable",
    ("PG006", "message"): "the kind of child process the export ran in",
    ("PG009", "message"): "why the flow did not follow the source",
}


@pytest.mark.parametrize("code", list(MODULES))
def test_every_key_a_check_names_exists(code):
    module = MODULES[code]
    tree = ast.parse(inspect.getsource(module))
    calls = 0
    for func in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        for call in ast.walk(func):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr in ("message", "fix") and len(call.args) >= 2
                    and isinstance(call.args[0], ast.Name) and call.args[0].id == "RULE"):
                continue
            calls += 1
            table = module.RULE.messages if call.func.attr == "message" else module.RULE.fixes
            keys = _keys_named(func, call.args[1])
            if keys is None:
                assert (code, call.func.attr) in COMPUTED_KEYS, \
                    f"{code} line {call.lineno}: a computed key needs an entry in COMPUTED_KEYS"
                continue
            missing = keys - set(table)
            assert not missing, f"{code} line {call.lineno}: no {call.func.attr} {sorted(missing)}"
    assert calls, f"{code}: no ctx.message(RULE, ...) found; the check names its texts that way"


def _template_pattern(template: str) -> re.Pattern:
    """A regex that a text rendered from template matches, whatever the fields hold."""
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile(".+?".join(re.escape(p) for p in parts), re.S)


def _which(texts: dict, rendered: str) -> set:
    return {k for k, t in texts.items() if _template_pattern(t.en).fullmatch(rendered)}


LAUNCH = "torchrun train.py --micro-batch-size 1\n"
BOTH = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
# (script, the code, the message key, the fix keys it offers): one row for each text of each rule
PRODUCING = [
    ("export OFFLINE_PACKING_BMR=1\n" + LAUNCH, "PG001", "leak", {"insert", "turn-off"}),
    ("export OFFLINE_PACKED_DATA=1\n" + LAUNCH, "PG001", "corrupt", {"insert", "turn-off"}),
    ("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=0\n" + LAUNCH, "PG001", "leak",
     {"set", "turn-off"}),
    ("export OFFLINE_PACKED_DATA=1\ndocker run -e OFFLINE_PACKING_BMR=1 img " + LAUNCH, "PG001",
     "leak-container", {"pass", "turn-off"}),
    ("docker run -e OFFLINE_PACKED_DATA=1 img " + LAUNCH, "PG001", "corrupt-container",
     {"pass", "turn-off"}),
    ("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=$(cat packed.flag)\n" + LAUNCH, "PG001",
     "unknown", set()),
    (BOTH + 'while read -r k v; do printf -v "$k" %s "$v"; done < pack.conf\n' + LAUNCH, "PG009",
     "assigned", set()),
    (BOTH + 'for k in $(cat off.list); do unset "$k"; done\n' + LAUNCH, "PG009", "unset", set()),
    (BOTH + 'f() { local "$1=0"; ' + LAUNCH.strip() + '; }\nf "$GATE"\n', "PG009", "local", set()),
    ("export OFFLINE_PACKING_VQA=1\n" + BOTH + LAUNCH, "PG002", "dead", {"remove"}),
    (BOTH + "torchrun train.py --micro-batch-size 4\n", "PG003", "value", {"one"}),
    (BOTH + 'MBS="${4:-4}"\ntorchrun train.py --micro-batch-size "$MBS"\n', "PG003", "default", {"one"}),
    (BOTH + 'torchrun train.py --micro-batch-size "$MBS"\n', "PG003", "unknown", set()),
    ("export OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n" + LAUNCH, "PG004", "plain", {"export"}),
    ("export OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH, "PG005", "value", {"value"}),
    ("export MEGATRON_LOGGING_LEVEL=INFO\n" + LAUNCH, "PG005", "level", {"value"}),
    ("export SCATTER_BEFORE_PATCH_EMBED=true\n" + LAUNCH, "PG005", "string", {"value"}),
    ('export OFFLINE_PACKING_BMR="${SOME_VAR}"\nexport OFFLINE_PACKED_DATA=1\n' + LAUNCH, "PG005", "caller", set()),
    ("export OFFLINE_PACKING_BMR=1 & export OFFLINE_PACKED_DATA=1\n" + LAUNCH, "PG006", "background",
     {"split"}),
    ("export OFFLINE_PACKING_BMR=1\n(export OFFLINE_PACKED_DATA=1)\n" + LAUNCH, "PG006", "subshell",
     {"split"}),
    ("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1 | cat\n" + LAUNCH, "PG006", "pipeline",
     set()),
    ("export OFFLINE_PACKING_BMR=1\nX=$(export OFFLINE_PACKED_DATA=1)\n" + LAUNCH, "PG006", "cmdsubst",
     set()),
    ("export OFFLINE_PACKING_BMR=1\nbash -c 'export OFFLINE_PACKED_DATA=1'\n" + LAUNCH, "PG006", "child",
     set()),
    (BOTH + "sudo " + LAUNCH, "PG006", "sudo", {"preserve"}),
    (BOTH + "srun --export=PATH,OFFLINE_PACKING_BMR " + LAUNCH, "PG006", "srun", {"export-list"}),
    (BOTH + "srun --export=NONE " + LAUNCH, "PG006", "srun-none", {"export-list"}),
    (BOTH + "mpirun -H node1,node2 -np 16 " + LAUNCH, "PG006", "mpirun", {"send"}),
    (BOTH + "mpirun --hostfile hosts -np 16 " + LAUNCH, "PG006", "mpirun-maybe", set()),
    (BOTH + "deepspeed --hostfile hosts train.py --micro-batch-size 1\n", "PG006", "deepspeed-maybe", set()),
    ('if [ "$S" = 2 ]; then\n' + BOTH + "fi\nexport OFFLINE_PACKING_BMR=1\n" + LAUNCH, "PG007", "paths",
     set()),
    ("export OFFLINE_PACKING_BMR=0\n" + BOTH + LAUNCH, "PG008", "overwritten", {"remove"}),
    ("export OFFLINE_PACKING_BMR=0\nunset OFFLINE_PACKING_BMR\n" + LAUNCH, "PG008", "unset", {"remove"}),
    ('source "$ENV"\n' + LAUNCH, "PG009", "dynamic", set()),
    ("# packgate profile=ov2\nexport CUDA_DEVICE_MAX_CONNECTIONS=8\ntorchrun train.py --overlap-grad-reduce\n",
     "PG014", "broken", {"set"}),
    ("# packgate profile=ov2\ntorchrun train.py --overlap-grad-reduce\n", "PG014", "caller", {"prefix"}),
    ("export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128\n"
     "export PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72\n" + LAUNCH, "PG008", "list", {"join"}),
    ("export HF_HOME=/a\nexport HF_HOME=/b\n" + LAUNCH, "PG008", "overwritten", {"remove"}),
    ("source <(curl -s http://example.com/env.sh)\n" + LAUNCH, "PG009", "process", set()),
    ("command export $(grep -v '^#' .env | xargs)\n" + LAUNCH, "PG009", "computed", set()),
]

# the training code the rows below are checked against (rules that read the workspace's code)
TRAINING_CODE = (
    ("pkg/models/vision.py", 'import os\n\nSTRICT = int(os.environ.get("VISION_STRICT", "0"))\n'
     'if os.environ.get("VISION_DEBUG"):\n    print("debug")\n'
     'assert os.environ.get("VISION_MODE", "fast") in ("fast", "exact")\n'
     'TRACK = os.environ.get("VISION_TRACK", "0") == "1"\n'),
    ("pkg/data/loader.py", 'import os\n\n\ndef workers():\n    return int(os.environ["LOADER_WORKERS"])\n'),
)
CODE_PRODUCING = [
    ("export VISION_STRICT=yes\n" + LAUNCH, "PG005", "startup", {"value"}),
    ("export LOADER_WORKERS=many\n" + LAUNCH, "PG005", "worker", set()),
    ("export VISION_TRAK=1\n" + LAUNCH, "PG012", "typo", {"rename"}),
    ("export VISION_SPEED=1\n" + LAUNCH, "PG012", "family", set()),
    ("export VISION_TRACK=true\n" + LAUNCH, "PG013", "off", {"value"}),
    ("export VISION_DEBUG=0\n" + LAUNCH, "PG013", "on", set()),
    ("export VISION_MODE=slow\n" + LAUNCH, "PG013", "choice", set()),
]


def _produced(text: str, code: str, path=None, loader=None):
    kw = {} if loader is None else {"loader": loader}
    found = [f for f in analyze(text, settings=EN, path=path, **kw).findings if f.code == code]
    assert found, (code, text)
    return found


@pytest.mark.parametrize("text,code,key,fixes", PRODUCING, ids=lambda v: v if isinstance(v, str) and
                         len(v) < 20 else None)
def test_each_text_is_produced(text, code, key, fixes):
    rule = rule_by_key(code)
    found = _produced(text, code)
    keys = set().union(*(_which(rule.messages, f.message) for f in found))
    assert key in keys, [f.message for f in found]
    made = {k for f in found for x in f.fixes if x.kind == "fix" for k in _which(rule.fixes, x.description)}
    assert made == fixes, [x.description for f in found for x in f.fixes]


@pytest.mark.parametrize("text,code,key,fixes", CODE_PRODUCING, ids=lambda v: v if isinstance(v, str) and
                         len(v) < 20 else None)
def test_each_text_about_the_code_is_produced(text, code, key, fixes, tmp_path):
    rule = rule_by_key(code)
    workspace = replace(rule, workspace=TRAINING_CODE)
    found = [f for f in example(workspace, text, tmp_path).findings if f.code == code]
    assert found, (code, text)
    keys = set().union(*(_which(rule.messages, f.message) for f in found))
    assert key in keys, [f.message for f in found]
    made = {k for f in found for x in f.fixes if x.kind == "fix" for k in _which(rule.fixes, x.description)}
    assert made == fixes, [x.description for f in found for x in f.fixes]


def _sourcing_rows(tmp_path) -> list:
    """The PG009 keys that need files: (script text, path, key)."""
    (tmp_path / "self.sh").write_text("source ./self.sh\n")
    chain = tmp_path / "deep"
    chain.mkdir()
    for i in range(12):
        (chain / f"s{i}.sh").write_text(f"source ./s{i + 1}.sh\n")
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / "pipe.sh")
    return [
        ("source ./self.sh\n" + LAUNCH, str(tmp_path / "self.sh"), "cycle"),
        ("source ./s0.sh\n" + LAUNCH, str(chain / "main.sh"), "depth"),
        ("source ./pipe.sh\n" + LAUNCH, str(tmp_path / "fifo" / "main.sh"), "refused"),
    ]


def test_sourcing_texts_are_produced(tmp_path):
    rule = rule_by_key("PG009")
    for text, path, key in _sourcing_rows(tmp_path):
        found = _produced(text, "PG009", path=path)
        assert key in set().union(*(_which(rule.messages, f.message) for f in found)), \
            (key, [f.message for f in found])
    # a loader but no file name: a relative path has nothing to be relative to
    found = _produced("source ./env.sh\n" + LAUNCH, "PG009", loader=lambda p: (None, "unused"))
    assert "relative" in set().union(*(_which(rule.messages, f.message) for f in found))


# the launch-contract texts need training code: (files of the workspace, script, code, key, fixes)
CONTRACT_CODE = {
    "pyproject.toml": "",
    "strict.py": "import argparse\np = argparse.ArgumentParser(allow_abbrev=False)\n"
                 "p.add_argument('--seq-length', type=int)\np.add_argument('--micro-batch-size', type=int)\n"
                 "p.add_argument('--attention-backend', choices=['flash', 'fused'])\np.parse_args()\n",
    "loose.py": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--seq-length', type=int)\n"
                "p.add_argument('--seq-parallel', action='store_true')\np.parse_args()\n",
    "bare.py": "print('its parser is built elsewhere')\n",
}
CONTRACT_PRODUCING = [
    ("torchrun strict.py --image-resolution 1000\n", "PG010", "undefined", set()),
    ("torchrun strict.py --micro-batch-sise 1\n", "PG010", "undefined", {"closest"}),
    ("torchrun strict.py --seq-len 8192\n", "PG010", "refused", {"full"}),
    ("torchrun loose.py --seq 8192\n", "PG010", "ambiguous", set()),
    ("torchrun bare.py --image-resolution 1000\n", "PG010", "union", set()),
    ("torchrun strict.py --seq-length 8k\n", "PG011", "type", set()),
    ("torchrun strict.py --attention-backend flashy\n", "PG011", "choice", set()),
    ("torchrun strict.py --micro-batch-size --seq-length 8\n", "PG011", "missing", set()),
    ("torchrun loose.py --seq-parallel=1\n", "PG011", "flag", set()),
]


def test_contract_texts_are_produced(tmp_path):
    for name, body in CONTRACT_CODE.items():
        (tmp_path / name).write_text(body)
    for text, code, key, fixes in CONTRACT_PRODUCING:
        rule = rule_by_key(code)
        found = _produced(text, code, path=str(tmp_path / "launch.sh"))
        assert key in set().union(*(_which(rule.messages, f.message) for f in found)), \
            (key, [f.message for f in found])
        made = {k for f in found for x in f.fixes if x.kind == "fix" for k in _which(rule.fixes, x.description)}
        assert made == fixes, (text, [x.description for f in found for x in f.fixes])


def test_every_declared_text_is_produced():
    """No rule declares a message or fix that no script produces (the rows above show each)."""
    made = {(code, "message", key) for _, code, key, _ in PRODUCING + CODE_PRODUCING + CONTRACT_PRODUCING}
    made |= {(code, "fix", k) for _, code, _, fixes in PRODUCING + CODE_PRODUCING + CONTRACT_PRODUCING for k in fixes}
    made |= {("PG009", "message", k) for k in ("cycle", "depth", "refused", "relative")}
    # a rule of one message produces it where its bad example fires (test_bad_example_fires)
    made |= {(r.code, "message", k) for r in RULES if len(r.messages) == 1 for k in r.messages}
    made |= {("PG006", "message", "deepspeed"), ("PG009", "message", "written")}  # test_wrappers_v3.py
    made |= {("PG006", "fix", "env-file")}  # a file beside the script: test_pg006_env_file.py
    declared = {(r.code, "message", k) for r in RULES for k in r.messages}
    declared |= {(r.code, "fix", k) for r in RULES for k in r.fixes}
    assert declared == made


def test_english_and_chinese_texts_fill_the_same_fields():
    with pytest.raises(ValueError, match="different fields"):
        Text("{name} is set", "已设置").validate()
    with pytest.raises(ValueError, match="concrete description"):
        FixText("Export {name}", "导出 {name}", doc_en="Export {name}", doc_zh="导出它").validate()


def test_every_rule_text_is_valid():
    """What Rule.validate checks (a message a Text, a fix a FixText, both languages filling the
    same fields, concrete fix descriptions) holds for every rule: checked here, not on import."""
    for rule in RULES:
        rule.validate()
    with pytest.raises(TypeError, match="must be a FixText"):
        replace(RULES[0], fixes={"x": Text("a", "甲")}).validate()


def test_container_launch_names_the_missing_docker_e():
    """examples/docker_launch.sh exports the batch gate on the host; the container never sees it."""
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "examples" / "docker_launch.sh"
    analysis = analyze(path.read_text(encoding="utf-8"), settings=EN)
    [f] = analysis.findings
    assert f.code == "PG001" and "not set at" not in f.message
    assert "OFFLINE_PACKED_DATA is only exported on the host, and docker run does not pass it (no -e)" in f.message
    assert f.message.endswith("Add -e OFFLINE_PACKED_DATA to docker run, or turn OFFLINE_PACKING_BMR off")
    host = [r for r in f.related if "on the host" in r.message]
    assert [analysis.source.line_of(r.start) + 1 for r in host] == [4]
    fix = next(x for x in f.fixes if x.preferred)
    assert fix.description == "Add -e OFFLINE_PACKED_DATA to docker run"
    fixed = apply_edits(analysis.source.data, fix.edits).decode()
    assert codes(fixed) == []
    zh = analyze(path.read_text(encoding="utf-8"), settings=Settings(lang="zh")).findings[0]
    assert "只在宿主机上导出" in zh.message and "-e OFFLINE_PACKED_DATA" in zh.message


def test_container_launch_without_the_gate_anywhere():
    text = "docker run -e OFFLINE_PACKING_BMR=1 img torchrun train.py --micro-batch-size 1\n"
    [f] = analyze(text, settings=EN).findings
    assert "OFFLINE_PACKED_DATA is not set there" in f.message and "Add -e OFFLINE_PACKED_DATA='1'" in f.message
    assert next(x for x in f.fixes if x.preferred).description == "Add -e OFFLINE_PACKED_DATA=1 to docker run"


@pytest.mark.parametrize("host", ["export OFFLINE_PACKED_DATA=0\n", "export OFFLINE_PACKED_DATA\n",
                                  "export OFFLINE_PACKED_DATA=${PACK}\n"])
def test_container_fix_gives_the_value_when_the_host_does_not_turn_it_on(host):
    """Was a bug: with the batch gate exported on the host as 0 (or empty, or unknown), the fix
    added `-e OFFLINE_PACKED_DATA`, which passes the host's value: the leak stayed."""
    text = ("export OFFLINE_PACKING_BMR=1\n" + host +
            "docker run -e OFFLINE_PACKING_BMR img torchrun train.py --micro-batch-size 1\n")
    analysis = analyze(text, settings=Settings(lang="en", profile="ov2"))
    [f] = [x for x in analysis.findings if x.code == "PG001"]
    assert "Add -e OFFLINE_PACKED_DATA='1' to docker run" in f.message
    fix = next(x for x in f.fixes if x.preferred)
    assert fix.description == "Add -e OFFLINE_PACKED_DATA=1 to docker run"
    fixed = apply_edits(analysis.source.data, fix.edits).decode()
    assert "PG001" not in codes(fixed)


@pytest.mark.parametrize("value", ["$'tr\\nue'", "\"tr\nue\"", "$'1\\r'", "$'o\\tn'", "\"'1\n'\""])
def test_values_with_control_characters_stay_on_one_line(value, tmp_path, capsys):
    """Was a bug: PG005 printed the raw value, so a newline broke the `file:line:col:` line."""
    from packgate.cli.main import main
    script = tmp_path / "gate.sh"
    script.write_text(f"export OFFLINE_PACKING_BMR={value}\nexport OFFLINE_PACKED_DATA=1\n"
                      f"OFFLINE_PACKED_DATA=$'x\\ny'\nexport OFFLINE_PACKED_DATA\n"
                      "torchrun train.py --micro-batch-size 1\n")
    assert main(["check", "--lang", "en", "--color", "never", "--profile", "ov2", str(script)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [ln for ln in lines if "PG005" in ln], lines
    assert all(ln.startswith(f"{script}:") or ln.startswith("Found ") for ln in lines), lines


@pytest.mark.parametrize("options, informed", [("", True), ("set -u\n", False), ("set -euo pipefail\n", False),
                                               ("set -u\nset +u\n", True)])
def test_a_caller_variable_under_set_u_is_set_on_every_path_that_goes_on(options, informed):
    """Under set -u bash stops at `${SOME_VAR}` when the caller leaves it unset, so no launch sees
    the empty value and the information about int('') would be wrong (checked by the oracle case
    set_u_caller_variable_gate)."""
    text = options + 'export OFFLINE_PACKING_BMR="${SOME_VAR}"\nexport OFFLINE_PACKED_DATA=1\n' + LAUNCH
    found = [f for f in lint(text, profile="ov2") if f.code == "PG005"]
    assert bool(found) == informed, found


def test_placeholders_reads_fields_as_str_format_does():
    """rule.placeholders finds fields without string.Formatter (not imported on a cold start):
    the two agree on every text of every rule and on escapes, conversions and format specs."""
    from string import Formatter

    from packgate.core.rules.rule import placeholders

    def reference(template: str) -> frozenset:
        return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)

    templates = ["{a} and {b}", "{{literal}} {a}", "{a!r} {b:>4} {c[0]} {d.e}", "}}{{", "no field", "{a}{a}"]
    for r in RULES:
        for text in [*r.messages.values(), *r.fixes.values()]:
            templates += [text.en, text.zh]
    for template in templates:
        assert placeholders(template) == reference(template), template


@pytest.mark.parametrize("line", ["OFFLINE_PACKED_DATA=1 B=2", "B=2 OFFLINE_PACKED_DATA=1"])
def test_export_fix_on_a_line_of_assignments_exports_the_gate_alone(line):
    """Was a bug: tree-sitter-bash glues `A=1 B=2` to the command on the next line, and the model
    then saw each assignment as a statement of its own, so the fix prefixed the line with
    `export` and exported B as well. The fix adds `export OFFLINE_PACKED_DATA` after the line."""
    text = f"export OFFLINE_PACKING_BMR=1\n{line}\ntorchrun train.py --micro-batch-size 1\n"
    analysis = analyze(text, settings=Settings(lang="en", profile="ov2"))
    [f] = [x for x in analysis.findings if x.code == "PG004"]
    fixed = apply_edits(analysis.source.data, next(x for x in f.fixes if x.preferred).edits).decode()
    assert fixed == f"export OFFLINE_PACKING_BMR=1\n{line}\nexport OFFLINE_PACKED_DATA\n" \
                    "torchrun train.py --micro-batch-size 1\n"
    assert codes(fixed) == []
