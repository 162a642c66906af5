// "packgate: Show what each launch sees": asks the server's packgate.showLaunches for the open
// script and shows the answer (the text `packgate launches` prints) in a document beside it.

import * as vscode from 'vscode';
import { ExecuteCommandRequest } from 'vscode-languageclient/node';
import type { LanguageClient } from 'vscode-languageclient/node';

/** The extension's command (the palette entry). */
export const OPEN_LAUNCHES = 'packgate.openLaunches';
/** The server's command behind it (workspace/executeCommand). */
export const SHOW_LAUNCHES = 'packgate.showLaunches';

/** Ask the server what each launch of the active script sees and open it beside the script. */
export async function openLaunches(client: LanguageClient | undefined, log: (line: string) => void): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    await vscode.window.showInformationMessage(vscode.l10n.t('Open a shell script first: packgate shows what its launches see.'));
    return;
  }
  if (!client || !client.isRunning()) {
    await vscode.window.showWarningMessage(vscode.l10n.t('The packgate server is not running.'));
    return;
  }
  const uri = client.code2ProtocolConverter.asUri(editor.document.uri);
  let text: unknown;
  try {
    text = await client.sendRequest(ExecuteCommandRequest.type, { command: SHOW_LAUNCHES, arguments: [uri] });
  } catch (error) {
    log(`${SHOW_LAUNCHES} failed: ${String(error)}`);
  }
  if (typeof text !== 'string') {
    await vscode.window.showWarningMessage(
      vscode.l10n.t('packgate could not tell what the launches of this script see (see the packgate output).'),
    );
    return;
  }
  const shown = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
  await vscode.window.showTextDocument(shown, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: true });
}
