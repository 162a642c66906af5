// Test 1 of issue 4: the settings in package.json are the server's settings (same names,
// types, enums and defaults, and the server's English and Chinese descriptions), plus the four
// that only the extension reads.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, packgatePath } from './helpers/server.mjs';

const require = createRequire(import.meta.url);
const { createVscode, loadExtension } = require('./helpers/vscode.cjs');
const extension = loadExtension(createVscode().vscode);

const readJson = (name) => JSON.parse(readFileSync(join(ROOT, name), 'utf8'));
const manifest = readJson('package.json');
const nls = readJson('package.nls.json');
const nlsZh = readJson('package.nls.zh-cn.json');
const properties = manifest.contributes.configuration.properties;

// The server publishes its settings contract (`packgate settings-schema`).
const serverSchema = JSON.parse(execFileSync(packgatePath(), ['settings-schema'], { encoding: 'utf8' }));

// What a setting means, as opposed to how VS Code shows it.
const MEANING = ['type', 'enum', 'items', 'additionalProperties', 'default'];
const pick = (schema) => Object.fromEntries(MEANING.filter((k) => k in schema).map((k) => [k, schema[k]]));
const nlsKey = (value) => /^%(.+)%$/.exec(value)?.[1];

describe('settings parity with the server', () => {
  test('the server publishes settings', () => {
    assert.ok(Object.keys(serverSchema).length >= 5, JSON.stringify(serverSchema));
  });

  for (const [name, schema] of Object.entries(serverSchema)) {
    test(`${name}: same type, enum and default; the server's descriptions in English and Chinese`, () => {
      const contributed = properties[name];
      assert.ok(contributed, `package.json does not contribute ${name}`);
      assert.deepEqual(pick(contributed), pick(schema));
      const key = nlsKey(contributed.description);
      assert.ok(key, `${name}: the description must come from package.nls.json`);
      assert.equal(nls[key], schema.description);
      assert.equal(nlsZh[key], schema.description_zh);
    });
  }

  test('every other packgate setting is one the extension reads itself', () => {
    const clientOnly = Object.keys(properties).filter((name) => !(name in serverSchema));
    assert.deepEqual(
      clientOnly.sort(),
      extension.CLIENT_ONLY_SETTINGS.map((s) => `packgate.${s}`).sort(),
    );
    assert.deepEqual([...extension.CLIENT_ONLY_SETTINGS].sort(), ['importStrategy', 'interpreter', 'path', 'trace.server']);
  });

  test('the extension sends exactly the server\'s settings', () => {
    assert.deepEqual(
      extension.SERVER_SETTINGS.map((s) => `packgate.${s}`).sort(),
      Object.keys(serverSchema).sort(),
    );
    const config = { get: (key) => properties[`packgate.${key}`].default };
    assert.deepEqual(
      extension.initializationOptions(config),
      { packgate: Object.fromEntries(Object.entries(serverSchema).map(([k, s]) => [k.slice('packgate.'.length), s.default])) },
    );
  });

  test('packgate.trace.server is what vscode-languageclient reads for the client id `packgate`', () => {
    assert.deepEqual(pick(properties['packgate.trace.server']), {
      type: 'string',
      enum: ['off', 'messages', 'verbose'],
      default: 'off',
    });
    assert.equal(pick(properties['packgate.path']).type, 'string');
  });

  test('packgate.importStrategy and packgate.interpreter follow the Python tools extensions', () => {
    assert.deepEqual(pick(properties['packgate.importStrategy']), {
      type: 'string',
      enum: ['useBundled', 'fromEnvironment'],
      default: 'useBundled',
    });
    assert.deepEqual(pick(properties['packgate.interpreter']), { type: 'array', items: { type: 'string' }, default: [] });
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['packgate.path', 'packgate.interpreter']);
  });
});

describe('README', () => {
  test('its settings table lists every setting with its default', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [name, schema] of Object.entries(properties)) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      assert.ok(row, `README.md has no row for ${name}`);
      assert.ok(row.includes(`| \`${JSON.stringify(schema.default)}\` |`) || row.includes(`| \`${schema.default}\` |`), row);
    }
    assert.match(readme, /"editor\.codeActionsOnSave": \{\s*"source\.fixAll\.packgate": "explicit"/);
  });
});

describe('translations', () => {
  test('every %key% of package.json is in package.nls.json and package.nls.zh-cn.json', () => {
    const used = [...JSON.stringify(manifest).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    assert.ok(used.length > 8);
    for (const key of used) {
      assert.ok(nls[key], `package.nls.json lacks ${key}`);
      assert.ok(nlsZh[key], `package.nls.zh-cn.json lacks ${key}`);
    }
    assert.deepEqual(Object.keys(nlsZh).sort(), Object.keys(nls).sort());
    assert.deepEqual(Object.keys(nls).sort(), [...new Set(used)].sort(), 'no unused keys');
  });

  test('every message of the extension code has a Chinese translation in l10n/', () => {
    const bundle = readJson(join('l10n', 'bundle.l10n.zh-cn.json'));
    const sources = readdirSync(join(ROOT, 'src')).map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));
    const messages = new Set();
    for (const source of sources) {
      // vscode.l10n.t('...') in the glue code, t('...') in the pure modules.
      for (const match of source.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g)) {
        messages.add(match[1].replace(/\\(.)/g, '$1'));
      }
    }
    assert.ok(messages.size >= 10, [...messages].join(' | '));
    for (const message of messages) {
      assert.ok(bundle[message], `l10n/bundle.l10n.zh-cn.json lacks "${message}"`);
      const placeholders = (s) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();
      assert.deepEqual(placeholders(bundle[message]), placeholders(message), message);
    }
    assert.deepEqual(Object.keys(bundle).sort(), [...messages].sort(), 'no unused translations');
  });
});
