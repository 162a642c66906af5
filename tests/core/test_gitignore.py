"""core/gitignore.py and the folder walk: `.gitignore` / `.ignore` read as ruff (the `ignore`
crate) reads them, environment folders skipped, and `check` and the server walking alike."""

import os
import shutil
import subprocess

import pytest

from packgate.cli.check import discover
from packgate.core import files, gitignore
from packgate.lsp import workspace


def make(root, layout: dict) -> None:
    for rel, text in layout.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def walked(root) -> list:
    return sorted(os.path.relpath(p, root) for p in files.walk(str(root)))


def git_repo(root) -> None:
    (root / ".git").mkdir(parents=True, exist_ok=True)


# ---------------------------------------------------------------- patterns, against git itself

PATTERNS = ("""\
# a comment
\\#hash.sh
\\!bang.sh
*.log
!keep.log
/anchored.sh
build/
docs/*.sh
**/deep.sh
lib/**/gen.sh
out/**
a?.sh
[bc]x.sh
[!q]y.sh
trailing.sh   
esc\\ .sh\\ 
ab**cd.sh
nested/only.sh
[[:digit:]]n.sh
*/star.sh
/anch/
m[a-c-]z.sh
""")

PATHS = ["#hash.sh", "!bang.sh", "x.log", "keep.log", "sub/x.log", "anchored.sh", "sub/anchored.sh",
         "build/a.sh", "sub/build/a.sh", "docs/a.sh", "docs/sub/a.sh", "deep.sh", "a/b/deep.sh",
         "lib/gen.sh", "lib/x/y/gen.sh", "out/a.sh", "out/x/a.sh", "a1.sh", "a12.sh", "bx.sh",
         "cx.sh", "dx.sh", "qy.sh", "zy.sh", "trailing.sh", "esc .sh ", "abXYcd.sh", "ab/cd.sh",
         "nested/only.sh", "x/nested/only.sh", "plain.sh", "comment", "# a comment", "7n.sh", "xn.sh",
         "d/star.sh", "star.sh", "d/e/star.sh", "anch/a.sh", "sub/anch/a.sh", "mbz.sh", "m-z.sh", "mdz.sh"]


def git_ignored(root, paths) -> set:
    """What `git check-ignore` says of paths (each created, so that folders are folders)."""
    done = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=root, text=True,
                          input="\n".join(paths) + "\n", capture_output=True)
    assert done.returncode in (0, 1), done.stderr
    return set(done.stdout.splitlines())


def ours(root, paths) -> set:
    chain = gitignore.Ignores.at(str(root))
    out = set()
    for rel in paths:
        parts = rel.split("/")
        # as the walk asks: every folder on the way, then the file
        for i in range(1, len(parts) + 1):
            full = os.path.join(str(root), *parts[:i])
            if chain.ignored(full, os.path.isdir(full)):
                out.add(rel)
                break
    return out


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_patterns_match_as_git_matches_them(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(PATTERNS)
    for rel in PATHS:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("echo\n")
    expected = git_ignored(tmp_path, PATHS)
    assert "keep.log" not in expected and "x.log" in expected  # the oracle works
    assert ours(tmp_path, PATHS) == expected


def test_comments_blanks_and_escapes_parse():
    assert gitignore.parse("# c\n\n   \n") == ()
    assert [r.negate for r in gitignore.parse("a\n!b\n\\!c\n")] == [False, True, False]
    (rule,) = gitignore.parse("dir/\n")
    assert rule.dir_only and rule.regex.match("x/dir") and not rule.regex.match("x/dir/y")


def test_gitignore_is_respected_in_a_repository(tmp_path):
    git_repo(tmp_path)
    make(tmp_path, {".gitignore": "generated/\n*.tmp.sh\n!keep.tmp.sh\n/top.sh\n",
                    "a.sh": "", "top.sh": "", "sub/top.sh": "", "x.tmp.sh": "", "keep.tmp.sh": "",
                    "generated/g.sh": "", "sub/generated/g.sh": ""})
    assert walked(tmp_path) == [".gitignore", "a.sh", "keep.tmp.sh", "sub/top.sh"]


def test_gitignore_outside_a_repository_is_not_read_but_ignore_is(tmp_path):
    make(tmp_path, {".gitignore": "a.sh\n", ".ignore": "b.sh\n", "a.sh": "", "b.sh": "", "c.sh": ""})
    assert walked(tmp_path) == [".gitignore", ".ignore", "a.sh", "c.sh"]


def test_deeper_files_decide_first_and_ignore_beats_gitignore(tmp_path):
    git_repo(tmp_path)
    make(tmp_path, {".gitignore": "*.sh\n", "sub/.gitignore": "!*.sh\n", "a.sh": "", "sub/b.sh": "",
                    "other/.ignore": "!c.sh\n", "other/c.sh": "", "other/d.sh": "",
                    "third/.gitignore": "!e.sh\n", "third/.ignore": "e.sh\n", "third/e.sh": ""})
    assert [p for p in walked(tmp_path) if p.endswith(".sh")] == ["other/c.sh", "sub/b.sh"]


def test_a_file_below_an_ignored_folder_cannot_be_reincluded(tmp_path):
    git_repo(tmp_path)
    make(tmp_path, {".gitignore": "build/\n!build/keep.sh\n", "build/keep.sh": "", "a.sh": ""})
    assert walked(tmp_path) == [".gitignore", "a.sh"]


def test_parents_count_up_to_the_repository_root_relative_to_their_folder(tmp_path):
    git_repo(tmp_path)
    make(tmp_path / "..", {})
    make(tmp_path, {".gitignore": "/proj/skip.sh\nvendor/\n", "proj/skip.sh": "", "proj/a.sh": "",
                    "proj/vendor/v.sh": "", "proj/sub/skip.sh": ""})
    assert walked(tmp_path / "proj") == ["a.sh", "sub/skip.sh"]
    # the walked folder itself is walked even when a parent's pattern names it
    (tmp_path / ".gitignore").write_text("proj/\n")
    assert walked(tmp_path / "proj") == ["a.sh", "skip.sh", "sub/skip.sh", "vendor/v.sh"]


def test_gitignore_above_the_repository_root_is_not_read(tmp_path):
    make(tmp_path, {".gitignore": "a.sh\n", ".ignore": "b.sh\n", "repo/a.sh": "", "repo/b.sh": ""})
    git_repo(tmp_path / "repo")
    assert walked(tmp_path / "repo") == ["a.sh", "b.sh"]


def test_a_nested_repository_does_not_read_the_outer_gitignore(tmp_path):
    git_repo(tmp_path)
    make(tmp_path, {".gitignore": "x.sh\n", "x.sh": "", "inner/x.sh": ""})
    git_repo(tmp_path / "inner")
    assert walked(tmp_path) == [".gitignore", "inner/x.sh"]


def test_git_info_exclude_is_read(tmp_path):
    git_repo(tmp_path)
    make(tmp_path, {".git/info/exclude": "local.sh\n", "local.sh": "", "a.sh": ""})
    assert walked(tmp_path) == ["a.sh"]


def test_environment_folders_are_skipped(tmp_path):
    make(tmp_path, {"venv/bin/activate.sh": "", ".venv/bin/activate.sh": "", "env/pyvenv.cfg": "",
                    "env/bin/activate.sh": "", "envy/run.sh": "", "a.sh": ""})
    assert walked(tmp_path) == ["a.sh", "envy/run.sh"]


def test_check_and_the_server_agree_and_a_named_file_is_still_checked(tmp_path):
    git_repo(tmp_path)
    make(tmp_path, {".gitignore": "ignored.sh\nout/\n", "ignored.sh": "echo\n", "out/o.sh": "echo\n",
                    "a.sh": "echo\n", "env/pyvenv.cfg": "", "env/bin/x.sh": "echo\n"})
    problems: list = []
    by_check = [os.path.relpath(p, tmp_path) for p in discover([str(tmp_path)], problems)]
    by_server, cut = workspace.scripts([str(tmp_path.resolve())])
    assert by_check == ["a.sh"] and not problems and not cut
    assert [os.path.relpath(p, tmp_path.resolve()) for p in by_server] == ["a.sh"]
    # as ruff: a file named on the command line is checked whatever .gitignore says
    assert discover([str(tmp_path / "ignored.sh")], problems) == [str(tmp_path / "ignored.sh")]


def test_the_joined_matcher_decides_as_the_rules_one_by_one():
    rules = gitignore.parse(PATTERNS + "!docs/keep.sh\nbuild/\n!build/\n")
    matcher = gitignore.Matcher(rules)
    for rel in PATHS + ["docs/keep.sh", "build", "x/build"]:
        for is_dir in (False, True):
            assert matcher.decide(rel, is_dir) == gitignore._decide(rules, rel, is_dir), (rel, is_dir)
