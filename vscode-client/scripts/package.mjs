// Packages the platform-specific .vsix: the bundled server for one VS Code target
// (scripts/bundle_server.py), then `vsce package --target`. `--all` builds every target.
//   node scripts/package.mjs [--target linux-x64 | --all]
// The wheels come from PyPI here, at build time; PACKGATE_BUILD_PYTHON names the Python that
// runs pip (default: the repository's .venv, else python3; it needs pip, nothing more).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const TARGETS = ['linux-x64', 'linux-arm64', 'alpine-x64', 'alpine-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];
const { name, version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

function hostTarget() {
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch];
  const musl = process.platform === 'linux' && !process.report?.getReport().header.glibcVersionRuntime;
  return `${musl ? 'alpine' : process.platform}-${arch}`;
}

function buildPython() {
  if (process.env.PACKGATE_BUILD_PYTHON) return process.env.PACKGATE_BUILD_PYTHON;
  const venv = join(here, '..', '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
  return existsSync(venv) ? venv : 'python3';
}

const args = process.argv.slice(2);
const targetIndex = args.indexOf('--target');
const targets = args.includes('--all') ? TARGETS : [targetIndex >= 0 ? args[targetIndex + 1] : hostTarget()];
for (const target of targets) {
  if (!TARGETS.includes(target)) {
    console.error(`package: unknown target ${target}; one of ${TARGETS.join(', ')}`);
    process.exit(2);
  }
  execFileSync(buildPython(), [join(here, 'scripts', 'bundle_server.py'), '--target', target], { stdio: 'inherit', cwd: here });
  const out = `${name}-${target}-${version}.vsix`;
  const vsce = join(here, 'node_modules', '.bin', process.platform === 'win32' ? 'vsce.cmd' : 'vsce');
  execFileSync(vsce, ['package', '--no-dependencies', '--target', target, '--out', out], { stdio: 'inherit', cwd: here });
}
