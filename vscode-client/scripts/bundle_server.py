"""Put packgate and its dependencies into vscode-client/bundled/ for one VS Code target.

The wheels come from PyPI here, at build time (pip's cache keeps them for the next build);
the extension never downloads anything. Everything pure Python goes to bundled/libs/, once;
tree-sitter's compiled core, which differs per CPython version, to bundled/libs/cp3XX/ for
each version in PYTHONS. Usage: python bundle_server.py [--target linux-x64]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENT = Path(__file__).resolve().parent.parent
REPO = CLIENT.parent
BUNDLED = CLIENT / "bundled"
LIBS = BUNDLED / "libs"

# The CPython versions the bundle runs on (tree-sitter publishes wheels for each).
PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14"]

# VS Code's target names -> the wheel platform tags that run there (pip accepts several).
PLATFORM_TAGS = {
    "linux-x64": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
    "linux-arm64": ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "alpine-x64": ["musllinux_1_2_x86_64", "musllinux_1_1_x86_64"],
    "alpine-arm64": ["musllinux_1_2_aarch64", "musllinux_1_1_aarch64"],
    "darwin-x64": ["macosx_10_13_x86_64", "macosx_10_9_x86_64", "macosx_11_0_x86_64"],
    "darwin-arm64": ["macosx_11_0_arm64"],
    "win32-x64": ["win_amd64"],
    "win32-arm64": ["win_arm64"],
}


def host_target() -> str:
    """The VS Code target name of this machine (the one `vsce package --target` should get)."""
    system = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}.get(platform.system(), "")
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower(), "")
    if system == "linux" and platform.libc_ver()[0] != "glibc":
        system = "alpine"
    return f"{system}-{arch}"


def pip(*args: str) -> None:
    """Run pip of this interpreter; a failure stops the build with pip's own message."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    result = subprocess.run(command)
    if result.returncode != 0:
        sys.exit(f"bundle_server: pip failed: {' '.join(command)}")


def wheel_install(target_dir: Path, python: str, tags: list[str], *requirements: str, deps: bool = True) -> None:
    """Install binary wheels for `python` on `tags` into `target_dir` (no scripts, no .pyc)."""
    platform_args = [arg for tag in tags for arg in ("--platform", tag)]
    pip(
        "install", "--quiet", "--no-compile", "--only-binary=:all:", "--implementation", "cp",
        "--python-version", python, *platform_args, "--target", str(target_dir),
        *([] if deps else ["--no-deps"]), *requirements,
    )


def _packaging():
    """packaging's Requirement and canonicalize_name: the installed `packaging`, else the copy
    pip vendors. The build runs pip anyway, and the venv `make demo` makes holds packgate alone
    (no `packaging`): the build must not need more than pip."""
    try:
        from packaging.requirements import Requirement
        from packaging.utils import canonicalize_name
    except ImportError:
        from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]
        from pip._vendor.packaging.utils import canonicalize_name  # type: ignore[no-redef]
    return Requirement, canonicalize_name


def marked_requirements(libs: Path, python: str) -> list[str]:
    """Requirements of the installed distributions that hold on `python` only by a marker
    (pip judges markers by the Python running it, not by --python-version) and are missing."""
    Requirement, canonicalize_name = _packaging()
    installed = {canonicalize_name(d.name.split("-")[0]) for d in libs.glob("*.dist-info")}
    environment = {"python_version": python, "python_full_version": f"{python}.0", "extra": ""}
    missing = []
    for metadata in libs.glob("*.dist-info/METADATA"):
        for line in metadata.read_text(encoding="utf-8").splitlines():
            if not line.startswith("Requires-Dist:"):
                continue
            requirement = Requirement(line.split(":", 1)[1].strip())
            if requirement.marker is None or not requirement.marker.evaluate(environment):
                continue
            if canonicalize_name(requirement.name) not in installed:
                missing.append(str(requirement).split(";")[0].strip())
    return sorted(set(missing))


def add_marked_requirements(libs: Path, python: str, tags: list[str]) -> None:
    """Install what `marked_requirements` finds, until nothing is missing."""
    while missing := marked_requirements(libs, python):
        wheel_install(libs, python, tags, *missing, deps=False)


def build_packgate_wheel(out: Path) -> Path:
    """packgate's own wheel, from this checkout."""
    pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(REPO))
    return next(out.glob("packgate-*.whl"))


def scrub(libs: Path) -> None:
    """Drop what would carry the build machine: console scripts (their shebang names this
    machine's Python) and direct_url.json (the checkout's path)."""
    shutil.rmtree(libs / "bin", ignore_errors=True)
    for found in libs.rglob("direct_url.json"):
        found.unlink()
    for cache in list(libs.rglob("__pycache__")):
        shutil.rmtree(cache, ignore_errors=True)


def main() -> int:
    """Build bundled/libs and bundled/bundle.json for the chosen target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=host_target(), choices=sorted(PLATFORM_TAGS))
    target = parser.parse_args().target
    tags = PLATFORM_TAGS[target]
    shutil.rmtree(LIBS, ignore_errors=True)
    LIBS.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        wheel = build_packgate_wheel(Path(scratch))
        version = re.match(r"packgate-([^-]+)-", wheel.name).group(1)
        # Resolved for the oldest Python: its extra dependencies (tomli, exceptiongroup) are
        # only imported there, and harmless on the newer ones.
        wheel_install(LIBS, PYTHONS[0], tags, str(wheel))
    add_marked_requirements(LIBS, PYTHONS[0], tags)
    compiled = sorted(LIBS.glob("tree_sitter-*.dist-info"))
    if len(compiled) != 1:
        sys.exit("bundle_server: expected one tree_sitter in the resolved dependencies")
    tree_sitter = compiled[0].name.removesuffix(".dist-info").split("-")[1]
    # tree-sitter's core is built per CPython version: one folder each, the resolved one included.
    shutil.rmtree(LIBS / "tree_sitter")
    shutil.rmtree(compiled[0])
    for python in PYTHONS:
        wheel_install(LIBS / f"cp{python.replace('.', '')}", python, tags, f"tree-sitter=={tree_sitter}", deps=False)
    scrub(LIBS)
    manifest = {"packgate": version, "target": target, "pythons": PYTHONS, "treeSitter": tree_sitter}
    (BUNDLED / "bundle.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    print(f"bundle_server: packgate {version} for {target}, CPython {PYTHONS[0]}-{PYTHONS[-1]} in {BUNDLED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
