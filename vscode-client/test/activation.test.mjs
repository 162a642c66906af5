// Test 3 of issue 4: activation wiring with a stand-in `vscode` module. The bundle that ships
// (dist/extension.js) is loaded; only the LanguageClient constructor is replaced.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, test } from 'node:test';

const require = createRequire(import.meta.url);
const { createVscode, loadExtension, context, MANIFEST, SENT_DEFAULTS } = require('./helpers/vscode.cjs');
const { fakeClients } = require('./helpers/fakeClient.cjs');

const scratch = mkdtempSync(join(tmpdir(), 'packgate-activation-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

let counter = 0;
/** A new directory under the scratch folder. */
function dir(name) {
  const path = join(scratch, `${++counter}-${name}`);
  mkdirSync(path, { recursive: true });
  return path;
}

/** An executable file with a shell body. */
function executable(path, body = 'exit 0') {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A stand-in for the Python extension whose selected interpreter is `python`. */
function pythonExtension(python) {
  return {
    'ms-python.python': {
      isActive: true,
      exports: {
        environments: {
          getActiveEnvironmentPath: () => ({ path: python }),
          resolveEnvironment: async () => ({ executable: { uri: { fsPath: python } } }),
        },
      },
    },
  };
}

const savedPath = process.env.PATH;
let activeExtension;
beforeEach(() => {
  process.env.PATH = dir('empty-path');
});
afterEach(async () => {
  process.env.PATH = savedPath;
  await activeExtension?.deactivate();
  activeExtension = undefined;
});

/**
 * Activate a fresh copy of the bundle; returns the stand-ins and the clients it created.
 * Unless the test sets it, packgate.importStrategy is fromEnvironment: the search of the
 * user's environment (the bundled server has its own tests below).
 */
async function activate(opts = {}, answer) {
  const user = { 'packgate.importStrategy': 'fromEnvironment', ...(opts.user ?? {}) };
  const { vscode, record, events } = createVscode({ ...opts, user });
  const extension = loadExtension(vscode);
  const clients = fakeClients(answer);
  extension.factory.createClient = clients.createClient;
  activeExtension = extension;
  const ctx = opts.extensionPath ? { ...context(), extensionPath: opts.extensionPath } : context();
  await extension.activate(ctx);
  await settle();
  return { extension, vscode, record, events, clients, ctx };
}

/** Let notifications and their answers run (activation does not wait for them). */
const settle = () => new Promise((r) => setTimeout(r, 50));

/** Wait until `done()` holds (timers and promises in the extension run in between). */
async function until(done, what, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const EXPECTED_SELECTOR = [
  { scheme: 'file', language: 'shellscript' },
  { scheme: 'untitled', language: 'shellscript' },
  { scheme: 'file', pattern: '**/*.{sh,bash}' },
];

describe('activation', () => {
  test('starts `<workspace>/.venv/bin/packgate lsp` with the document selector and the settings', async () => {
    const folder = dir('ws');
    const server = executable(join(folder, '.venv', 'bin', 'packgate'));
    const { clients, record } = await activate({
      folders: [folder],
      user: { 'packgate.profile': 'ov15', 'packgate.ignore': ['PG008'] },
      workspace: { 'packgate.severity': { 'dead-var': 'error' } },
    });
    assert.equal(clients.created.length, 1);
    const [client] = clients.created;
    assert.equal(client.id, 'packgate', 'the id makes the client read packgate.trace.server');
    assert.deepEqual(client.server, { command: server, args: ['lsp'], options: { cwd: folder } });
    assert.deepEqual(client.options.documentSelector, EXPECTED_SELECTOR);
    assert.deepEqual(client.options.initializationOptions, {
      packgate: { ...SENT_DEFAULTS, profile: 'ov15', ignore: ['PG008'], severity: { 'dead-var': 'error' } },
    });
    assert.deepEqual(client.options.synchronize, { configurationSection: 'packgate' });
    assert.equal(client.options.outputChannel, record.channels[0]);
    assert.deepEqual(record.channels[0].options, { log: true });
    assert.equal(client.started, 1);
    assert.deepEqual(record.messages, []);
  });

  test('registers exactly the commands package.json contributes', async () => {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { record } = await activate({ folders: [folder] });
    const contributed = MANIFEST.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual([...record.commands.keys()].sort(), contributed);
    assert.deepEqual(contributed, ['packgate.openLaunches', 'packgate.restartServer', 'packgate.showOutput']);
  });

  test('show what each launch sees asks the server and opens the answer beside the script', async () => {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const answer = (method, params) =>
      method === 'workspace/executeCommand' && params.command === 'packgate.showLaunches' ? `seen: ${params.arguments[0]}\n` : null;
    const { vscode, record, clients } = await activate({ folders: [folder] }, answer);
    const script = vscode.Uri.file(join(folder, 'train.sh'));
    vscode.window.activeTextEditor = { document: { uri: script } };
    await record.commands.get('packgate.openLaunches')();
    const [client] = clients.created;
    assert.deepEqual(client.requests.at(-1), {
      method: 'workspace/executeCommand',
      params: { command: 'packgate.showLaunches', arguments: [script.toString()] },
    });
    assert.equal(record.opened.length, 1);
    const [{ document, shown }] = record.opened;
    assert.deepEqual(document.options, { content: `seen: ${script.toString()}\n`, language: 'plaintext' });
    assert.equal(shown.viewColumn, vscode.ViewColumn.Beside);
  });

  test('show what each launch sees without a script or an answer says so and opens nothing', async () => {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { vscode, record } = await activate({ folders: [folder] }, () => null);
    await record.commands.get('packgate.openLaunches')();
    vscode.window.activeTextEditor = { document: { uri: vscode.Uri.file(join(folder, 'train.sh')) } };
    await record.commands.get('packgate.openLaunches')();
    assert.equal(record.opened.length, 0);
    assert.equal(record.messages.length, 2);
  });

  test('the extension activates for shell scripts', () => {
    assert.ok(MANIFEST.activationEvents.includes('onLanguage:shellscript'));
    assert.ok(MANIFEST.activationEvents.some((e) => e.startsWith('workspaceContains:')));
    const shellscript = MANIFEST.contributes.languages.find((l) => l.id === 'shellscript');
    assert.deepEqual(shellscript.extensions, ['.sh', '.bash']);
    const firstLine = new RegExp(shellscript.firstLine);
    for (const shebang of ['#!/bin/bash', '#! /bin/bash', '#!/usr/bin/env bash', '#!/bin/sh', '#!/usr/bin/env -S bash -e']) {
      assert.ok(firstLine.test(shebang), shebang);
    }
    for (const shebang of ['#!/usr/bin/env zsh', '#!/bin/dash', '#!/usr/bin/env python3', '# bash']) {
      assert.ok(!firstLine.test(shebang), shebang);
    }
  });
});

describe('server search order', () => {
  // One workspace that has every kind of packgate, then remove them one by one.
  function layout() {
    const folder = dir('ws');
    const configured = executable(join(dir('configured'), 'packgate'));
    const venv = executable(join(folder, '.venv', 'bin', 'packgate'));
    const pathDir = dir('bin');
    const onPath = executable(join(pathDir, 'packgate'));
    const python = executable(join(dir('python'), 'python3'), 'exit 0');
    return { folder, configured, venv, pathDir, onPath, python };
  }

  test('1. packgate.path wins over everything', async () => {
    const l = layout();
    process.env.PATH = l.pathDir;
    const { clients } = await activate({
      folders: [l.folder],
      user: { 'packgate.path': l.configured },
      extensions: pythonExtension(l.python),
    });
    assert.equal(clients.created[0].server.command, l.configured);
  });

  test('packgate.path may use ~, ${workspaceFolder} and a path relative to the workspace', async () => {
    const l = layout();
    const inside = executable(join(l.folder, 'tools', 'packgate'));
    for (const setting of ['${workspaceFolder}/tools/packgate', 'tools/packgate']) {
      const { clients } = await activate({ folders: [l.folder], user: { 'packgate.path': setting } });
      assert.equal(clients.created[0].server.command, inside, setting);
      await activeExtension.deactivate();
    }
  });

  test('2. then the workspace .venv', async () => {
    const l = layout();
    process.env.PATH = l.pathDir;
    const { clients } = await activate({ folders: [l.folder], extensions: pythonExtension(l.python) });
    assert.equal(clients.created[0].server.command, l.venv);
  });

  test('3. then packgate on PATH', async () => {
    const l = layout();
    rmSync(l.venv);
    process.env.PATH = `relative/bin:${l.pathDir}`;
    const { clients } = await activate({ folders: [l.folder], extensions: pythonExtension(l.python) });
    assert.deepEqual(clients.created[0].server, { command: l.onPath, args: ['lsp'], options: { cwd: l.folder } });
  });

  test('4. then `python -m packgate lsp` with the Python extension\'s interpreter', async () => {
    const l = layout();
    rmSync(l.venv);
    const { clients } = await activate({ folders: [l.folder], extensions: pythonExtension(l.python) });
    assert.deepEqual(clients.created[0].server, {
      command: l.python,
      args: ['-m', 'packgate', 'lsp'],
      options: { cwd: l.folder },
    });
  });

  test('an interpreter without packgate is not used', async () => {
    const l = layout();
    rmSync(l.venv);
    const python = executable(join(dir('python'), 'python3'), 'exit 1');
    const { clients, record } = await activate({ folders: [l.folder], extensions: pythonExtension(python) });
    await until(() => record.messages.length > 0, 'the notification');
    assert.equal(clients.created.length, 0);
    assert.equal(record.messages.length, 1);
  });

  test('an untrusted workspace chooses nothing: its packgate.path and .venv are skipped', async () => {
    const l = layout();
    process.env.PATH = l.pathDir;
    const { clients } = await activate({
      folders: [l.folder],
      trusted: false,
      workspace: { 'packgate.path': l.configured },
    });
    assert.equal(clients.created[0].server.command, l.onPath);
  });

  test('in an untrusted workspace the user\'s own packgate.path still counts', async () => {
    const l = layout();
    const { clients } = await activate({ folders: [l.folder], trusted: false, user: { 'packgate.path': l.configured } });
    assert.equal(clients.created[0].server.command, l.configured);
  });
});

describe('when packgate is not found', () => {
  test('the notification says what to do, and names no folder of the machine that built the extension', async () => {
    const folder = dir('ws');
    const { clients, record } = await activate({
      folders: [folder],
      choose: (message, items) => items[0],
    });
    await until(() => record.executed.length > 0, 'the settings opened');
    assert.equal(clients.created.length, 0, 'no client without a server');
    assert.equal(record.messages.length, 1);
    const [shown] = record.messages;
    assert.equal(shown.level, 'warning');
    assert.deepEqual(shown.items, ['Open Settings']);
    assert.match(shown.message, /^packgate was not found in your environment .*set packgate\.importStrategy to useBundled/);
    const checkout = join(import.meta.dirname, '..', '..');
    assert.ok(!shown.message.includes(checkout), shown.message);
    assert.deepEqual(record.executed, [['workbench.action.openSettings', 'packgate.importStrategy']]);
  });

  test('the bundle holds no path of the machine that built it', () => {
    const bundle = readFileSync(join(import.meta.dirname, '..', 'dist', 'extension.js'), 'utf8');
    const checkout = join(import.meta.dirname, '..', '..');
    assert.ok(!bundle.includes(checkout), `dist/extension.js names ${checkout}`);
  });

  test('activation does not wait for the user to answer the notification', async () => {
    const { vscode, record } = createVscode({ folders: [dir('ws')], choose: () => new Promise(() => {}) });
    const extension = loadExtension(vscode);
    activeExtension = extension;
    await extension.activate(context());
    await settle();
    assert.equal(record.messages.length, 1);
  });

  test('a packgate.path that names no executable is an error, and nothing else is started', async () => {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { clients, record } = await activate({
      folders: [folder],
      user: { 'packgate.path': '/nonexistent/packgate' },
      choose: (message, items) => items[0],
    });
    await until(() => record.executed.length > 0, 'the settings opened');
    assert.equal(clients.created.length, 0);
    assert.equal(record.messages[0].level, 'error');
    assert.match(record.messages[0].message, /packgate\.path is set to "\/nonexistent\/packgate"/);
    assert.deepEqual(record.executed, [['workbench.action.openSettings', 'packgate.path']]);
  });
});

describe('the bundled server (packgate.importStrategy useBundled, the default)', () => {
  /** An extension folder with bundled/bundle.json, as scripts/bundle_server.py writes it. */
  function extensionFolder() {
    const root = dir('extension');
    mkdirSync(join(root, 'bundled'), { recursive: true });
    writeFileSync(
      join(root, 'bundled', 'bundle.json'),
      JSON.stringify({ packgate: MANIFEST.version, target: `${process.platform}-x64`, pythons: ['3.10', '3.11', '3.12', '3.13', '3.14'] }),
    );
    return root;
  }

  /** A stand-in interpreter that answers the extension's probe as `version` on this machine. */
  function python(version, implementation = 'cpython') {
    const probe = JSON.stringify({
      version: [...version.split('.').map(Number), 0].slice(0, 3),
      implementation,
      platform: process.platform,
      machine: 'x86_64',
      libc: 'glibc',
    });
    return executable(join(dir(`python${version}`), 'python3'), `echo '${probe}'`);
  }

  const strategy = { 'packgate.importStrategy': 'useBundled' };

  test('starts `python3 -I bundled/tool/packgate_server.py lsp` with python3 from PATH', async () => {
    const root = extensionFolder();
    const python3 = python('3.12');
    process.env.PATH = join(python3, '..');
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { clients, record } = await activate({ folders: [folder], user: strategy, extensionPath: root });
    assert.deepEqual(clients.created[0].server, {
      command: python3,
      args: ['-I', join(root, 'bundled', 'tool', 'packgate_server.py'), 'lsp'],
      options: { cwd: folder },
    });
    assert.deepEqual(record.messages, []);
    assert.ok(record.channels[0].lines.some((l) => /the bundled packgate .* on Python 3\.12\.0, from path/.test(l)));
  });

  test('packgate.interpreter comes first, then the Python extension\'s interpreter', async () => {
    const root = extensionFolder();
    process.env.PATH = join(python('3.11'), '..');
    const selected = python('3.13');
    const configured = python('3.10');
    let { clients } = await activate({ user: { ...strategy, 'packgate.interpreter': [configured] }, extensions: pythonExtension(selected), extensionPath: root });
    assert.equal(clients.created[0].server.command, configured);
    await activeExtension.deactivate();
    ({ clients } = await activate({ user: strategy, extensions: pythonExtension(selected), extensionPath: root }));
    assert.equal(clients.created[0].server.command, selected);
  });

  test('packgate.path still wins', async () => {
    const root = extensionFolder();
    process.env.PATH = join(python('3.12'), '..');
    const configured = executable(join(dir('configured'), 'packgate'));
    const { clients } = await activate({ user: { ...strategy, 'packgate.path': configured }, extensionPath: root });
    assert.deepEqual(clients.created[0].server.command, configured);
  });

  test('an interpreter the bundle does not fit is passed over for the next one, and the log says why', async () => {
    const root = extensionFolder();
    const onPath = python('3.12');
    process.env.PATH = join(onPath, '..');
    const { clients, record } = await activate({ user: strategy, extensions: pythonExtension(python('3.9')), extensionPath: root });
    assert.equal(clients.created[0].server.command, onPath);
    assert.ok(record.channels[0].lines.some((l) => /it is Python 3\.9, and the bundled server needs CPython 3\.10–3\.14/.test(l)));
  });

  test('none fits: one message with what was tried and what to do', async () => {
    const root = extensionFolder();
    process.env.PATH = join(python('3.9'), '..');
    const pypy = python('3.11', 'pypy');
    const { clients, record } = await activate({
      user: strategy,
      extensions: pythonExtension(pypy),
      extensionPath: root,
      choose: (message, items) => items[0],
    });
    await until(() => record.executed.length > 0, 'the settings opened');
    assert.equal(clients.created.length, 0);
    assert.equal(record.messages.length, 1);
    const { message } = record.messages[0];
    assert.match(message, /^packgate cannot run its bundled server \(/);
    assert.match(message, /it is pypy 3\.11, and the bundled server needs CPython 3\.10–3\.14/);
    assert.match(message, /it is Python 3\.9/);
    assert.match(message, /Set packgate\.interpreter to a CPython 3\.10–3\.14, or install packgate in your environment and set packgate\.importStrategy to fromEnvironment\.$/);
    assert.deepEqual(record.executed, [['workbench.action.openSettings', 'packgate.interpreter']]);
  });

  test('no Python at all: the message says to install one or set packgate.interpreter', async () => {
    const root = extensionFolder();
    const { clients, record } = await activate({ user: strategy, extensionPath: root });
    await until(() => record.messages.length > 0, 'the notification');
    assert.equal(clients.created.length, 0);
    assert.match(record.messages[0].message, /^packgate needs Python \(CPython 3\.10–3\.14\) to run its bundled server, and found none/);
  });

  /** Activates on a workspace .venv packgate whose server answers initialize with this version. */
  async function serverOfVersion(version) {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { vscode, record } = createVscode({ folders: [folder], user: { 'packgate.importStrategy': 'fromEnvironment' } });
    const extension = loadExtension(vscode);
    const clients = fakeClients();
    extension.factory.createClient = (...args) => {
      const created = clients.createClient(...args);
      created.initializeResult = { serverInfo: { name: 'packgate', version } };
      return created;
    };
    activeExtension = extension;
    await extension.activate(context());
    return record;
  }

  test('a server of another version than the extension: a warning says what to do', async () => {
    const record = await serverOfVersion('0.0.9');
    await until(() => record.messages.length > 0, 'the warning');
    assert.equal(record.messages[0].level, 'warning');
    assert.match(
      record.messages[0].message,
      new RegExp(`^packgate 0\\.0\\.9 is running \\(.*\\.venv/bin/packgate\\), but this extension is ${MANIFEST.version.replace(/\./g, '\\.')}\\. Install packgate ${MANIFEST.version.replace(/\./g, '\\.')} there, or clear packgate\\.path and set packgate\\.importStrategy to useBundled`),
    );
  });

  test('the same version: no warning', async () => {
    const record = await serverOfVersion(MANIFEST.version);
    await until(() => record.channels[0].lines.some((l) => l.startsWith('Server version')), 'the log line');
    assert.deepEqual(record.messages, []);
  });
});

describe('settings after the start', () => {
  async function started(opts) {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    return activate({ folders: [folder], ...opts });
  }

  test('didChangeConfiguration carries the server settings in the initialization shape', async () => {
    const { clients } = await started({ user: { 'packgate.lang': 'zh', 'packgate.path': '' } });
    const [client] = clients.created;
    await client.options.middleware.workspace.didChangeConfiguration(['packgate'], async () => {
      throw new Error('the default payload must not be sent');
    });
    assert.deepEqual(client.notifications, [
      {
        method: 'workspace/didChangeConfiguration',
        params: { settings: { packgate: { ...SENT_DEFAULTS, lang: 'zh' } } },
      },
    ]);
  });

  test('workspace/configuration for `packgate` answers the server settings only', async () => {
    const { clients } = await started({ user: { 'packgate.select': ['PG001'] } });
    const [client] = clients.created;
    const answers = await client.options.middleware.workspace.configuration(
      { items: [{ section: 'packgate', scopeUri: 'file:///x.sh' }, { section: 'editor' }] },
      undefined,
      async () => [{ path: '', trace: { server: 'off' }, profile: 'ov2' }, { tabSize: 4 }],
    );
    assert.deepEqual(answers, [
      { ...SENT_DEFAULTS, select: ['PG001'] },
      { tabSize: 4 },
    ]);
  });

  test('changing packgate.path restarts the server; other settings do not', async () => {
    const { clients, events } = await started();
    events.configuration.fire({ affectsConfiguration: (s) => s === 'packgate' || s === 'packgate.lang' });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(clients.created.length, 1);
    events.configuration.fire({ affectsConfiguration: (s) => s === 'packgate' || s === 'packgate.path' });
    await until(() => clients.created[1]?.started === 1, 'a new client');
    assert.equal(clients.created.length, 2);
    assert.equal(clients.created[0].stopped, 1);
    assert.equal(clients.created[1].started, 1);
  });

  test('the restart command stops the client and starts a new one; show output shows the channel', async () => {
    const { clients, record } = await started();
    await record.commands.get('packgate.restartServer')();
    assert.equal(clients.created.length, 2);
    assert.equal(clients.created[0].stopped, 1);
    record.commands.get('packgate.showOutput')();
    assert.equal(record.channels[0].shown, 1);
  });

  test('deactivate stops the server', async () => {
    const { clients, extension } = await started();
    await extension.deactivate();
    assert.equal(clients.created[0].stopped, 1);
  });
});

describe('status bar', () => {
  const summaries = [
    {
      range: { start: { line: 11, character: 0 }, end: { line: 11, character: 8 } },
      verdict: 'ok',
      label: 'BMR=1 PACKED_DATA=1 ✓ padding-free',
    },
    {
      range: { start: { line: 20, character: 0 }, end: { line: 20, character: 8 } },
      verdict: 'leak',
      label: 'BMR=1 PACKED_DATA=0 ✗ cross-sample attention',
    },
  ];

  test('shows the worst verdict of the active script, the details as tooltip, a click goes there', async () => {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { vscode, record, events, clients } = await (async () => {
      const { vscode, record, events } = createVscode({ folders: [folder], user: { 'packgate.importStrategy': 'fromEnvironment' } });
      const document = { uri: vscode.Uri.file(join(folder, 'train.sh')), languageId: 'shellscript' };
      vscode.window.activeTextEditor = { document };
      const extension = loadExtension(vscode);
      const clients = fakeClients((method) => (method === 'packgate/launchSummaries' ? summaries : null));
      extension.factory.createClient = clients.createClient;
      activeExtension = extension;
      await extension.activate(context());
      return { vscode, record, events, clients };
    })();
    const [item] = record.statusItems;
    await until(() => item.visible, 'the status bar item');
    assert.equal(item.visible, true);
    assert.equal(item.text, 'packing: leak ✗');
    assert.equal(item.tooltip, 'line 12: BMR=1 PACKED_DATA=1 ✓ padding-free\nline 21: BMR=1 PACKED_DATA=0 ✗ cross-sample attention');
    assert.equal(item.backgroundColor.id, 'statusBarItem.errorBackground');
    assert.equal(item.command.command, 'vscode.open');
    assert.deepEqual(item.command.arguments[1], { selection: summaries[1].range });
    assert.deepEqual(clients.created[0].requests.at(-1), {
      method: 'packgate/launchSummaries',
      params: { textDocument: { uri: vscode.window.activeTextEditor.document.uri.toString() } },
    });

    // Another editor that is not a shell script hides it.
    vscode.window.activeTextEditor = { document: { uri: vscode.Uri.file(join(folder, 'a.py')), languageId: 'python' } };
    events.activeEditor.fire(vscode.window.activeTextEditor);
    await until(() => !item.visible, 'hidden');
  });

  test('a server without packgate/launchSummaries: the item stays hidden and it stops asking', async () => {
    const folder = dir('ws');
    executable(join(folder, '.venv', 'bin', 'packgate'));
    const { vscode, record, events } = createVscode({ folders: [folder], user: { 'packgate.importStrategy': 'fromEnvironment' } });
    vscode.window.activeTextEditor = {
      document: { uri: vscode.Uri.file(join(folder, 'train.sh')), languageId: 'shellscript' },
    };
    const extension = loadExtension(vscode);
    const clients = fakeClients(() => {
      throw Object.assign(new Error('Method Not Found: packgate/launchSummaries'), { code: -32601 });
    });
    extension.factory.createClient = clients.createClient;
    activeExtension = extension;
    await extension.activate(context());
    await until(() => record.channels[0].lines.some((l) => /launchSummaries/.test(l)), 'the log line');
    events.activeEditor.fire(vscode.window.activeTextEditor);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(record.statusItems[0].visible, false);
    assert.equal(clients.created[0].requests.length, 1, 'asked once');
    assert.equal(record.channels[0].lines.filter((l) => /launchSummaries/.test(l)).length, 1);
  });
});
