"""The editor side of safe and unsafe fixes: a fix that rests on the profile `auto` only assumed
(no training code found) is still offered, its title says so (English or Chinese, as the other
titles), it is never the preferred action, and fixAll leaves it out unless a configuration file
sets `unsafe-fixes = true`. A named profile makes the same fix safe again."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_helpers import capabilities, code_actions, diagnostics, edits_of, open_doc, session

ASYNC = pytest.mark.asyncio(loop_scope="session")  # (not module-wide: one test is plain)

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
# A correct LLaVA-OneVision-1.5 launcher: under the ov2 `auto` assumes for a document with no
# training code around, PG002 would remove VQA and PG001 add BMR
OV15 = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH
LABEL_EN = "(unsafe: assumes profile ov2)"
LABEL_ZH = "（不安全：假定配置为 ov2）"
WHOLE = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=9, character=0))


async def rule_fixes(client, uri: str, code: str) -> list[types.CodeAction]:
    """The quick fixes of the rule (not the disable actions) for its diagnostic in uri."""
    target = next(d for d in await diagnostics(client, uri, 1) if d.code == code)
    actions = await code_actions(client, uri, target.range, [target], only=[types.CodeActionKind.QuickFix])
    return [a for a in actions if "isable" not in a.title and "禁用" not in a.title]


@ASYNC
async def test_an_unsafe_fix_is_labelled_and_never_preferred(client):
    uri = open_doc(client, OV15)  # a URI nowhere on disk: no project, so `auto` assumes ov2
    for code in ("PG001", "PG002"):
        fixes = await rule_fixes(client, uri, code)
        assert fixes, code
        # the shared client sends no locale: the titles are in both languages, each labelled
        assert all(LABEL_EN in a.title and LABEL_ZH in a.title for a in fixes), [a.title for a in fixes]
        assert not any(a.is_preferred for a in fixes), [(a.title, a.is_preferred) for a in fixes]
    [diag] = [d for d in await diagnostics(client, uri, 1) if d.code == "PG002"]
    assert [f["applicability"] for f in diag.data["fixes"] if f["kind"] == "fix"] == ["unsafe"]


@ASYNC
async def test_fix_all_leaves_the_unsafe_fixes_out(client):
    uri = open_doc(client, OV15)
    await diagnostics(client, uri, 1)
    assert await code_actions(client, uri, WHOLE, [], only=["source.fixAll"]) == []


@ASYNC
async def test_a_named_profile_makes_the_fix_safe_and_preferred(client):
    uri = open_doc(client, "# packgate profile=ov2\n" + OV15)
    fixes = await rule_fixes(client, uri, "PG002")
    assert [bool(a.is_preferred) for a in fixes] == [True]
    assert "unsafe" not in fixes[0].title and "不安全" not in fixes[0].title
    [fix_all] = await code_actions(client, uri, WHOLE, [], only=["source.fixAll"])
    assert fix_all.kind == "source.fixAll.packgate"


@ASYNC
async def test_unsafe_fixes_true_in_the_configuration_lets_fix_all_apply_them(client, tmp_path):
    (tmp_path / ".packgate.toml").write_text("unsafe-fixes = true\n", encoding="utf-8")
    script = tmp_path / "stage2.sh"
    script.write_text(OV15, encoding="utf-8")
    uri = open_doc(client, OV15, uri=script.as_uri())
    fixes = await rule_fixes(client, uri, "PG002")
    assert fixes and all(LABEL_EN in a.title and not a.is_preferred for a in fixes)  # still unsafe
    [fix_all] = await code_actions(client, uri, WHOLE, [], only=["source.fixAll"])
    new_text = "".join(e.new_text for e in edits_of(fix_all, uri))
    assert "OFFLINE_PACKING_BMR" in new_text


@ASYNC
@pytest.mark.parametrize("locale, label, other", [("zh-CN", LABEL_ZH, LABEL_EN), ("en-US", LABEL_EN, LABEL_ZH)])
async def test_the_label_follows_the_language_of_the_titles(locale, label, other):
    async with session(capabilities("visual_studio_code"), locale=locale) as client:
        fixes = await rule_fixes(client, open_doc(client, OV15), "PG002")
    assert fixes and all(a.title.endswith(label) and other not in a.title for a in fixes), [a.title for a in fixes]


def test_an_unsafe_fix_without_a_caveat_is_never_preferred():
    """A guessed fix (PG012's rename, PG008's join) is offered but never preferred: an editor
    applies a preferred fix on one keystroke."""
    from packgate.core.findings import Applicability, Edit, Fix
    from packgate.core.text import Source
    from packgate.lsp.diagnostic_json import fix_json as _fix_data

    source = Source("export VISION_TRAK=1\n")
    guessed = Fix("Rename to VISION_TRACK", (Edit(7, 18, "VISION_TRACK"),), Applicability.UNSAFE, True, "fix")
    safe = Fix("Set it to 1", (Edit(19, 20, "1"),), Applicability.SAFE, True, "fix")
    assert _fix_data(guessed, source, "utf-16")["preferred"] is False
    assert _fix_data(safe, source, "utf-16")["preferred"] is True
