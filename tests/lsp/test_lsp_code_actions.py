"""Code actions over LSP: every quick fix of every rule, the disable actions and fixAll."""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_helpers import apply_edits, code_actions, codes, diagnostics, edits_of, open_doc

pytestmark = pytest.mark.asyncio(loop_scope="session")

LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
BOTH = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
# The documents lie nowhere on disk, so `auto` would only assume ov2, and the gate fixes resting
# on that guess are unsafe: labelled, never preferred, left out of fixAll
# (test_day_one_unsafe_actions.py). These tests are about the actions, so they name the profile.
OV2 = "# packgate profile=ov2\n"

# One launcher per rule that makes it fire (FACTS.md and CONTRACT.md).
SAMPLES = {
    "PG001": "#!/bin/bash\n" + OV2 + "# 打包训练 🚀\nexport OFFLINE_PACKING_BMR='1'\n" + LAUNCH,
    "PG002": OV2 + "export OFFLINE_PACKING_VQA=1\n" + BOTH + LAUNCH,
    "PG003": OV2 + BOTH + "torchrun aiak_training_llm/train.py --micro-batch-size 4\n",
    "PG004": OV2 + "OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH,
    "PG005": OV2 + "export OFFLINE_PACKING_BMR=true\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH,
    "PG006": OV2 + "export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'\n" + LAUNCH,
    "PG007": (OV2 + 'if [ -n "$PACK" ]; then\n  export OFFLINE_PACKING_BMR=1\n  export OFFLINE_PACKED_DATA=1\n'
              "else\n  export OFFLINE_PACKING_BMR=1\nfi\n" + LAUNCH),
    "PG008": OV2 + "export OFFLINE_PACKING_BMR=0\n" + BOTH + LAUNCH,
}
WITH_RULE_FIXES = {"PG001", "PG002", "PG003", "PG004", "PG005", "PG006"}


async def reopened(client, text: str) -> list[types.Diagnostic]:
    """Diagnostics of text in a fresh document."""
    uri = open_doc(client, text)
    return await diagnostics(client, uri, 1)


@pytest.mark.parametrize("code", sorted(SAMPLES))
async def test_each_quick_fix_leaves_no_diagnostic_of_its_rule(client, code):
    text = SAMPLES[code]
    uri = open_doc(client, text)
    diags = await diagnostics(client, uri, 1)
    target = next((d for d in diags if d.code == code), None)
    assert target is not None, f"{code} does not fire on its sample: {codes(diags)}"
    actions = await code_actions(client, uri, target.range, [target])
    fixes = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and list(a.diagnostics or []) == [target]]
    disables = [a for a in fixes if "disable" in a.title.lower()]
    assert len(disables) == 2, [a.title for a in fixes]
    rule_fixes = [a for a in fixes if a not in disables]
    if code in WITH_RULE_FIXES:
        assert rule_fixes, f"{code} offers no fix"
        assert sum(bool(a.is_preferred) for a in rule_fixes) == 1, [(a.title, a.is_preferred) for a in rule_fixes]
        assert rule_fixes[0].is_preferred
    assert not any(a.is_preferred for a in disables)
    for action in fixes:
        fixed = apply_edits(text, edits_of(action, uri), client.encoding)
        assert fixed != text, action.title
        assert code not in codes(await reopened(client, fixed)), (action.title, fixed)


async def test_fix_all_applies_every_safe_fix_at_once(client):
    text = ("#!/bin/bash\r\n# packgate profile=ov2\r\n# 说明 😀\r\nexport OFFLINE_PACKING_VQA=1\r\n"
            "export OFFLINE_PACKING_BMR='1'\r\ntorchrun aiak_training_llm/train.py --micro-batch-size 4\r\n")
    uri = open_doc(client, text)
    before = await diagnostics(client, uri, 1)
    assert {"PG001", "PG002"} <= set(codes(before)), codes(before)
    whole = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=6, character=0))
    actions = await code_actions(client, uri, whole, [], only=["source.fixAll"])
    assert [a.kind for a in actions] == ["source.fixAll.packgate"]
    fixed = apply_edits(text, edits_of(actions[0], uri), client.encoding)
    assert fixed.count("\n") == fixed.count("\r\n"), "fixAll must keep the file's CRLF line ends"
    after = await reopened(client, fixed)
    safe_left = [d.code for d in after if any(f["safe"] and f["kind"] == "fix" for f in d.data["fixes"])]
    assert safe_left == [], (codes(after), fixed)
    assert not {"PG001", "PG002"} & set(codes(after)), fixed


async def test_only_filters_kinds(client):
    text = SAMPLES["PG001"]
    uri = open_doc(client, text)
    target = next(d for d in await diagnostics(client, uri, 1) if d.code == "PG001")
    quick = await code_actions(client, uri, target.range, [target], only=[types.CodeActionKind.QuickFix])
    assert quick and all(a.kind == types.CodeActionKind.QuickFix for a in quick)
    source = await code_actions(client, uri, target.range, [target], only=["source"])
    assert [a.kind for a in source] == ["source.fixAll.packgate"]
    assert await code_actions(client, uri, target.range, [target], only=["refactor"]) == []


async def test_actions_found_from_the_range_when_the_client_sends_no_diagnostics(client):
    text = SAMPLES["PG001"]
    uri = open_doc(client, text)
    target = next(d for d in await diagnostics(client, uri, 1) if d.code == "PG001")
    actions = await code_actions(client, uri, target.range, [], only=[types.CodeActionKind.QuickFix])
    assert any(a.is_preferred for a in actions)


async def test_quick_fix_keeps_crlf_and_counts_the_negotiated_units(client):
    text = "#!/bin/bash\r\n# packgate profile=ov2\r\n# 说明\f😀\r\n\techo \"🚀\"; export OFFLINE_PACKING_BMR='1'\r\n" + LAUNCH.replace("\n", "\r\n")
    uri = open_doc(client, text)
    target = next(d for d in await diagnostics(client, uri, 1) if d.code == "PG001")
    actions = await code_actions(client, uri, target.range, [target], only=[types.CodeActionKind.QuickFix])
    preferred = next(a for a in actions if a.is_preferred)
    fixed = apply_edits(text, edits_of(preferred, uri), client.encoding)
    assert fixed.count("\n") == fixed.count("\r\n"), repr(fixed)
    assert "OFFLINE_PACKED_DATA" in fixed
    assert "PG001" not in codes(await reopened(client, fixed))


async def test_a_diagnostic_from_an_older_version_still_gets_current_fixes(client):
    text = SAMPLES["PG001"]
    uri = open_doc(client, text)
    old = next(d for d in await diagnostics(client, uri, 1) if d.code == "PG001")
    text2 = text + "# 尾注 🚀\n"  # version 2 changes nothing before the finding
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text2)]))
    actions = await code_actions(client, uri, old.range, [old], only=[types.CodeActionKind.QuickFix])
    preferred = next(a for a in actions if a.is_preferred)
    assert list(preferred.diagnostics or []) == [old]
    fixed = apply_edits(text2, edits_of(preferred, uri), client.encoding)
    assert "PG001" not in codes(await reopened(client, fixed))
