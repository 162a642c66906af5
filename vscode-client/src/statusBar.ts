// The status bar item with the packing verdict of the active shell script.

import * as vscode from 'vscode';
import { ErrorCodes, LanguageClient, State } from 'vscode-languageclient/node';
import { LaunchSummariesRequest, statusView } from './status';

export class PackingStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  private supported = true;

  constructor(
    private readonly client: LanguageClient,
    private readonly selector: vscode.DocumentSelector,
    private readonly log: (line: string) => void,
  ) {
    this.item = vscode.window.createStatusBarItem('packgate.packing', vscode.StatusBarAlignment.Left, 10);
    this.item.name = vscode.l10n.t('packgate packing verdict');
    this.disposables.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      // The server publishes diagnostics after each analysis, so the verdict is current then.
      vscode.languages.onDidChangeDiagnostics((event) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && event.uris.some((uri) => uri.toString() === active)) {
          this.schedule(100);
        }
      }),
      client.onDidChangeState((event) => {
        if (event.newState === State.Running) {
          this.schedule(0);
        } else {
          this.item.hide();
        }
      }),
    );
    this.schedule(0);
  }

  /** Ask the server again soon, coalescing bursts of events. */
  schedule(delayMs: number): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => void this.refresh(), delayMs);
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    if (!this.supported || !document || !vscode.languages.match(this.selector, document) || !this.client.isRunning()) {
      this.item.hide();
      return;
    }
    let summaries;
    try {
      summaries = await this.client.sendRequest(LaunchSummariesRequest, {
        textDocument: { uri: this.client.code2ProtocolConverter.asUri(document.uri) },
      });
    } catch (error) {
      // A server without the request (an older packgate): stop asking, say so once.
      if ((error as { code?: unknown } | undefined)?.code === ErrorCodes.MethodNotFound) {
        this.supported = false;
        this.log('The server does not answer packgate/launchSummaries; the status bar item stays hidden.');
      }
      this.item.hide();
      return;
    }
    if (generation !== this.generation) {
      return; // a newer refresh is under way
    }
    const view = statusView(summaries, (message, ...args) => vscode.l10n.t(message, ...args));
    if (!view) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.level ? new vscode.ThemeColor(`statusBarItem.${view.level}Background`) : undefined;
    this.item.command = {
      title: vscode.l10n.t('Go to the launch'),
      command: 'vscode.open',
      arguments: [document.uri, { selection: this.client.protocol2CodeConverter.asRange(view.range) }],
    };
    this.item.show();
  }

  dispose(): void {
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.disposables.forEach((d) => d.dispose());
  }
}
