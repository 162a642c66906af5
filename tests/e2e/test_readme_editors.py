"""The README's editor setups are the ones the real-editor suites run."""

from __future__ import annotations

import re
from pathlib import Path

from editors import ROOT

HERE = Path(__file__).resolve().parent


def _section(title: str) -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"\n### {title}\n")
    end = readme.find("\n### ", start + 1)
    return readme[start:end]


def _blocks(section: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section, flags=re.S)


def _code(text: str, comment: str) -> list[str]:
    """The lines that are not blank or comments."""
    return [line.rstrip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith(comment)]


def test_emacs_eglot_setup_is_the_tested_one() -> None:
    tested = _code((HERE / "emacs_eglot.el").read_text(encoding="utf-8"), ";")
    assert _code(_blocks(_section("Emacs"), "elisp")[0], ";") == tested


def test_emacs_lsp_mode_setup_is_the_tested_one() -> None:
    tested = _code((HERE / "emacs_lsp_mode.el").read_text(encoding="utf-8"), ";")
    assert _code(_blocks(_section("Emacs"), "elisp")[1], ";") == tested


def test_vim_ale_setup_is_the_tested_one() -> None:
    blocks = _blocks(_section("Vim"), "vim")
    assert _code(blocks[0], '"') == _code((HERE / "vim_ale.vim").read_text(encoding="utf-8"), '"')
    assert _code(blocks[1], '"') == _code((HERE / "vim_ale_utf8.vim").read_text(encoding="utf-8"), '"')


def test_vim_youcompleteme_setup_is_the_tested_one() -> None:
    blocks = _blocks(_section("Vim"), "vim")
    tested = _code((HERE / "vim_ycm.vim").read_text(encoding="utf-8"), '"')
    assert _code(blocks[2], '"') == tested


def test_neovim_checkout_setup_is_the_tested_one() -> None:
    section = _section("Neovim")
    assert "vim.opt.runtimepath:prepend('/path/to/packgate/nvim-client')" in section
    assert "vim.lsp.enable('packgate')" in section
    assert (ROOT / "nvim-client" / "lsp" / "packgate.lua").is_file()
    assert (ROOT / "nvim-client" / "lua" / "packgate" / "health.lua").is_file()
    assert (ROOT / "nvim-client" / "doc" / "packgate.txt").is_file()
