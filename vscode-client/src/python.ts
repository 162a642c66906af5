// The interpreter selected in the Python extension (ms-python.python), when it is installed.

import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { PACKGATE_MODULE_CHECK } from './serverCommand';

interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
    resolveEnvironment(env: { path: string } | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
  };
  settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

export const PYTHON_EXTENSION_ID = 'ms-python.python';

/** The selected interpreter's path, or undefined when the Python extension is absent or has none. */
export async function selectedInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    if (api?.environments) {
      const active = api.environments.getActiveEnvironmentPath(resource);
      const resolved = active ? await api.environments.resolveEnvironment(active) : undefined;
      const executable = resolved?.executable.uri?.fsPath;
      if (executable) {
        return executable;
      }
    }
    // Older releases of the Python extension only have the settings API.
    return api?.settings?.getExecutionDetails(resource).execCommand?.[0];
  } catch {
    return undefined;
  }
}

/** Whether `python -m packgate` exists for this interpreter (it is not run, only looked up). */
export function hasPackgateModule(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(python, PACKGATE_MODULE_CHECK, { stdio: 'ignore', timeout: 15_000 });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}
