// Wiring: find the server, start the language client, contribute commands and the status bar.
// The decisions live in serverCommand.ts, settings.ts and status.ts.

import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  Executable,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
} from 'vscode-languageclient/node';
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

/** Set at build time (esbuild.mjs): the checkout or git URL packgate installs from. */
declare const PACKGATE_INSTALL_SOURCE: string;

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

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('packgate', { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('packgate.restartServer', () => restart()),
    vscode.commands.registerCommand('packgate.showOutput', () => output?.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('packgate.path')) {
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
    return;
  }
  const found = search.found;
  log(`Starting ${[found.command, ...found.args, 'lsp'].join(' ')} (found by ${found.source})`);
  const server: Executable = {
    command: found.command,
    args: [...found.args, 'lsp'],
    options: { cwd: folders[0] },
  };
  const created: LanguageClient = factory.createClient(CLIENT_ID, 'packgate', server, clientOptions(output!, () => created));
  client = created;
  status = new PackingStatus(created, DOCUMENT_SELECTOR, log);
  try {
    await created.start();
  } catch (error) {
    // The language client has already shown the error, with a button to the output.
    log(`The packgate server did not start: ${String(error)}`);
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
    const message = vscode.l10n.t(
      'packgate was not found. Install it from its source folder with "python3 -m pip install <folder>", or set packgate.path.',
    );
    log(message);
    const choice = await vscode.window.showWarningMessage(message, openSettings);
    if (choice === openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'packgate.path');
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
