// Test 2 of issue 4: the real `packgate lsp`, driven through vscode-languageserver-protocol (the
// library vscode-languageclient speaks through), with what the extension sends: the capability
// set its LanguageClient computes, the initialization options it builds and its answers to
// workspace/configuration. The script has Chinese comments and an astral character before the
// gate, so every position is checked in UTF-16 code units, the only encoding VS Code offers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { packgatePath } from './helpers/server.mjs';

const require = createRequire(import.meta.url);
const rpc = require('vscode-languageserver-protocol/node');
const { createVscode, loadExtension, SENT_DEFAULTS } = require('./helpers/vscode.cjs');

const SCRIPT = [
  '#!/bin/bash',
  '# 训练启动脚本：LLaVA-OneVision-2 离线打包数据',
  'set -euo pipefail',
  'MBS="${4:-1}"  # 每张卡的 micro batch，打包时必须是 1',
  'echo "准备环境 🚀"; export OFFLINE_PACKING_BMR=\'1\'  # 只打开了编码开关',
  'torchrun --nproc_per_node 8 aiak_training_llm/train.py --micro-batch-size "${MBS}"',
  '',
].join('\n');
const GATE_LINE = 4;
const GATE = 'OFFLINE_PACKING_BMR';
const GATE_COLUMN = SCRIPT.split('\n')[GATE_LINE].indexOf(GATE); // JS strings count UTF-16 units
const CJK = /[\u4e00-\u9fff]/;
const WAIT_MS = 20_000;

// --- the extension, loaded with a stand-in vscode whose settings are the defaults -----------
const { vscode, set } = createVscode();
const extension = loadExtension(vscode);
const channel = vscode.window.createOutputChannel('packgate', { log: true });
const options = () => extension.clientOptions(channel);
const realClient = extension.factory.createClient('packgate', 'packgate', { command: 'unused' }, options());
const capabilities = realClient.computeClientCapabilities();
// The same request type, made by this copy of the protocol library.
const LaunchSummaries = new rpc.RequestType(extension.LaunchSummariesRequest.method);

// --- the server ----------------------------------------------------------------------------
const scratch = mkdtempSync(join(tmpdir(), 'packgate-protocol-'));
const file = join(scratch, 'train_ov2.sh');
writeFileSync(file, SCRIPT);
// The project names its training code: with no code around, `auto` would only assume ov2, and
// fixes resting on an assumed profile are unsafe (offered, labelled, never in fixAll).
writeFileSync(join(scratch, '.packgate.toml'), 'profile = "ov2"\n');
const uri = pathToFileURL(file).href;

let server;
let connection;
let stderr = '';
let initializeResult;
const refreshes = [];
const configurationRequests = [];
const configurationAnswers = [];
const shown = [];

/** Reject after WAIT_MS so a silent server fails the test instead of hanging it. */
function timely(promise, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${WAIT_MS} ms; stderr:\n${stderr}`)), WAIT_MS);
    }),
  ]);
}
const request = (type, params) => timely(connection.sendRequest(type, params), type.method);

let version = 1;
let text = SCRIPT;

before(async () => {
  server = spawn(packgatePath(), ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'], cwd: scratch });
  server.stderr.on('data', (chunk) => (stderr += chunk));
  connection = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin),
  );
  // Answer as vscode-languageclient does, through the extension's middleware.
  connection.onRequest(rpc.ConfigurationRequest.type, async (params, token) => {
    configurationRequests.push(params);
    const defaults = async (p) => p.items.map(() => null);
    const answer = await options().middleware.workspace.configuration(params, token, defaults);
    configurationAnswers.push(answer);
    return answer;
  });
  connection.onRequest(rpc.DiagnosticRefreshRequest.type, () => void refreshes.push(Date.now()) ?? null);
  connection.onRequest(rpc.RegistrationRequest.type, () => null);
  connection.onRequest(rpc.UnregistrationRequest.type, () => null);
  connection.onRequest(rpc.WorkDoneProgressCreateRequest.type, () => null);
  connection.onNotification(rpc.ShowMessageNotification.type, (m) => shown.push(m));
  connection.onNotification(rpc.LogMessageNotification.type, () => {});
  connection.onNotification(rpc.PublishDiagnosticsNotification.type, () => {});
  connection.listen();

  initializeResult = await request(rpc.InitializeRequest.type, {
    processId: process.pid,
    clientInfo: { name: 'Visual Studio Code', version: '1.91.0' },
    locale: 'zh-cn',
    rootUri: pathToFileURL(scratch).href,
    workspaceFolders: [{ uri: pathToFileURL(scratch).href, name: 'scratch' }],
    capabilities,
    initializationOptions: options().initializationOptions,
    trace: 'off',
  });
  await connection.sendNotification(rpc.InitializedNotification.type, {});
  await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'shellscript', version, text },
  });
});

after(async () => {
  try {
    await timely(connection.sendRequest(rpc.ShutdownRequest.type), 'shutdown');
    await connection.sendNotification(rpc.ExitNotification.type);
  } catch {
    // the assertions already say what went wrong
  }
  connection?.dispose();
  server?.kill();
  rmSync(scratch, { recursive: true, force: true });
});

/** The document's diagnostics, pulled as VS Code pulls them. */
async function diagnostics() {
  const report = await request(rpc.DocumentDiagnosticRequest.type, { textDocument: { uri } });
  assert.equal(report.kind, 'full');
  return report.items;
}

/** Wait until `done()` holds. */
async function until(done, what) {
  const deadline = Date.now() + WAIT_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${WAIT_MS} ms; stderr:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Apply LSP text edits (UTF-16 positions) to a string. */
function applyEdits(source, edits) {
  const lines = source.split('\n');
  const offset = ({ line, character }) => lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((s, e) => s.slice(0, offset(e.range.start)) + e.newText + s.slice(offset(e.range.end)), source);
}

/** The edits of a code action for this document, whichever WorkspaceEdit form it uses. */
function editsOf(action) {
  const edit = action.edit;
  if (edit.documentChanges) {
    const change = edit.documentChanges.find((c) => c.textDocument?.uri === uri);
    return change.edits;
  }
  return edit.changes[uri];
}

describe('packgate lsp as the VS Code extension drives it', () => {
  test('the server speaks UTF-16 and offers what the extension relies on', () => {
    const caps = initializeResult.capabilities;
    assert.ok(caps.positionEncoding === undefined || caps.positionEncoding === 'utf-16', caps.positionEncoding);
    assert.ok(caps.hoverProvider);
    assert.ok(caps.diagnosticProvider, 'VS Code pulls diagnostics');
    const kinds = caps.codeActionProvider.codeActionKinds;
    assert.ok(kinds.includes('quickfix'));
    assert.ok(kinds.includes('source.fixAll.packgate'), 'README promises codeActionsOnSave source.fixAll.packgate');
    assert.deepEqual(shown, [], 'the settings the extension sends raise no problem');
  });

  test('the server asked for the packgate section and got the server settings only', async () => {
    await until(() => configurationAnswers.length > 0, 'workspace/configuration');
    const items = configurationRequests[0].items;
    const index = items.findIndex((i) => i.section === 'packgate');
    assert.ok(index >= 0, JSON.stringify(configurationRequests));
    assert.deepEqual(configurationAnswers[0][index], SENT_DEFAULTS);
  });

  test('PG001 on the gate, in UTF-16 columns after Chinese text and an emoji', async () => {
    const items = await diagnostics();
    const pg001 = items.filter((d) => d.code === 'PG001');
    assert.equal(pg001.length, 1, JSON.stringify(items, null, 1));
    const [d] = pg001;
    assert.equal(d.source, 'packgate');
    assert.equal(d.severity, 1);
    assert.equal(d.range.start.line, GATE_LINE);
    assert.equal(d.range.end.line, GATE_LINE);
    const line = text.split('\n')[GATE_LINE];
    const covered = line.slice(d.range.start.character, d.range.end.character);
    assert.ok(covered.includes(GATE), `the range covers "${covered}"`);
    assert.ok(/^(export |OFFLINE)/.test(covered) && /(BMR|'1')$/.test(covered), `the range covers "${covered}"`);
    assert.match(d.message, CJK, 'lang=both: the message has its Chinese half');
    assert.match(d.message, /OFFLINE_PACKED_DATA/);
    assert.ok(d.codeDescription?.href, 'the diagnostic links to the rule page');
  });

  test('hover on the gate: the truth table in English and Chinese', async () => {
    const hover = await request(rpc.HoverRequest.type, {
      textDocument: { uri },
      position: { line: GATE_LINE, character: GATE_COLUMN + 5 },
    });
    assert.ok(hover, 'a hover on the gate');
    const value = typeof hover.contents === 'string' ? hover.contents : hover.contents.value;
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(value, /BMR.*PACKED_DATA/);
    assert.match(value, CJK);
    assert.match(value, /\|/, 'a table');
    if (hover.range) {
      assert.equal(hover.range.start.line, GATE_LINE);
      assert.equal(text.split('\n')[GATE_LINE].slice(hover.range.start.character, hover.range.end.character), GATE);
    }
  });

  test('the launch summary says leak, and the status bar says so', async () => {
    const summaries = await request(LaunchSummaries, { textDocument: { uri } });
    assert.equal(summaries.length, 1, JSON.stringify(summaries));
    assert.equal(summaries[0].verdict, 'leak');
    assert.equal(summaries[0].range.start.line, GATE_LINE + 1, 'the launch is the torchrun line');
    const view = extension.statusView(summaries, (m, ...a) => m.replace(/\{(\d+)\}/g, (_, i) => a[i]));
    assert.equal(view.text, 'packing: leak ✗');
    assert.ok(view.tooltip.startsWith(`line ${GATE_LINE + 2}: `), view.tooltip);
  });

  test('source.fixAll.packgate (codeActionsOnSave) offers the same fix', async () => {
    const actions = await request(rpc.CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.packgate'], triggerKind: 2 },
    });
    assert.equal(actions.length, 1, JSON.stringify(actions));
    assert.equal(actions[0].kind, 'source.fixAll.packgate');
    assert.match(applyEdits(text, editsOf(actions[0])), /OFFLINE_PACKED_DATA/);
  });

  test('the quick fix inserts the missing export; after an incremental change the file is clean', async () => {
    const [d] = (await diagnostics()).filter((x) => x.code === 'PG001');
    const actions = await request(rpc.CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d], only: ['quickfix'], triggerKind: 1 },
    });
    const fix = actions.find((a) => a.kind === 'quickfix' && a.edit && a.isPreferred);
    assert.ok(fix, JSON.stringify(actions, null, 1));
    // English, or Chinese only once the server follows the client's locale (zh-cn here, lang unset).
    assert.ok(actions.some((a) => /disable|禁用/i.test(a.title)), 'disable actions are offered too');
    const edits = editsOf(fix);
    const fixed = applyEdits(text, edits);
    assert.match(fixed, /export OFFLINE_PACKED_DATA='1'/, 'same quoting style as the gate');

    // Send the edits as VS Code does: incremental changes in UTF-16 positions, last first.
    const changes = [...edits]
      .sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character)
      .map((e) => ({ range: e.range, text: e.newText }));
    version += 1;
    text = fixed;
    await connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    const after = await diagnostics();
    assert.deepEqual(after.filter((x) => x.severity === 1), [], JSON.stringify(after, null, 1));
  });

  test('after the fix the launch summary says ok', async () => {
    assert.match(text, /OFFLINE_PACKED_DATA/, 'runs after the quick fix');
    const summaries = await request(LaunchSummaries, { textDocument: { uri } });
    assert.equal(summaries[0].verdict, 'ok');
    const view = extension.statusView(summaries, (m, ...a) => m.replace(/\{(\d+)\}/g, (_, i) => a[i]));
    assert.equal(view.text, 'packing ✓');
  });

  test('a settings change (lang: en) reaches the server the way the extension sends it', async () => {
    version += 1;
    text = SCRIPT;
    await connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    const refreshed = refreshes.length;
    set('packgate.lang', 'en');
    await connection.sendNotification(
      rpc.DidChangeConfigurationNotification.type,
      extension.didChangeConfigurationParams(vscode.workspace.getConfiguration('packgate')),
    );
    // The server asks VS Code to pull again.
    await until(() => refreshes.length > refreshed, 'workspace/diagnostic/refresh after the change');
    const [d] = (await diagnostics()).filter((x) => x.code === 'PG001');
    assert.doesNotMatch(d.message, CJK, d.message);
  });
});
