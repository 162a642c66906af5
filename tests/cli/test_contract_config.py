"""The team's own relations under `contract` (issue 28): read from pyproject.toml and
.packgate.toml, checked by PG014 next to the profile's, validated entry by entry like every
other key (exit 2, one line naming the file, the key and what is accepted), shown by
--show-settings, and documented in the README with an example that validates."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from packgate.cli.main import main
from packgate.core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

BOTH = '''
[[tool.packgate.contract]]
kind = "both"
name = "loader-and-sampler"
vars = ["USE_PACKED_LOADER", "USE_PACKED_SAMPLER"]
absent = "unset"
reason = "The sampler expects the loader's packed batches"
at = "train/data.py:88"
'''
LAUNCHER = "#!/bin/bash\nexport USE_PACKED_LOADER=1\nexport USE_PACKED_SAMPLER=0\ntorchrun train.py --micro-batch-size 1\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def repo(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run.sh").write_text(LAUNCHER)
    return tmp_path


def pg014(out: str) -> list:
    return [d for d in json.loads(out)["diagnostics"] if d["code"] == "PG014"]


def test_a_team_relation_from_pyproject_fires(repo, capsys):
    (repo / "pyproject.toml").write_text('[tool.packgate]\nprofile = "ov2"\n' + BOTH)
    rc, out, err = run(capsys, "check", "--format", "json", "run.sh")
    assert rc == 1, err
    [d] = pg014(out)
    assert (d["line"], d["column"], d["severity"]) == (3, 8, "error")  # at the variable that is off
    assert d["message"] == (
        "torchrun (line 4) breaks loader-and-sampler: USE_PACKED_LOADER and USE_PACKED_SAMPLER are both 1 or "
        "neither is, but here USE_PACKED_LOADER is 1 and USE_PACKED_SAMPLER is 0. The sampler expects the "
        "loader's packed batches (train/data.py:88)")
    # --fix sets the variable that is off to the value the relation asks for
    rc, out, err = run(capsys, "check", "--fix", "run.sh")
    assert "export USE_PACKED_SAMPLER=1\n" in (repo / "run.sh").read_text()
    assert rc == 0, out + err


def test_a_packgate_toml_spells_it_contract_and_names_itself_as_the_place(repo, capsys):
    (repo / ".packgate.toml").write_text('profile = "ov2"\n' + BOTH.replace("tool.packgate.", "").replace(
        'at = "train/data.py:88"\n', ""))
    rc, out, _ = run(capsys, "check", "--format", "json", "run.sh")
    [d] = pg014(out)
    assert d["message"].endswith("(.packgate.toml: contract[1])")


def test_a_team_relation_on_options(repo, capsys):
    (repo / "pyproject.toml").write_text(
        '[tool.packgate]\n[[tool.packgate.contract]]\nkind = "requires"\n'
        'when = [{ option = "--sampler", value = "packed" }, { option = "--streaming", given = false }]\n'
        'then = { var = "SAMPLER_BUFFER_MB", value = "0", equal = false, compare = "int", default = "0", '
        'absent = "unset" }\n')
    (repo / "run.sh").write_text("#!/bin/bash\ntorchrun train.py --sampler=packed\n")
    rc, out, _ = run(capsys, "check", "--format", "json", "run.sh")
    [d] = pg014(out)
    assert "SAMPLER_BUFFER_MB must not be 0 when --sampler is packed and --streaming is not given" in d["message"]
    assert "SAMPLER_BUFFER_MB is unset" in d["message"] and d["severity"] == "error"
    (repo / "run.sh").write_text("#!/bin/bash\ntorchrun train.py --sampler=packed --streaming\n")
    assert pg014(run(capsys, "check", "--format", "json", "run.sh")[1]) == []
    (repo / "run.sh").write_text("#!/bin/bash\nexport SAMPLER_BUFFER_MB=512\ntorchrun train.py --sampler packed\n")
    assert pg014(run(capsys, "check", "--format", "json", "run.sh")[1]) == []


def test_an_invalid_entry_is_an_error_and_the_valid_ones_still_apply(repo, capsys):
    (repo / "pyproject.toml").write_text(
        '[tool.packgate]\nprofile = "ov2"\n' + BOTH
        + '\n[[tool.packgate.contract]]\nkind = "sometimes"\n'
        + '\n[[tool.packgate.contract]]\nkind = "requires"\nwhen = [{ var = "A", value = "1" }, { option = "x" }]\n'
          'then = { var = "B", value = "1", colour = "red" }\n')
    rc, out, err = run(capsys, "check", "--format", "json", "run.sh")
    assert rc == 2
    where = f"packgate: {repo / 'pyproject.toml'}: [tool.packgate] "
    lines = err.splitlines()
    assert f'{where}contract[2].kind = "sometimes": expected one of both, requires' in lines
    assert f'{where}contract[3].when[2].option = "x": expected an option string starting with -' in lines
    assert (f"{where}contract[3].then: unknown key 'colour' (it takes var, value, equal, compare, default, "
            "absent)") in lines
    assert len(pg014(out)) == 1  # contract[1] applies
    assert len(json.loads(out)["problems"]) == 3


def test_a_contract_that_is_not_a_list_of_tables(repo, capsys):
    (repo / "pyproject.toml").write_text('[tool.packgate]\ncontract = 3\n')
    rc, _, err = run(capsys, "check", "run.sh")
    assert rc == 2
    assert (f"packgate: {repo / 'pyproject.toml'}: [tool.packgate] contract = 3: expected an array of tables "
            '(one [[tool.packgate.contract]] per relation) with kind = "both" or "requires"') in err.splitlines()
    (repo / "pyproject.toml").write_text('[tool.packgate]\ncontract = [{ kind = "both", vars = ["A"] }]\n')
    rc, _, err = run(capsys, "check", "run.sh")
    assert rc == 2 and 'contract[1].vars = ["A"]: expected a list of two or more variable names' in err
    (repo / "pyproject.toml").write_text('[tool.packgate]\ncontract = [{ kind = "requires", then = { var = "A" } }]\n')
    rc, _, err = run(capsys, "check", "run.sh")
    assert rc == 2 and "contract[1]: when is missing" in err


def test_show_settings_lists_the_relations_in_force(repo, capsys):
    (repo / "pyproject.toml").write_text('[tool.packgate]\nprofile = "ov2"\n' + BOTH)
    rc, out, _ = run(capsys, "check", "--show-settings", "run.sh")
    assert rc == 0
    lines = out.splitlines()
    assert "contract: 8 relations of profile ov2, 1 declared in the configuration" in lines
    assert ("  PG014 fsdp-connections: CUDA_DEVICE_MAX_CONNECTIONS must not be 1 when --use-torch-fsdp2 is "
            "given (aiak_megatron/megatron/training/arguments.py:474)") in lines
    assert any(line.startswith("  PG001 packing-gates: OFFLINE_PACKING_BMR and OFFLINE_PACKED_DATA") for line in lines)
    assert ("  PG014 loader-and-sampler: USE_PACKED_LOADER and USE_PACKED_SAMPLER are both 1 or neither is "
            "(train/data.py:88; pyproject.toml: [tool.packgate] contract[1])") in lines


def test_the_readme_example_is_a_valid_contract():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"```toml\n(.*?)```", readme, re.S) if "[[tool.packgate.contract]]" in b]
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    problems: list = []
    settings = Settings().merged(tomllib.loads(block)["tool"]["packgate"], problems, strict=True,
                                 where="[tool.packgate] ", source="pyproject.toml")
    assert problems == [] and len(settings.contract) == 3
    assert [r.name for r in settings.contract] == ["loader-and-sampler", "sampler-buffer", "contract[3]"]


def test_the_editor_setting_is_read_by_the_same_settings():
    problems: list = []
    settings = Settings().merged({"contract": [{"kind": "both", "vars": ["A", "B"]},
                                               {"kind": "both", "vars": "A"}]}, problems)
    assert [r.declared for r in settings.contract] == ["packgate.contract[1]"]
    import pickle
    assert pickle.loads(pickle.dumps(settings)) == settings  # settings travel to worker processes
    assert problems == ['packgate.contract[2].vars = "A": expected a list of two or more variable names']
    # a configuration file's contract replaces the editor's, as every other key does
    layered = settings.merged({"contract": []}, [], strict=True, where="[tool.packgate] ", source="pyproject.toml")
    assert layered.contract == ()
