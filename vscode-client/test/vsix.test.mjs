// Test 4 of issue 4: `npm run package` (run by `npm test` before the tests) made a .vsix that
// holds the bundled extension and the package files, nothing else, and the bundle runs alone.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from './helpers/server.mjs';
import { readZip } from './helpers/zip.mjs';

const require = createRequire(import.meta.url);
const { createVscode, loadExtension, MANIFEST } = require('./helpers/vscode.cjs');

const vsix = join(ROOT, `${MANIFEST.name}-${MANIFEST.version}.vsix`);
const entries = existsSync(vsix) ? readZip(vsix) : new Map();
const scratch = mkdtempSync(join(tmpdir(), 'packgate-vsix-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('the .vsix', () => {
  test('exists (npm run package)', () => {
    assert.ok(existsSync(vsix), `${vsix} is missing: run npm run package`);
  });

  test('holds the bundle, the manifest, its translations, README and LICENSE only', () => {
    assert.deepEqual([...entries.keys()].sort(), [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      'extension/l10n/bundle.l10n.zh-cn.json',
      'extension/package.json',
      'extension/package.nls.json',
      'extension/package.nls.zh-cn.json',
      'extension/readme.md',
    ]);
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
