// Test 4 of issue 4: `npm run package` (run by `npm test` before the tests) made a .vsix that
// holds the bundled extension, the bundled server (issue 17) and the package files, nothing
// else; the bundle runs alone, and so does the server inside.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from './helpers/server.mjs';
import { readZip } from './helpers/zip.mjs';

const require = createRequire(import.meta.url);
const { createVscode, loadExtension, MANIFEST } = require('./helpers/vscode.cjs');

const bundleInfo = JSON.parse(readFileSync(join(ROOT, 'bundled', 'bundle.json'), 'utf8'));
const vsix = join(ROOT, `${MANIFEST.name}-${bundleInfo.target}-${MANIFEST.version}.vsix`);
const entries = existsSync(vsix) ? readZip(vsix) : new Map();
const scratch = mkdtempSync(join(tmpdir(), 'packgate-vsix-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('the .vsix', () => {
  test('exists (npm run package)', () => {
    assert.ok(existsSync(vsix), `${vsix} is missing: run npm run package`);
  });

  test('holds the bundle, the bundled server, the manifest, its translations, icon, README, CHANGELOG and LICENSE only', () => {
    const names = [...entries.keys()].sort();
    assert.deepEqual(names.filter((n) => !n.startsWith('extension/bundled/libs/')), [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/LICENSE.txt',
      'extension/bundled/bundle.json',
      'extension/bundled/tool/packgate_server.py',
      'extension/changelog.md',
      'extension/dist/extension.js',
      'extension/images/icon.png',
      'extension/l10n/bundle.l10n.zh-cn.json',
      'extension/package.json',
      'extension/package.nls.json',
      'extension/package.nls.zh-cn.json',
      'extension/readme.md',
    ]);
    const libs = names.filter((n) => n.startsWith('extension/bundled/libs/'));
    const top = new Set(libs.map((n) => n.split('/')[3]));
    for (const project of ['packgate', 'pygls', 'lsprotocol', 'cattrs', 'attrs', 'tree_sitter_bash', 'tomli']) {
      assert.ok(top.has(project), `bundled/libs/ lacks ${project}`);
    }
    assert.ok(!top.has('tree_sitter'), 'the compiled tree_sitter lives in the per-version folders');
    for (const python of ['cp310', 'cp311', 'cp312', 'cp313', 'cp314']) {
      assert.ok(libs.some((n) => n.startsWith(`extension/bundled/libs/${python}/tree_sitter/_binding.`)), python);
    }
    assert.deepEqual(bundleInfo.pythons, ['3.10', '3.11', '3.12', '3.13', '3.14']);
    assert.equal(bundleInfo.packgate, MANIFEST.version);
    // Nothing that names the build machine: console scripts (their shebang), pip's direct_url.json.
    assert.deepEqual(libs.filter((n) => /\/bin\/|direct_url\.json|__pycache__/.test(n)), []);
  });

  test('nothing in it names the folder it was built in', () => {
    const checkout = dirname(ROOT);
    const naming = [...entries].filter(([, data]) => data.includes(checkout)).map(([name]) => name);
    assert.deepEqual(naming, []);
  });

  test('its server runs from the unpacked .vsix on this machine\'s python3, with nothing else installed', () => {
    const unpacked = join(scratch, 'unpacked');
    for (const [name, data] of entries) {
      if (!name.startsWith('extension/bundled/')) continue;
      mkdirSync(dirname(join(unpacked, name)), { recursive: true });
      writeFileSync(join(unpacked, name), data);
    }
    const script = join(unpacked, 'extension', 'bundled', 'tool', 'packgate_server.py');
    const env = { PATH: process.env.PATH, PYTHONPATH: '/nonexistent' };
    const version = execFileSync('python3', ['-I', script, '--version'], { encoding: 'utf8', env, cwd: scratch });
    assert.equal(version.trim(), `packgate ${MANIFEST.version}`);
    const rules = execFileSync('python3', ['-I', script, 'rules'], { encoding: 'utf8', env, cwd: scratch });
    assert.match(rules, /PG001/);
  });

  test('the manifest carries the Marketplace metadata and the target platform', () => {
    assert.equal(MANIFEST.icon, 'images/icon.png');
    assert.match(MANIFEST.repository.url, /^https:\/\//);
    assert.match(MANIFEST.homepage, /^https:\/\//);
    assert.match(MANIFEST.bugs.url, /^https:\/\/.*\/issues$/);
    assert.ok(MANIFEST.categories.includes('Linters'));
    const png = entries.get('extension/images/icon.png');
    assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
    assert.ok(png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128, 'the Marketplace wants 128x128 at least');
    const xml = entries.get('extension.vsixmanifest').toString('utf8');
    assert.match(xml, new RegExp(`TargetPlatform="${bundleInfo.target}"`));
  });

  test('the VSIX manifest names the extension, its version and engine', () => {
    const xml = entries.get('extension.vsixmanifest').toString('utf8');
    assert.match(xml, new RegExp(`<Identity [^>]*Id="${MANIFEST.name}"[^>]*Version="${MANIFEST.version}"[^>]*Publisher="${MANIFEST.publisher}"`));
    assert.match(xml, /Id="Microsoft\.VisualStudio\.Code\.Engine" Value="\^1\.91\.0"/);
    assert.match(xml, /Microsoft\.VisualStudio\.Code\.Manifest" Path="extension\/package\.json"/);
    assert.match(xml, /Path="extension\/LICENSE\.txt"/);
  });

  test('the packaged package.json is this one, with the entry point in dist/', () => {
    const packaged = JSON.parse(entries.get('extension/package.json').toString('utf8'));
    assert.equal(packaged.main, './dist/extension.js');
    assert.deepEqual(packaged.contributes, MANIFEST.contributes);
    assert.deepEqual(packaged.activationEvents, MANIFEST.activationEvents);
    assert.deepEqual(packaged.dependencies, MANIFEST.dependencies);
  });

  test('the packaged bundle needs nothing but `vscode` and Node: it activates with no node_modules around', async () => {
    const bundle = join(scratch, 'extension.js');
    writeFileSync(bundle, entries.get('extension/dist/extension.js'));
    const required = new Set();
    const { vscode, record } = createVscode({ folders: [scratch] });
    const Module = require('node:module');
    const original = Module._load;
    Module._load = function load(request, ...rest) {
      required.add(request);
      return original.call(this, request, ...rest);
    };
    let extension;
    try {
      extension = loadExtension(vscode, bundle);
    } finally {
      Module._load = original;
    }
    const foreign = [...required].filter((r) => r !== 'vscode' && r !== bundle && !Module.isBuiltin(r));
    assert.deepEqual(foreign, []);
    assert.equal(typeof extension.activate, 'function');
    assert.equal(typeof extension.deactivate, 'function');
    const saved = process.env.PATH;
    process.env.PATH = scratch;
    try {
      extension.factory.createClient = () => assert.fail('no server here');
      await extension.activate({ subscriptions: [] });
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.env.PATH = saved;
    }
    assert.equal(record.messages.length, 1, 'it looked for a server and said it found none');
    assert.match(record.messages[0].message, /packgate was not found/);
  });
});
