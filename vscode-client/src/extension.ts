// Wiring: find the server, start the language client, contribute commands and the status bar.
// The decisions live in serverCommand.ts, settings.ts and status.ts.

import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  Executable,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
import {
  BundleInfo,
  PYTHON_PROBE,
  PythonProbe,
  bundleMisfit,
  bundledServerScript,
  interpreterCandidates,
  parseProbe,
  readBundle,
} from './bundle';
import { OPEN_LAUNCHES, openLaunches } from './launches';
import { hasPackgateModule, selectedInterpreter } from './python';
import {
  SearchResult,
  findServer,
  installCommand,
  usableInstallSource,
  which,
  workspaceVenvPython,
} from './serverCommand';
import { didChangeConfigurationParams, initializationOptions, serverSettings } from './settings';
import { PackingStatus } from './statusBar';

export { findServer, installCommand } from './serverCommand';
export { CLIENT_ONLY_SETTINGS, SERVER_SETTINGS, didChangeConfigurationParams, initializationOptions } from './settings';
export { LaunchSummariesRequest, statusView } from './status';
export { PYTHON_PROBE, bundleMisfit, interpreterCandidates, parseProbe, probeTarget } from './bundle';

/** Set at build time (esbuild.mjs): a git URL packgate installs from, or '' when none was given. */
declare const PACKGATE_INSTALL_SOURCE: string;
/** Set at build time (esbuild.mjs): this extension's version, from package.json. */
declare const PACKGATE_EXTENSION_VERSION: string;

export const CLIENT_ID = 'packgate';

/** Shell scripts by language (VS Code also gives bash/sh shebang files this language) and by name. */
export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'shellscript' },
  { scheme: 'untitled', language: 'shellscript' },
  { scheme: 'file', pattern: '**/*.{sh,bash}' },
];

/** Replaced by the activation tests, which cannot run a real VS Code. */
export const factory = {
  createClient(id: string, name: string, server: ServerOptions, client: LanguageClientOptions): LanguageClient {
    return new LanguageClient(id, name, server, client);
  },
};

let output: vscode.LogOutputChannel | undefined;
let client: LanguageClient | undefined;
let status: PackingStatus | undefined;
let pending: Promise<void> = Promise.resolve();
/** The folder the extension is installed in (holding dist/ and, in a platform build, bundled/). */
let extensionRoot = path.join(__dirname, '..');

/** How the server is started, and what the version check says about it. */
interface ServerChoice {
  server: Executable;
  /** Where it came from, for the version message. */
  bundled: boolean;
  description: string;
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionRoot = context.extensionPath ?? extensionRoot;
  output = vscode.window.createOutputChannel('packgate', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('packgate.restartServer', () => restart()),
    vscode.commands.registerCommand('packgate.showOutput', () => output?.show(true)),
    vscode.commands.registerCommand(OPEN_LAUNCHES, () => openLaunches(client, log)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        event.affectsConfiguration('packgate.path') ||
        event.affectsConfiguration('packgate.importStrategy') ||
        event.affectsConfiguration('packgate.interpreter')
      ) {
        void restart();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restart()),
    { dispose: () => void stop() },
  );
  await restart();
}

export async function deactivate(): Promise<void> {
  await stop();
}

/** Stop the running server, if any, look for the server again and start it. */
export function restart(): Promise<void> {
  // One restart at a time; a failed one does not block the next.
  pending = pending
    .catch(() => undefined)
    .then(async () => {
      await stop();
      await start();
    });
  return pending;
}

async function start(): Promise<void> {
  const folders = fileWorkspaceFolders();
  const bundle = readBundle(extensionRoot);
  const useBundled = !configuredPath()?.trim() && importStrategy() === 'useBundled';
  if (useBundled && !bundle) {
    log('This build of the extension carries no server (it was packaged without --target); looking for packgate in the environment.');
  }
  const choice = useBundled && bundle ? await bundledServer(bundle, folders) : await environmentServer(folders);
  if (!choice) {
    return;
  }
  const server = choice.server;
  log(`Starting ${[server.command, ...(server.args ?? [])].join(' ')} (${choice.description})`);
  const created: LanguageClient = factory.createClient(CLIENT_ID, 'packgate', server, clientOptions(output!, () => created));
  client = created;
  status = new PackingStatus(created, DOCUMENT_SELECTOR, log);
  try {
    await created.start();
  } catch (error) {
    // The language client has already shown the error, with a button to the output.
    log(`The packgate server did not start: ${String(error)}`);
    return;
  }
  void checkServerVersion(created, choice);
}

/** The server found by packgate.path or in the user's environment (importStrategy fromEnvironment). */
async function environmentServer(folders: string[]): Promise<ServerChoice | undefined> {
  const search = await findServer({
    configuredPath: configuredPath(),
    workspaceFolders: folders,
    trusted: vscode.workspace.isTrusted,
    envPath: process.env.PATH,
    pythonInterpreter: () => selectedInterpreter(vscode.workspace.workspaceFolders?.[0]?.uri),
    hasPackgateModule,
  });
  log(`Looked for packgate at: ${search.tried.join(', ')}`);
  if (!search.found) {
    // Not awaited: activation must not wait for the user to answer the notification.
    void reportNotFound(search, folders);
    return undefined;
  }
  const found = search.found;
  return {
    server: { command: found.command, args: [...found.args, 'lsp'], options: { cwd: folders[0] } },
    bundled: false,
    description: `found by ${found.source}`,
  };
}

/**
 * The server inside the extension, on the first interpreter that fits the bundle:
 * packgate.interpreter, else the Python extension's, else python3 on PATH.
 */
async function bundledServer(bundle: BundleInfo, folders: string[]): Promise<ServerChoice | undefined> {
  const configured = configuredInterpreter();
  const candidates = interpreterCandidates({
    configured,
    // Asked only when needed: it activates the Python extension.
    pythonExtension: configured.length ? undefined : await selectedInterpreter(vscode.workspace.workspaceFolders?.[0]?.uri),
    onPath: which(process.platform === 'win32' ? 'python' : 'python3', process.env.PATH),
  });
  const refused: string[] = [];
  for (const candidate of candidates) {
    const shown = candidate.command.join(' ');
    const probe = await probePython(candidate.command);
    const why = probe
      ? bundleMisfit(probe, bundle, (message, ...args) => vscode.l10n.t(message, ...args))
      : vscode.l10n.t('it did not run as Python');
    if (!why) {
      return {
        server: {
          command: candidate.command[0],
          args: [...candidate.command.slice(1), '-I', bundledServerScript(extensionRoot), 'lsp'],
          options: { cwd: folders[0] },
        },
        bundled: true,
        description: `the bundled packgate ${bundle.packgate} on Python ${probe!.version.join('.')}, from ${candidate.source}`,
      };
    }
    log(`Not using ${shown} for the bundled server: ${why}`);
    refused.push(`${shown}: ${why}`);
  }
  const supported = `${bundle.pythons[0]}–${bundle.pythons[bundle.pythons.length - 1]}`;
  const message = refused.length
    ? vscode.l10n.t(
        'packgate cannot run its bundled server ({0}). Set packgate.interpreter to a CPython {1}, or install packgate in your environment and set packgate.importStrategy to fromEnvironment.',
        refused.join('; '),
        supported,
      )
    : vscode.l10n.t(
        'packgate needs Python (CPython {0}) to run its bundled server, and found none: install Python {0} or set packgate.interpreter to one.',
        supported,
      );
  log(message);
  void offerSettings(message, 'packgate.interpreter');
  return undefined;
}

/** What the interpreter says about itself, or undefined when it does not run. */
function probePython(command: string[]): Promise<PythonProbe | undefined> {
  return new Promise((resolve) => {
    let stdout = '';
    const child = spawn(command[0], [...command.slice(1), '-I', '-c', PYTHON_PROBE], {
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 15_000,
    });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => resolve(code === 0 ? parseProbe(stdout) : undefined));
  });
}

/** Says what to do when the running server is not the version of this extension. */
async function checkServerVersion(running: LanguageClient, choice: ServerChoice): Promise<void> {
  const version = running.initializeResult?.serverInfo?.version;
  if (!version) {
    log('The server did not say its version.');
    return;
  }
  if (version === PACKGATE_EXTENSION_VERSION) {
    log(`Server version ${version}, the extension's own.`);
    return;
  }
  const message = choice.bundled
    ? vscode.l10n.t(
        'The bundled packgate server is {0}, but this extension is {1}: reinstall the extension.',
        version,
        PACKGATE_EXTENSION_VERSION,
      )
    : vscode.l10n.t(
        'packgate {0} is running ({1}), but this extension is {2}. Install packgate {2} there, or clear packgate.path and set packgate.importStrategy to useBundled to run the server inside the extension.',
        version,
        choice.server.command,
        PACKGATE_EXTENSION_VERSION,
      );
  log(message);
  await offerSettings(message, 'packgate.importStrategy');
}

async function offerSettings(message: string, setting: string): Promise<void> {
  const openSettings = vscode.l10n.t('Open Settings');
  const choice = await vscode.window.showWarningMessage(message, openSettings);
  if (choice === openSettings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', setting);
  }
}

async function stop(): Promise<void> {
  status?.dispose();
  status = undefined;
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch (error) {
      log(`Stopping the server failed: ${String(error)}`);
    }
  }
}

/** The options of the language client; settings go out in the shape the server reads. */
export function clientOptions(
  channel: vscode.LogOutputChannel,
  self: () => LanguageClient | undefined = () => client,
): LanguageClientOptions {
  return {
    documentSelector: DOCUMENT_SELECTOR,
    initializationOptions: initializationOptions(vscode.workspace.getConfiguration('packgate')),
    // Makes the client send didChangeConfiguration when a packgate.* setting changes ...
    synchronize: { configurationSection: 'packgate' },
    outputChannel: channel,
    middleware: {
      workspace: {
        // ... holding the server's settings only, as in the initialization options.
        didChangeConfiguration: async () => {
          await self()?.sendNotification(
            DidChangeConfigurationNotification.type,
            didChangeConfigurationParams(vscode.workspace.getConfiguration('packgate')),
          );
        },
        // workspace/configuration for the `packgate` section, per folder, the same way.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) {
            return answers;
          }
          return params.items.map((item, index) =>
            item.section === 'packgate'
              ? serverSettings(
                  vscode.workspace.getConfiguration(
                    'packgate',
                    item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined,
                  ),
                )
              : answers[index],
          );
        },
      },
    },
  };
}

/** packgate.path; in an untrusted workspace only the user's own value counts. */
function configuredPath(): string | undefined {
  const config = vscode.workspace.getConfiguration('packgate');
  if (vscode.workspace.isTrusted) {
    return config.get<string>('path');
  }
  return config.inspect<string>('path')?.globalValue;
}

/** packgate.importStrategy: useBundled (the server inside the extension) or fromEnvironment. */
function importStrategy(): 'useBundled' | 'fromEnvironment' {
  const value = vscode.workspace.getConfiguration('packgate').get<string>('importStrategy');
  return value === 'fromEnvironment' ? 'fromEnvironment' : 'useBundled';
}

/** packgate.interpreter; in an untrusted workspace only the user's own value counts. */
function configuredInterpreter(): string[] {
  const config = vscode.workspace.getConfiguration('packgate');
  const value = vscode.workspace.isTrusted
    ? config.get<string[]>('interpreter')
    : config.inspect<string[]>('interpreter')?.globalValue;
  return Array.isArray(value) ? value.filter((part) => typeof part === 'string') : [];
}

function fileWorkspaceFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

async function reportNotFound(search: SearchResult, folders: string[]): Promise<void> {
  const openSettings = vscode.l10n.t('Open Settings');
  if (search.badPath) {
    const message = vscode.l10n.t(
      'packgate.path is set to "{0}", but {1} is not an executable file.',
      search.badPath.configured,
      search.badPath.file,
    );
    log(message);
    const choice = await vscode.window.showErrorMessage(message, openSettings);
    if (choice === openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'packgate.path');
    }
    return;
  }
  const command = installCommand({
    source: usableInstallSource(PACKGATE_INSTALL_SOURCE),
    workspaceVenvPython: vscode.workspace.isTrusted ? workspaceVenvPython(folders) : undefined,
    python: await selectedInterpreter(vscode.workspace.workspaceFolders?.[0]?.uri),
    pipx: which('pipx', process.env.PATH),
  });
  if (!command) {
    const message = readBundle(extensionRoot)
      ? vscode.l10n.t(
          'packgate was not found in your environment (packgate.importStrategy is fromEnvironment). Install it there, set packgate.path, or set packgate.importStrategy to useBundled to run the server inside the extension.',
        )
      : vscode.l10n.t(
          'packgate was not found, and this build of the extension carries no server. Install packgate in your environment, set packgate.path, or install the extension built for your platform.',
        );
    log(message);
    const choice = await vscode.window.showWarningMessage(message, openSettings);
    if (choice === openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'packgate.importStrategy');
    }
    return;
  }
  const message = vscode.l10n.t('packgate was not found. Install it with: {0}', command);
  log(message);
  const copy = vscode.l10n.t('Copy Command');
  const choice = await vscode.window.showWarningMessage(message, copy, openSettings);
  if (choice === copy) {
    await vscode.env.clipboard.writeText(command);
  } else if (choice === openSettings) {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'packgate.path');
  }
}

function log(line: string): void {
  output?.info(line);
}
