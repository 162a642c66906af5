"""The .vsix in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) driven in Chromium.

The freshly built platform .vsix (vscode-client/, `npm run package`, which `make test` runs
first) is installed into a clean code-server: no packgate.path, no packgate on PATH, no Python
extension. So the server that answers is the one inside the .vsix, on the machine's python3.
A leaky launcher is opened and checked as a user sees it: the squiggle, the Problems entry,
the hover, the quick fix chosen from the keyboard (checked on disk), the diagnostic gone, the
status bar verdict; then, in a Chinese code-server, the messages in Chinese. Screenshots are
kept under tests/e2e/artifacts/ when a check fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from editors import FIXED, GATE, GATE_LINE, GATE_ROW, ROOT, SCRIPT, clean_env, e2e_cache, table_combinations

CLIENT = ROOT / "vscode-client"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CODE_SERVER_VERSION = "4.100.3"
WAIT_MS = 60_000


def _code_server() -> Path:
    """code-server from .ci/install-editors' cache, PACKGATE_CODE_SERVER, or PATH; else skip."""
    candidates = [os.environ.get("PACKGATE_CODE_SERVER"),
                  str(e2e_cache() / "code-server" / "node_modules" / ".bin" / "code-server"),
                  shutil.which("code-server")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    pytest.skip(f"VS Code suite: code-server {CODE_SERVER_VERSION} is not installed "
                f"(looked in {e2e_cache() / 'code-server'} and on PATH): sudo .ci/install-editors installs it")


def _chromium() -> str:
    """Debian's Chromium (Playwright drives it; its own browser download is not needed)."""
    found = os.environ.get("PACKGATE_CHROMIUM") or shutil.which("chromium")
    if not found:
        pytest.skip("VS Code suite: Chromium is not installed (Debian package chromium): sudo .ci/install-editors installs it")
    return found


def _sync_playwright():
    """Playwright's sync API, or skip when the PyPI package is not in the test environment."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("VS Code suite: Playwright is not installed (pip install playwright==1.65.2; make test-e2e does it)")
    return sync_playwright


def _vsix() -> Path:
    """The platform .vsix `npm run package` made; skip (saying how to build it) without one."""
    manifest = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    bundle = CLIENT / "bundled" / "bundle.json"
    if not bundle.is_file():
        pytest.skip("VS Code suite: no .vsix built (cd vscode-client && npm run package; make test does it)")
    target = json.loads(bundle.read_text(encoding="utf-8"))["target"]
    vsix = CLIENT / f"{manifest['name']}-{target}-{manifest['version']}.vsix"
    if not vsix.is_file():
        pytest.skip(f"VS Code suite: {vsix.name} is not built (cd vscode-client && npm run package; make test does it)")
    return vsix


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _language_pack(folder: Path, locale: str) -> Path:
    """A language pack with no translations of its own, packaged with this repository's vsce.

    VS Code only takes a --locale for which a language pack is installed (else it falls back
    to English and says `en` to extensions); the real packs come from a Marketplace these
    machines cannot reach. This one makes code-server run in `locale`, so the extension's own
    translations apply and the language server is told the locale in `initialize`.
    """
    folder.mkdir(parents=True)
    (folder / "translations").mkdir()
    (folder / "translations" / "main.i18n.json").write_text(json.dumps({"version": "1.0.0", "contents": {}}), encoding="utf-8")
    (folder / "README.md").write_text(f"Empty language pack for {locale}, for packgate's tests.\n", encoding="utf-8")
    (folder / "LICENSE").write_text("Apache-2.0\n", encoding="utf-8")
    (folder / "package.json").write_text(json.dumps({
        "name": f"packgate-test-language-pack-{locale}", "publisher": "packgate-tests", "version": "1.0.0",
        "license": "Apache-2.0", "engines": {"vscode": "^1.91.0"}, "categories": ["Language Packs"],
        "contributes": {"localizations": [{
            "languageId": locale, "languageName": locale, "localizedLanguageName": locale,
            "translations": [{"id": "vscode", "path": "./translations/main.i18n.json"}]}]},
    }), encoding="utf-8")
    vsce = CLIENT / "node_modules" / ".bin" / "vsce"
    if not vsce.is_file():
        pytest.skip("VS Code suite: vsce is not installed (make npm)")
    result = subprocess.run([str(vsce), "package", "--allow-missing-repository", "--out", "pack.vsix"],
                            cwd=folder, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"packaging the language pack failed:\n{result.stdout}\n{result.stderr}"
    return folder / "pack.vsix"


class CodeServer:
    """One clean code-server with the .vsix installed, in its own folders under `home`."""

    def __init__(self, binary: Path, vsix: Path, home: Path, locale: str) -> None:
        self.binary, self.home, self.locale = binary, home, locale
        self.env = clean_env(home)
        # No Marketplace: nothing but the .vsix under test gets installed.
        self.env["EXTENSIONS_GALLERY"] = json.dumps({"serviceUrl": "http://127.0.0.1:9/"})
        self.user_data = home / "user-data"
        self.extensions = home / "extensions"
        settings = self.user_data / "User" / "settings.json"
        settings.parent.mkdir(parents=True)
        settings.write_text(json.dumps({
            "workbench.startupEditor": "none",
            "workbench.tips.enabled": False,
            "security.workspace.trust.enabled": False,
            "extensions.autoCheckUpdates": False,
            "extensions.autoUpdate": False,
            "telemetry.telemetryLevel": "off",
            "editor.hover.delay": 200,
            "files.autoSave": "off",
        }), encoding="utf-8")
        (home / "config.yaml").write_text("auth: none\n", encoding="utf-8")
        self.install(vsix)
        if locale != "en":
            self.install(_language_pack(home / "language-pack", locale))
            self._register_language_pack(locale)
        self.port = _free_port()
        self.log = open(home / "code-server.log", "w", encoding="utf-8")
        self.process = subprocess.Popen(
            [str(binary), *self._folders(), "--auth", "none", "--bind-addr", f"127.0.0.1:{self.port}",
             "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
             "--locale", locale],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self._wait_healthy()

    def _folders(self) -> list[str]:
        return ["--user-data-dir", str(self.user_data), "--extensions-dir", str(self.extensions),
                "--config", str(self.home / "config.yaml")]

    def install(self, vsix: Path) -> None:
        result = subprocess.run([str(self.binary), *self._folders(), "--install-extension", str(vsix), "--force"],
                                env=self.env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"installing {vsix.name} failed:\n{result.stdout}\n{result.stderr}"

    def _register_language_pack(self, locale: str) -> None:
        """Write the language pack index (languagepacks.json) that VS Code reads for --locale.

        VS Code writes it when its extension service first lists the installed packs, which
        is after the locale of the first window is already chosen.
        """
        name = f"packgate-tests.packgate-test-language-pack-{locale}"
        installed = next(self.extensions.glob(f"{name}-*"))
        (self.user_data / "languagepacks.json").write_text(json.dumps({locale: {
            "hash": "packgate-tests-1",
            "extensions": [{"extensionIdentifier": {"id": name}, "version": "1.0.0"}],
            "translations": {"vscode": str(installed / "translations" / "main.i18n.json")},
            "label": locale,
        }}), encoding="utf-8")

    def _wait_healthy(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"code-server exited:\n{(self.home / 'code-server.log').read_text()}")
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                    return
            time.sleep(0.3)
        raise AssertionError("code-server did not answer /healthz within 60 s")

    def url(self, folder: Path) -> str:
        return f"http://127.0.0.1:{self.port}/?folder={folder}"

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, 15)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            os.killpg(self.process.pid, 9)
        self.log.close()

    def extension_log(self) -> str:
        """The extension's output channel (where it says which server it started)."""
        logs = sorted(self.user_data.glob("logs/**/*packgate*.log"))
        return "\n".join(f"== {p}\n{p.read_text(encoding='utf-8', errors='replace')}" for p in logs)


@pytest.fixture
def browser():
    """A headless Debian Chromium driven by Playwright (after checking code-server is there)."""
    _code_server()
    chromium = _chromium()
    with _sync_playwright()() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, headless=True,
                                              args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
        yield launched
        launched.close()


def _workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "training"
    folder.mkdir()
    (folder / "train.sh").write_text(SCRIPT, encoding="utf-8")
    return folder


@contextlib.contextmanager
def _session(browser, tmp_path: Path, locale: str, name: str):
    """code-server with the .vsix and a page on the workspace; a screenshot and the logs if it fails."""
    binary, vsix = _code_server(), _vsix()
    folder = _workspace(tmp_path)
    server = CodeServer(binary, vsix, tmp_path / "code-server", locale)
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(server.url(folder))
        page.wait_for_selector(".monaco-workbench .part.statusbar", timeout=WAIT_MS)
        yield page, folder, server
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        with contextlib.suppress(Exception):
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        with contextlib.suppress(Exception):
            (ARTIFACTS / f"{name}.log").write_text(
                server.extension_log() + "\n== code-server\n" + (server.home / "code-server.log").read_text(),
                encoding="utf-8")
        raise
    finally:
        page.close()
        server.stop()


def _open(page, name: str) -> None:
    page.keyboard.press("Control+P")
    page.wait_for_selector(".quick-input-widget input", timeout=WAIT_MS)
    page.keyboard.type(name)
    page.locator(".quick-input-list .monaco-list-row", has_text=name).first.wait_for(timeout=WAIT_MS)
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")
    page.wait_for_selector(".editor-instance .monaco-editor .view-lines", timeout=WAIT_MS)
    page.locator(".editor-instance .monaco-editor .view-lines").first.click()


def _go_to(page, line: int, column: int) -> None:
    """Put the cursor at 1-based line and column with Go to Line (Control+G)."""
    page.keyboard.press("Control+G")
    page.wait_for_selector(".quick-input-widget input", timeout=WAIT_MS)
    page.keyboard.type(f"{line}:{column}")
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)


def _status_text(page) -> str:
    return " | ".join(page.locator(".part.statusbar .statusbar-item").all_inner_texts())


def _wait_for(page, check, what: str, timeout_ms: int = WAIT_MS) -> None:
    deadline = time.monotonic() + timeout_ms / 1000
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout_ms} ms")
        page.wait_for_timeout(250)


def test_vsix_in_code_server_squiggle_problems_hover_quickfix_status(browser, tmp_path: Path) -> None:
    """Every feature, from the .vsix alone, with keyboard and mouse as a user would."""
    with _session(browser, tmp_path, "en", "vscode-en") as (page, folder, server):
        _open(page, "train.sh")
        page.wait_for_selector(".monaco-editor .squiggly-error", timeout=WAIT_MS)

        log = server.extension_log()
        assert "the bundled packgate" in log, f"the server was not the bundled one:\n{log}"

        page.keyboard.press("Control+Shift+M")
        page.wait_for_selector(".markers-panel .monaco-list-row", timeout=WAIT_MS)
        problems = " ".join(page.locator(".markers-panel .monaco-list-row").all_inner_texts())
        assert "PG001" in problems and "OFFLINE_PACKED_DATA" in problems, problems
        assert f"[Ln {GATE_ROW + 1}," in problems, problems

        _wait_for(page, lambda: "packing: leak" in _status_text(page), "the leak verdict in the status bar")

        # The gate's first character, counted in code points as VS Code's columns are.
        column = GATE_LINE.index(GATE) + 1
        page.locator(".editor-instance .monaco-editor .view-lines").first.click()
        _go_to(page, GATE_ROW + 1, column + 2)
        page.keyboard.press("Control+K")
        page.keyboard.press("Control+I")
        hover = page.locator(".monaco-hover:not(.hidden)")
        hover.first.wait_for(timeout=WAIT_MS)
        # The diagnostic's part of the hover comes first, the server's Markdown after it: the
        # rendered table has a row for each (BMR, PACKED_DATA) combination.
        def combinations() -> set[tuple[str, str]]:
            return table_combinations([row.split("\t") for row in hover.first.locator("table tr").all_inner_texts()])
        _wait_for(page, lambda: len(combinations()) == 4, "the hover's truth table on the gate")
        assert GATE in hover.first.inner_text()
        page.keyboard.press("Escape")

        page.keyboard.press("Control+.")
        rows = page.locator(".action-widget .monaco-list-row.action")
        rows.first.wait_for(timeout=WAIT_MS)
        titles = rows.all_inner_texts()
        wanted = next((i for i, title in enumerate(titles) if "OFFLINE_PACKED_DATA" in title), None)
        assert wanted is not None, f"no quick fix that sets OFFLINE_PACKED_DATA among {titles}"
        # Clicking a row does not reach it (an overlay takes the pointer): keys do.
        for _ in range(len(titles) + 1):
            focused = page.locator(".action-widget .monaco-list-row.action.focused").all_inner_texts()
            if focused and focused[0] == titles[wanted]:
                break
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        # Under load the edit can land after a save pressed at once, and that save writes the old
        # text: save once the tab shows the unsaved fix.
        _wait_for(page, lambda: page.locator(".tabs-container .tab.dirty").count() > 0, "the fix in the editor")
        page.keyboard.press("Control+S")
        _wait_for(page, lambda: (folder / "train.sh").read_text(encoding="utf-8") == FIXED, "the fix on disk")

        _wait_for(page, lambda: page.locator(".monaco-editor .squiggly-error").count() == 0, "the squiggle gone")
        _wait_for(page, lambda: "packing ✓" in _status_text(page), "the ok verdict in the status bar")


def _server_reads_locale() -> bool:
    """Whether this checkout's language server reads `initialize`'s locale (issue 17; the
    server side lands separately from the clients)."""
    return any(".locale" in f.read_text(encoding="utf-8") for f in (ROOT / "server" / "packgate" / "lsp").rglob("*.py"))


def test_vsix_in_chinese_code_server_gives_chinese_messages(browser, tmp_path: Path) -> None:
    """code-server in zh-cn: the extension's own texts in Chinese, and, packgate.lang being unset,
    the server's messages in Chinese only (it follows the locale VS Code sends in initialize)."""
    with _session(browser, tmp_path, "zh-cn", "vscode-zh") as (page, folder, server):
        _open(page, "train.sh")
        page.wait_for_selector(".monaco-editor .squiggly-error", timeout=WAIT_MS)
        _wait_for(page, lambda: "打包：泄漏" in _status_text(page), "the Chinese verdict in the status bar")
        page.keyboard.press("Control+Shift+M")
        page.wait_for_selector(".markers-panel .monaco-list-row", timeout=WAIT_MS)
        problems = page.locator(".markers-panel .monaco-list-row").all_inner_texts()
        message = next((row for row in problems if "PG001" in row), None)
        assert message is not None, problems
        assert re.search(r"[\u4e00-\u9fff]", message), message
        if not _server_reads_locale():
            pytest.skip("VS Code suite, Chinese messages: this checkout's server does not read initialize's "
                        "locale yet (the server half of issue 17); the extension's Chinese texts were checked")
        english = re.search(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b", message)
        assert english is None, f"English in a Chinese VS Code: {message!r}"
