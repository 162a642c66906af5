"""Directives with ShellCheck's scopes, profiles by comment, and hover text."""

from packgate import Settings, analyze

EN = Settings(lang="en")
BODY = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n"


def codes(text, **kw):
    return [f.code for f in analyze(text, settings=Settings(lang="en", **kw)).findings]


def test_file_wide_disable_before_first_command():
    assert codes("#!/bin/bash\n# packgate disable=missing-companion\n" + BODY) == []
    assert codes("# packgate disable=all\n" + BODY) == []


def test_next_command_scope():
    text = "#!/bin/bash\necho hi\n# packgate disable=PG001\n" + BODY
    assert codes(text) == []
    text = "#!/bin/bash\n# packgate disable=PG001\necho hi\n" + BODY  # covers only `echo hi`... file-wide
    assert codes(text) == []
    text = "#!/bin/bash\necho hi\n# packgate disable=PG001\necho there\n" + BODY
    assert codes(text) == ["PG001"]


def test_directive_covers_whole_compound_command():
    text = ("echo start\n# packgate disable=PG001\nif true; then\n  export OFFLINE_PACKING_BMR=1\nfi\n"
            "torchrun train.py\n")
    assert "PG001" not in codes(text)


def test_other_codes_not_disabled():
    text = "echo a\n# packgate disable=dead-var\n" + BODY
    assert codes(text) == ["PG001"]


def test_profile_directive():
    text = "# packgate profile=ov15\nexport OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n"
    assert codes(text) == []
    assert "PG002" in codes(text.replace("profile=ov15", "profile=ov2"))
    tg = "# packgate profile=three-gate\nexport OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n"
    assert codes(tg) == []


def test_hover_on_gate_in_both_languages():
    text = "# 中文\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py\n"
    a = analyze(text, settings=EN)
    off = a.source.data.index(b"PACKING_BMR")
    body, start, end = a.hover(off, "both")
    assert a.source.data[start:end] == b"OFFLINE_PACKING_BMR"
    assert "task_encoder.py:194" in body and "跨样本" in body and "cross-sample" in body
    assert "| ▶ | 1 | 0 |" in body  # the row that applies is marked
    assert "from line 2" in body
    en, _, _ = a.hover(off, "en")
    assert "跨样本" not in en
    plain, _, _ = a.hover(off, "zh", markdown=False)
    assert "|" not in plain and "读取位置" in plain


def test_hover_on_micro_batch_size_flag_and_outside():
    text = "export OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKING_BMR=1\nMBS=${4:-1}\ntorchrun train.py --micro-batch-size $MBS\n"
    a = analyze(text, settings=EN)
    body, _, _ = a.hover(a.source.data.index(b"micro-batch"), "en")
    assert "cu_lengths.shape[0] == 1" in body and "1 by default" in body
    assert a.hover(0, "en") is None


def test_hover_on_directive_keywords_and_values():
    text = ("#!/bin/bash\n# 中文 😀\n# packgate profile=ov15\n\t# packgate disable=PG999,dead-var,all\n"
            "export OFFLINE_PACKING_VQA=1\n# packgate disable=missing-companion\ntorchrun t.py\n"
            "# packgate profile=ov9\n")
    a = analyze(text, settings=EN)
    data = a.source.data

    def at(word: bytes, nth: int = 0, lang: str = "both", markdown: bool = True):
        i = -1
        for _ in range(nth + 1):
            i = data.index(word, i + 1)
        got = a.hover(i + 1, lang, markdown)
        assert got is not None, word
        body, start, end = got
        return body, data[start:end]

    body, span = at(b"PG999")
    assert span == b"PG999" and "this value is ignored" in body and "该值被忽略" in body
    body, span = at(b"dead-var", lang="en")
    assert span == b"dead-var" and body.startswith("### PG002 `dead-var` (warning)") and "PG002.md" in body
    body, span = at(b"missing-companion", lang="zh", markdown=False)
    assert span == b"missing-companion" and body.startswith("PG001 missing-companion (error)")
    assert "`" not in body and "开关" in body
    body, span = at(b"all,"[:3], nth=0)  # the `all` of the disable list
    assert span == b"all" and "PG009" in body
    body, span = at(b"disable")
    assert span == b"disable" and "whole file" in body  # before the first command: file-wide
    body, _ = at(b"disable", nth=1)
    assert "next command" in body and "下一条命令" in body
    body, span = at(b"ov15")
    assert span == b"ov15" and "OFFLINE_PACKING_VQA" in body and "LLaVA-OneVision-1.5" in body
    body, span = at(b"ov9")
    assert span == b"ov9" and "ignored" in body
    assert a.hover(data.index(b"# packgate") , "en") is None  # the `#` itself: nothing to explain


def test_launch_summaries():
    a = analyze(BODY, settings=EN)
    [s] = a.launch_summaries
    assert s.verdict == "leak" and "BMR=1" in s.label and "✗" in s.label


def test_gate_hover_names_the_companion_in_full():
    """The truth table's header names OFFLINE_PACKED_DATA as the user has to type it."""
    text = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n"
    a = analyze(text, settings=EN)
    off = a.source.data.index(b"PACKING_BMR")
    for lang in ("en", "zh", "both"):
        body, _, _ = a.hover(off, lang)
        assert "| | OFFLINE_PACKING_BMR | OFFLINE_PACKED_DATA |" in body, body
        assert "| ▶ | 1 | 0 |" in body
    plain, _, _ = a.hover(off, "en", markdown=False)
    assert "▶ OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0: " in plain
    assert " PACKED_DATA=" not in plain.replace("OFFLINE_PACKED_DATA", "")
