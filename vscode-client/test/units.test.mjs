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
