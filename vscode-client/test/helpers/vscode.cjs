// A stand-in for the `vscode` module, enough to activate the bundled extension under
// `node --test`, and a loader that gives each test a fresh copy of dist/extension.js.
'use strict';

const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');

const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'extension.js');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const DEFAULTS = Object.fromEntries(
  Object.entries(MANIFEST.contributes.configuration.properties).map(([key, schema]) => [key, schema.default]),
);

/** The defaults of the settings the server reads, keyed as the server reads them. */
const SERVER_DEFAULTS = Object.fromEntries(
  ['profile', 'lang', 'select', 'extendSelect', 'ignore', 'severity', 'perFileIgnores', 'contract', 'workspace.maxScripts',
    'workspace.maxFiles'].map(
    (key) => [key, DEFAULTS[`packgate.${key}`]],
  ),
);

/**
 * What the extension sends when the user set nothing: the server's defaults but `lang`, which
 * the server then takes from the client's locale (issue 17).
 */
const SENT_DEFAULTS = Object.fromEntries(Object.entries(SERVER_DEFAULTS).filter(([key]) => key !== 'lang'));

class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  dispose() {
    if (this.fn) this.fn();
    this.fn = undefined;
  }
  static from(...disposables) {
    return new Disposable(() => disposables.forEach((d) => d?.dispose()));
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener) => {
      this.listeners.add(listener);
      return new Disposable(() => this.listeners.delete(listener));
    };
  }
  fire(value) {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

class CodeActionKind {
  constructor(value) {
    this.value = value;
  }
  append(part) {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(other) {
    return this.value === other.value || other.value.startsWith(`${this.value}.`);
  }
  intersects(other) {
    return this.contains(other) || other.contains(this);
  }
}
for (const [name, value] of Object.entries({
  Empty: '',
  QuickFix: 'quickfix',
  Refactor: 'refactor',
  RefactorExtract: 'refactor.extract',
  RefactorInline: 'refactor.inline',
  RefactorMove: 'refactor.move',
  RefactorRewrite: 'refactor.rewrite',
  Source: 'source',
  SourceOrganizeImports: 'source.organizeImports',
  SourceFixAll: 'source.fixAll',
  Notebook: 'notebook',
})) {
  CodeActionKind[name] = new CodeActionKind(value);
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this.emitter = emitter;
    this.token = { isCancellationRequested: false, onCancellationRequested: emitter.event };
  }
  cancel() {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this.emitter.fire();
    }
  }
  dispose() {
    this.emitter.dispose();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}

class Range {
  constructor(a, b, c, d) {
    [this.start, this.end] = typeof a === 'number' ? [new Position(a, b), new Position(c, d)] : [a, b];
  }
}

class Diagnostic {
  constructor(range, message, severity) {
    Object.assign(this, { range, message, severity });
  }
}

class MarkdownString {
  constructor(value = '') {
    this.value = value;
  }
  appendText(text) {
    this.value += text;
    return this;
  }
  appendMarkdown(text) {
    this.value += text;
    return this;
  }
}

class Hover {
  constructor(contents, range) {
    this.contents = Array.isArray(contents) ? contents : [contents];
    this.range = range;
  }
}

class TabInputText {
  constructor(uri) {
    this.uri = uri;
  }
}

class Uri {
  constructor(scheme, fsPath) {
    this.scheme = scheme;
    this.fsPath = fsPath;
    this.path = fsPath;
  }
  static file(p) {
    return new Uri('file', p);
  }
  static parse(value) {
    const match = /^([a-z][\w+.-]*):\/\/(.*)$/i.exec(value);
    return match ? new Uri(match[1], decodeURIComponent(match[2])) : new Uri('file', value);
  }
  toString() {
    return `${this.scheme}://${this.fsPath}`;
  }
}

function format(message, args) {
  return message.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
}

/**
 * A fresh fake `vscode`. `user` and `workspace` hold settings by full name
 * (`packgate.profile`), `folders` are file-system paths, `choose` picks a notification button.
 */
function createVscode(opts = {}) {
  const user = { ...(opts.user ?? {}) };
  const workspaceSettings = { ...(opts.workspace ?? {}) };
  const events = {
    configuration: new EventEmitter(),
    trust: new EventEmitter(),
    activeEditor: new EventEmitter(),
    diagnostics: new EventEmitter(),
  };
  const record = { messages: [], clipboard: [], commands: new Map(), executed: [], statusItems: [], channels: [] };

  function lookup(full) {
    if (full in workspaceSettings) return workspaceSettings[full];
    if (full in user) return user[full];
    if (full in DEFAULTS) return DEFAULTS[full];
    // A section below the key (`packgate.trace` -> {server: ...}).
    const prefix = `${full}.`;
    const nested = {};
    let any = false;
    for (const key of Object.keys(DEFAULTS)) {
      if (key.startsWith(prefix)) {
        nested[key.slice(prefix.length)] = lookup(key);
        any = true;
      }
    }
    return any ? nested : undefined;
  }

  function getConfiguration(section) {
    const name = (key) => (section ? `${section}.${key}` : key);
    return {
      get: (key, fallback) => {
        const value = lookup(name(key));
        // VS Code hands out frozen values; the extension must copy them.
        return value === undefined ? fallback : deepFreeze(structuredClone(value));
      },
      has: (key) => lookup(name(key)) !== undefined,
      inspect: (key) => ({
        key: name(key),
        defaultValue: DEFAULTS[name(key)],
        globalValue: user[name(key)],
        workspaceValue: workspaceSettings[name(key)],
      }),
      update: async () => {},
    };
  }

  const vscode = {
    version: '1.91.0',
    Disposable,
    EventEmitter,
    Uri,
    CodeActionKind,
    TabInputText,
    CancellationTokenSource,
    Position,
    Range,
    Diagnostic,
    MarkdownString,
    Hover,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    DiagnosticTag: { Unnecessary: 1, Deprecated: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ThemeColor: class ThemeColor {
      constructor(id) {
        this.id = id;
      }
    },
    l10n: { t: (message, ...args) => format(message, args) },
    env: {
      appName: 'Visual Studio Code',
      language: opts.language ?? 'en',
      clipboard: { writeText: async (text) => void record.clipboard.push(text) },
    },
    commands: {
      registerCommand: (id, fn) => {
        record.commands.set(id, fn);
        return new Disposable(() => record.commands.delete(id));
      },
      executeCommand: async (id, ...args) => {
        record.executed.push([id, ...args]);
      },
    },
    window: {
      activeTextEditor: undefined,
      onDidChangeActiveTextEditor: events.activeEditor.event,
      createOutputChannel: (name, options) => {
        const channel = { name, options, lines: [], shown: 0 };
        for (const level of ['info', 'warn', 'error', 'debug', 'trace', 'appendLine', 'append']) {
          channel[level] = (line) => channel.lines.push(line);
        }
        channel.show = () => void channel.shown++;
        channel.dispose = () => {};
        channel.logLevel = 2;
        channel.onDidChangeLogLevel = new EventEmitter().event;
        record.channels.push(channel);
        return channel;
      },
      createStatusBarItem: (id, alignment, priority) => {
        const item = { id, alignment, priority, visible: false, text: '', tooltip: undefined };
        item.show = () => void (item.visible = true);
        item.hide = () => void (item.visible = false);
        item.dispose = () => void (item.visible = false);
        record.statusItems.push(item);
        return item;
      },
      showWarningMessage: async (message, ...items) => notify('warning', message, items),
      showErrorMessage: async (message, ...items) => notify('error', message, items),
      showInformationMessage: async (message, ...items) => notify('information', message, items),
    },
    workspace: {
      isTrusted: opts.trusted ?? true,
      workspaceFolders: (opts.folders ?? []).map((p, index) => ({ uri: Uri.file(p), name: path.basename(p), index })),
      getConfiguration,
      onDidChangeConfiguration: events.configuration.event,
      onDidGrantWorkspaceTrust: events.trust.event,
    },
    languages: {
      onDidChangeDiagnostics: events.diagnostics.event,
      match: (selector, document) =>
        selector.some(
          (f) =>
            (!f.language || f.language === document.languageId) &&
            (!f.scheme || f.scheme === document.uri.scheme) &&
            (!f.pattern || globToRegExp(f.pattern).test(document.uri.fsPath)),
        )
          ? 10
          : 0,
    },
    extensions: {
      getExtension: (id) => (opts.extensions ?? {})[id],
    },
  };

  // The language client defines subclasses of vscode's classes when its module loads, and
  // TypeScript's import copies only own properties: give each name it uses an empty class.
  for (const name of [
    'CallHierarchyIncomingCall', 'CallHierarchyItem', 'CallHierarchyOutgoingCall',
    'CancellationError', 'CodeAction', 'CodeLens',
    'Color', 'ColorInformation', 'ColorPresentation', 'CompletionItem', 'CompletionList',
    'DiagnosticRelatedInformation', 'DocumentHighlight', 'DocumentLink',
    'DocumentSymbol', 'FoldingRange', 'InlayHint', 'InlayHintLabelPart',
    'InlineCompletionItem', 'InlineCompletionList', 'InlineValueEvaluatableExpression',
    'InlineValueText', 'InlineValueVariableLookup', 'LinkedEditingRanges', 'Location',
    'ParameterInformation', 'RelativePattern',
    'SelectionRange', 'SemanticTokens', 'SemanticTokensEdit', 'SemanticTokensEdits',
    'SemanticTokensLegend', 'SignatureHelp', 'SignatureInformation', 'SnippetString',
    'SnippetTextEdit', 'SymbolInformation', 'TabInputCustom', 'TabInputNotebook', 'TabInputText',
    'TabInputTextDiff', 'TextEdit', 'TypeHierarchyItem', 'WorkspaceEdit'
  ]) {
    vscode[name] = class {
      constructor(...args) {
        this.args = args;
      }
    };
  }

  // Providers the language client registers (languages.registerHoverProvider, ...) are kept
  // in record.providers; diagnostic collections in record.diagnostics.
  record.providers = [];
  record.diagnostics = new Map();
  vscode.languages.createDiagnosticCollection = (name) => {
    const collection = {
      name,
      set: (uri, items) => void record.diagnostics.set(uri.toString(), items ?? []),
      delete: (uri) => void record.diagnostics.delete(uri.toString()),
      get: (uri) => record.diagnostics.get(uri.toString()),
      has: (uri) => record.diagnostics.has(uri.toString()),
      clear: () => record.diagnostics.clear(),
      forEach: (fn) => record.diagnostics.forEach((items, uri) => fn(Uri.parse(uri), items, collection)),
      dispose: () => {},
    };
    return collection;
  };

  // Any other event of a namespace (workspace.onDidOpenTextDocument, ...) is an emitter that
  // the tests can fire through `events`; any register* function records what it is given.
  for (const space of ['window', 'workspace', 'languages', 'notebooks', 'extensions', 'env']) {
    vscode[space] = new Proxy(vscode[space] ?? {}, {
      get(target, name) {
        if (!(name in target) && typeof name === 'string' && /^on[A-Z]/.test(name)) {
          const emitter = new EventEmitter();
          events[`${space}.${name}`] = emitter;
          target[name] = emitter.event;
        }
        if (!(name in target) && typeof name === 'string' && /^register[A-Z]/.test(name)) {
          target[name] = (...args) => {
            const entry = { kind: `${space}.${name}`, args };
            record.providers.push(entry);
            return new Disposable(() => record.providers.splice(record.providers.indexOf(entry), 1));
          };
        }
        return target[name];
      },
    });
  }
  vscode.workspace.createFileSystemWatcher = (pattern) => {
    const watcher = { pattern, dispose: () => {} };
    for (const kind of ['Create', 'Change', 'Delete']) {
      watcher[`onDid${kind}`] = new EventEmitter().event;
    }
    record.watchers = [...(record.watchers ?? []), watcher];
    return watcher;
  };
  vscode.notebooks.notebookDocuments = [];
  vscode.workspace.textDocuments = [];
  vscode.workspace.notebookDocuments = [];
  vscode.window.visibleTextEditors = [];
  // Documents opened from content (workspace.openTextDocument({content})) and where they were shown.
  record.opened = [];
  vscode.ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2 };
  vscode.workspace.openTextDocument = async (options) => {
    const document = { options, languageId: options?.language, getText: () => options?.content ?? '' };
    record.opened.push({ document, shown: undefined });
    return document;
  };
  vscode.window.showTextDocument = async (document, options) => {
    const entry = record.opened.find((o) => o.document === document);
    if (entry) entry.shown = options;
    return { document };
  };
  const tabs = [];
  vscode.window.tabGroups = {
    all: [{ tabs }],
    onDidChangeTabs: (events.tabs = new EventEmitter()).event,
    onDidChangeTabGroups: new EventEmitter().event,
  };

  /** Open a document in an editor tab and make it the active editor, as VS Code would. */
  function openDocument(fsPath, text, languageId = 'shellscript') {
    const uri = Uri.file(fsPath);
    const document = textDocument(uri, text, languageId);
    vscode.workspace.textDocuments.push(document);
    tabs.push({ input: new TabInputText(uri) });
    const editor = { document };
    vscode.window.visibleTextEditors.push(editor);
    vscode.window.activeTextEditor = editor;
    events['workspace.onDidOpenTextDocument']?.fire(document);
    events.tabs.fire({ opened: [tabs.at(-1)], closed: [], changed: [] });
    events['window.onDidChangeVisibleTextEditors']?.fire(vscode.window.visibleTextEditors);
    events.activeEditor.fire(editor);
    return document;
  }

  async function notify(level, message, items) {
    record.messages.push({ level, message, items });
    return opts.choose ? opts.choose(message, items) : undefined;
  }

  /** Change a setting as the user would (then fire events.configuration yourself if needed). */
  function set(name, value, layer = 'user') {
    (layer === 'user' ? user : workspaceSettings)[name] = value;
  }

  return { vscode, record, events, set, openDocument };
}

/** The parts of vscode.TextDocument the language client reads. */
function textDocument(uri, text, languageId) {
  const lines = text.split('\n');
  return {
    uri,
    fileName: uri.fsPath,
    languageId,
    version: 1,
    isClosed: false,
    isDirty: false,
    isUntitled: false,
    eol: 1,
    lineCount: lines.length,
    getText: () => text,
    lineAt: (line) => ({ text: lines[line] }),
  };
}

// The glob forms the document selector uses: a leading "**/", "*" and "{a,b}".
function globToRegExp(glob) {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (c === '*') source += '[^/]*';
    else if (c === '{') source += '(?:';
    else if (c === '}') source += ')';
    else if (c === ',') source += '|';
    else source += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function deepFreeze(value) {
  if (value && typeof value === 'object') {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

/** Load dist/extension.js (or another bundle) afresh, with `require('vscode')` answered by `vscode`. */
function loadExtension(vscode, bundle = BUNDLE) {
  const resolved = require.resolve(bundle);
  delete require.cache[resolved];
  const original = Module._load;
  Module._load = function load(request, parent, isMain) {
    if (request === 'vscode') return vscode;
    return original.call(this, request, parent, isMain);
  };
  try {
    return require(resolved);
  } finally {
    Module._load = original;
  }
}

/** A fake ExtensionContext. */
function context() {
  return { subscriptions: [], extensionPath: ROOT, extensionUri: Uri.file(ROOT) };
}

module.exports = { createVscode, loadExtension, context, ROOT, BUNDLE, MANIFEST, DEFAULTS, SERVER_DEFAULTS, SENT_DEFAULTS };
