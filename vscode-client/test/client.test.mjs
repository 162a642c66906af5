// The whole extension as VS Code would run it, short of VS Code: the bundled LanguageClient,
// created by activate() with the extension's options, starts the real `packgate lsp` found in
// the workspace's .venv, and a shell script with Chinese comments is opened. Diagnostics, hover
// and the status bar come back through the client's own converters.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { packgatePath } from './helpers/server.mjs';

const require = createRequire(import.meta.url);
const { createVscode, loadExtension } = require('./helpers/vscode.cjs');

const SCRIPT = [
  '#!/bin/bash',
  '# 预训练启动脚本（离线打包数据）',
  'echo "开始 🚀"; export OFFLINE_PACKING_BMR=1  # 只开了一个开关',
  'torchrun aiak_training_llm/train.py --micro-batch-size 1',
  '',
].join('\n');
const GATE_LINE = 2;
const GATE_COLUMN = SCRIPT.split('\n')[GATE_LINE].indexOf('OFFLINE_PACKING_BMR');
const WAIT_MS = 20_000;

const workspace = mkdtempSync(join(tmpdir(), 'packgate-client-'));
mkdirSync(join(workspace, '.venv', 'bin'), { recursive: true });
symlinkSync(packgatePath(), join(workspace, '.venv', 'bin', 'packgate'));

// The environment's packgate (the bundled one runs in tests/e2e/test_vscode.py, in code-server).
const { vscode, record, openDocument } = createVscode({
  folders: [workspace],
  user: { 'packgate.importStrategy': 'fromEnvironment' },
});
const extension = loadExtension(vscode);
let document;

async function until(done, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!done()) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${WAIT_MS} ms\n${record.channels[0]?.lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

before(async () => {
  await extension.activate({ subscriptions: [] });
  document = openDocument(join(workspace, 'train.sh'), SCRIPT);
});

after(async () => {
  await extension.deactivate();
  rmSync(workspace, { recursive: true, force: true });
});

describe('the bundled language client on the real server', () => {
  test('starts the workspace .venv packgate without a complaint', () => {
    assert.deepEqual(record.messages, []);
    assert.ok(record.channels[0].lines.some((l) => l.includes('found by workspace-venv')));
  });

  test('diagnostics arrive in the collection in UTF-16 columns', async () => {
    const uri = document.uri.toString();
    await until(() => record.diagnostics.get(uri)?.length > 0, 'diagnostics');
    const pg001 = record.diagnostics.get(uri).find((d) => d.code?.value === 'PG001' || d.code === 'PG001');
    assert.ok(pg001, JSON.stringify(record.diagnostics.get(uri)));
    assert.equal(pg001.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(pg001.range.start.line, GATE_LINE);
    assert.ok(pg001.range.start.character <= GATE_COLUMN && GATE_COLUMN < pg001.range.end.character);
  });

  test('the hover provider answers on the gate', async () => {
    const registration = record.providers.find((p) => p.kind === 'languages.registerHoverProvider');
    assert.ok(registration, record.providers.map((p) => p.kind).join(', '));
    const [, provider] = registration.args;
    const token = new vscode.CancellationTokenSource().token;
    const hover = await provider.provideHover(document, new vscode.Position(GATE_LINE, GATE_COLUMN + 3), token);
    assert.match(hover.contents.map((c) => c.value).join('\n'), /PACKED_DATA[\s\S]*[\u4e00-\u9fff]/);
  });

  test('every request of the server to the client succeeded (registrations, configuration)', () => {
    const complaints = record.channels[0].lines.filter((l) => /fail|error|not registered|exception/i.test(l));
    assert.deepEqual(complaints, []);
  });

  test('the status bar shows the verdict at the launch', async () => {
    const [item] = record.statusItems;
    await until(() => item.visible || record.channels[0].lines.some((l) => l.includes('does not answer')), 'status bar');
    assert.equal(item.text, 'packing: leak ✗', record.channels[0].lines.join('\n'));
    assert.match(item.tooltip, /^line 4: /);
  });
});
