// The extension's pure decisions, through the bundle's exports.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { describe, test } from 'node:test';

const require = createRequire(import.meta.url);
const { createVscode, loadExtension } = require('./helpers/vscode.cjs');
const extension = loadExtension(createVscode().vscode);
const t = (message, ...args) => message.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
const at = (line) => ({ start: { line, character: 0 }, end: { line, character: 8 } });

describe('statusView', () => {
  test('no launches, or nothing it knows: hidden', () => {
    assert.equal(extension.statusView([], t), undefined);
    assert.equal(extension.statusView(null, t), undefined);
    assert.equal(extension.statusView([{ range: at(0), verdict: 'bogus', label: '' }], t), undefined);
  });

  test('the worst launch decides: corrupt > leak > mixed > unknown > off > ok', () => {
    const order = ['corrupt', 'leak', 'mixed', 'unknown', 'off', 'ok'];
    for (let i = 0; i < order.length; i++) {
      const launches = order.slice(i).reverse().map((verdict, line) => ({ range: at(line), verdict, label: verdict }));
      assert.equal(extension.statusView(launches, t).verdict, order[i]);
    }
  });

  test('texts and levels', () => {
    const view = (verdict) => extension.statusView([{ range: at(3), verdict, label: '' }], t);
    assert.deepEqual(
      ['ok', 'leak', 'corrupt', 'mixed', 'off', 'unknown'].map((v) => [view(v).text, view(v).level]),
      [
        ['packing ✓', undefined],
        ['packing: leak ✗', 'error'],
        ['packing: corrupt ✗', 'error'],
        ['packing: depends on the path ⚠', 'warning'],
        ['packing off', undefined],
        ['packing: unknown', undefined],
      ],
    );
    assert.equal(view('ok').tooltip, 'line 4: packing ✓', 'an empty label falls back to the verdict');
  });
});

describe('installCommand', () => {
  test('installs where the search will look: workspace .venv, then the selected interpreter, then pipx, then python3', () => {
    const source = '/src/packgate';
    assert.equal(
      extension.installCommand({ source, workspaceVenvPython: '/w/.venv/bin/python', python: '/p/python', pipx: '/b/pipx' }),
      '/w/.venv/bin/python -m pip install /src/packgate',
    );
    assert.equal(extension.installCommand({ source, python: '/p/python', pipx: '/b/pipx' }), '/p/python -m pip install /src/packgate');
    assert.equal(extension.installCommand({ source, pipx: '/b/pipx' }), 'pipx install /src/packgate');
    assert.equal(extension.installCommand({ source }), 'python3 -m pip install /src/packgate');
  });

  test('quotes what the shell would split', () => {
    assert.equal(
      extension.installCommand({ source: '/home/me/my code/packgate', python: '/opt/py $1/python' }),
      '"/opt/py \\$1/python" -m pip install "/home/me/my code/packgate"',
    );
    assert.equal(
      extension.installCommand({ source: 'git+https://example.org/packgate.git' }),
      'python3 -m pip install git+https://example.org/packgate.git',
    );
  });

  test('without a source there is no command to offer', () => {
    assert.equal(extension.installCommand({ source: '' }), undefined);
  });
});

describe('findServer', () => {
  const base = { workspaceFolders: ['/w'], trusted: true, envPath: '/usr/bin:/opt/bin', platform: 'linux' };

  test('records where it looked', async () => {
    const result = await extension.findServer({ ...base, isExecutable: () => false });
    assert.equal(result.found, undefined);
    assert.deepEqual(result.tried, ['/w/.venv/bin/packgate', 'packgate on PATH']);
  });

  test('~ is the home folder', async () => {
    const result = await extension.findServer({ ...base, configuredPath: '~/bin/packgate', isExecutable: () => true });
    assert.equal(result.found.command, `${homedir()}/bin/packgate`);
  });

  test('Windows names and folders', async () => {
    const seen = [];
    await extension.findServer({
      ...base,
      workspaceFolders: ['C:\\w'],
      envPath: 'C:\\bin',
      platform: 'win32',
      isExecutable: (f) => void seen.push(f) ?? false,
    });
    assert.ok(seen.some((f) => f.endsWith('packgate.exe') && f.includes('Scripts')), seen.join(' '));
  });
});

describe('the bundled server and its interpreter', () => {
  const bundle = { packgate: '0.1.0', target: 'linux-x64', pythons: ['3.10', '3.11', '3.12', '3.13', '3.14'] };
  const probe = (version, extra = {}) => ({
    version,
    implementation: 'cpython',
    platform: 'linux',
    machine: 'x86_64',
    libc: 'glibc',
    ...extra,
  });

  test('packgate.interpreter alone when set, else the Python extension, then PATH', () => {
    assert.deepEqual(extension.interpreterCandidates({ configured: [' /opt/py/bin/python3 ', '-X', ''], pythonExtension: '/e', onPath: '/p' }), [
      { command: ['/opt/py/bin/python3', '-X'], source: 'setting' },
    ]);
    assert.deepEqual(extension.interpreterCandidates({ configured: [' '], pythonExtension: '/e', onPath: '/p' }), [
      { command: ['/e'], source: 'python-extension' },
      { command: ['/p'], source: 'path' },
    ]);
    assert.deepEqual(extension.interpreterCandidates({ onPath: '/p' }), [{ command: ['/p'], source: 'path' }]);
    assert.deepEqual(extension.interpreterCandidates({}), []);
  });

  test('a CPython 3.10-3.14 on the platform of the bundle fits', () => {
    for (const minor of [10, 11, 12, 13, 14]) {
      assert.equal(extension.bundleMisfit(probe([3, minor, 1]), bundle, t), undefined);
    }
  });

  test('any other says why', () => {
    assert.equal(extension.bundleMisfit(probe([3, 9, 18]), bundle, t), 'it is Python 3.9, and the bundled server needs CPython 3.10–3.14');
    assert.equal(extension.bundleMisfit(probe([3, 15, 0]), bundle, t), 'it is Python 3.15, and the bundled server needs CPython 3.10–3.14');
    assert.equal(
      extension.bundleMisfit(probe([3, 11, 0], { implementation: 'pypy' }), bundle, t),
      'it is pypy 3.11, and the bundled server needs CPython 3.10–3.14',
    );
    assert.equal(
      extension.bundleMisfit(probe([3, 12, 0], { platform: 'darwin', machine: 'arm64', libc: '' }), bundle, t),
      'this extension was built for linux-x64, and this Python runs on darwin-arm64',
    );
    assert.equal(
      extension.bundleMisfit(probe([3, 12, 0], { libc: '' }), bundle, t),
      'this extension was built for linux-x64, and this Python runs on alpine-x64',
    );
  });

  test('the platform names are those of vsce --target', () => {
    assert.equal(extension.probeTarget(probe([3, 12, 0], { platform: 'win32', machine: 'AMD64', libc: '' })), 'win32-x64');
    assert.equal(extension.probeTarget(probe([3, 12, 0], { machine: 'aarch64' })), 'linux-arm64');
  });

  test('the probe prints one JSON line that parseProbe reads, and nothing else is taken for one', () => {
    assert.match(extension.PYTHON_PROBE, /json\.dumps/);
    const line = JSON.stringify(probe([3, 11, 7]));
    assert.deepEqual(extension.parseProbe(`noise\n${line}\n`), probe([3, 11, 7]));
    assert.equal(extension.parseProbe('Python 2.7.18'), undefined);
    assert.equal(extension.parseProbe(''), undefined);
  });

  test('the probe runs on this machine\'s python3 and says what it is', async () => {
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync('python3', ['-I', '-c', extension.PYTHON_PROBE], { encoding: 'utf8' });
    const parsed = extension.parseProbe(out);
    assert.ok(parsed, out);
    assert.equal(parsed.version.length, 3);
    assert.equal(parsed.platform, process.platform);
  });
});
