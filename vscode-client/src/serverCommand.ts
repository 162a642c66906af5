// Finding the packgate executable. No `vscode` import: everything the search needs from the
// editor and the machine comes in through `SearchContext`, so the order is unit-tested.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** How to start the server: `command ...args lsp`. */
export interface ServerCommand {
  command: string;
  args: string[];
  /** Which step of the search found it, for the output channel. */
  source: 'setting' | 'workspace-venv' | 'path' | 'python-extension';
}

export interface SearchContext {
  /** `packgate.path` as the user set it (empty or undefined: not set). */
  configuredPath?: string;
  /** Workspace folders as file-system paths, first one first. */
  workspaceFolders: string[];
  /** Untrusted workspaces may not choose what runs: their .venv is skipped. */
  trusted: boolean;
  /** The PATH to search (process.env.PATH). */
  envPath?: string;
  platform?: NodeJS.Platform;
  isExecutable?: (file: string) => boolean;
  /** The interpreter selected in the Python extension, or undefined when it is not installed. */
  pythonInterpreter?: () => Promise<string | undefined>;
  /** Whether `python -m packgate` would run with that interpreter. */
  hasPackgateModule?: (python: string) => Promise<boolean>;
}

export interface SearchResult {
  found?: ServerCommand;
  /** Every place looked at, in order, for the output channel and the not-found message. */
  tried: string[];
  /** Set when the search stopped on a mistake the user must fix: packgate.path names no executable. */
  badPath?: { configured: string; file: string };
}

/**
 * Find the server, in order: packgate.path; <workspace>/.venv/bin/packgate; packgate on PATH;
 * `python -m packgate` with the Python extension's interpreter.
 */
export async function findServer(ctx: SearchContext): Promise<SearchResult> {
  const platform = ctx.platform ?? process.platform;
  const isExecutable = ctx.isExecutable ?? defaultIsExecutable;
  const tried: string[] = [];
  const executableNames = platform === 'win32' ? ['packgate.exe', 'packgate.cmd', 'packgate'] : ['packgate'];

  const configured = (ctx.configuredPath ?? '').trim();
  if (configured) {
    const file = expandConfiguredPath(configured, ctx.workspaceFolders);
    tried.push(file);
    if (isExecutable(file)) {
      return { found: { command: file, args: [], source: 'setting' }, tried };
    }
    // An explicit setting is the user's choice: never silently run another packgate instead.
    return { tried, badPath: { configured, file } };
  }

  if (ctx.trusted) {
    const venvBin = platform === 'win32' ? path.join('.venv', 'Scripts') : path.join('.venv', 'bin');
    for (const folder of ctx.workspaceFolders) {
      for (const name of executableNames) {
        const file = path.join(folder, venvBin, name);
        tried.push(file);
        if (isExecutable(file)) {
          return { found: { command: file, args: [], source: 'workspace-venv' }, tried };
        }
      }
    }
  }

  const onPath = which('packgate', ctx.envPath, platform, isExecutable);
  tried.push(onPath ?? 'packgate on PATH');
  if (onPath) {
    return { found: { command: onPath, args: [], source: 'path' }, tried };
  }

  const python = ctx.pythonInterpreter ? await ctx.pythonInterpreter() : undefined;
  if (python) {
    tried.push(`${python} -m packgate`);
    const hasModule = ctx.hasPackgateModule ? await ctx.hasPackgateModule(python) : false;
    if (hasModule) {
      return { found: { command: python, args: ['-m', 'packgate'], source: 'python-extension' }, tried };
    }
  }
  return { tried };
}

/** `~` and `${workspaceFolder}` expanded; a relative path is taken from the first workspace folder. */
export function expandConfiguredPath(configured: string, workspaceFolders: string[]): string {
  const folder = workspaceFolders[0];
  let file = configured;
  if (folder !== undefined) {
    file = file.replace(/\$\{workspaceFolder\}/g, folder);
  }
  if (file === '~' || file.startsWith('~/') || file.startsWith('~\\')) {
    file = path.join(os.homedir(), file.slice(1));
  }
  if (!path.isAbsolute(file) && folder !== undefined) {
    file = path.join(folder, file);
  }
  return path.normalize(file);
}

/** The first `name` on PATH, as an absolute path. */
export function which(
  name: string,
  envPath: string | undefined,
  platform: NodeJS.Platform = process.platform,
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  const names = platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const dir of (envPath ?? '').split(platform === 'win32' ? ';' : ':')) {
    // An empty or relative PATH entry means the current directory; never run from there.
    if (!dir || !path.isAbsolute(dir)) {
      continue;
    }
    for (const candidate of names) {
      const file = path.join(dir, candidate);
      if (isExecutable(file)) {
        return file;
      }
    }
  }
  return undefined;
}

/** The workspace's `.venv` interpreter, if it has one. */
export function workspaceVenvPython(
  workspaceFolders: string[],
  platform: NodeJS.Platform = process.platform,
  isExecutable: (file: string) => boolean = defaultIsExecutable,
): string | undefined {
  for (const folder of workspaceFolders) {
    const file =
      platform === 'win32' ? path.join(folder, '.venv', 'Scripts', 'python.exe') : path.join(folder, '.venv', 'bin', 'python');
    if (isExecutable(file)) {
      return file;
    }
  }
  return undefined;
}

/** The build-time install source, or '' when it is a checkout that is not on this machine. */
export function usableInstallSource(source: string, exists: (file: string) => boolean = fs.existsSync): string {
  if (!source || /^[a-z][\w+.-]*:\/\//i.test(source) || source.startsWith('git+')) {
    return source;
  }
  return exists(path.join(source, 'pyproject.toml')) ? source : '';
}

export function defaultIsExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) {
      return false;
    }
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The check behind `hasPackgateModule`: does `python -m packgate` exist for this interpreter? */
export const PACKGATE_MODULE_CHECK = [
  '-c',
  "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('packgate.__main__') else 1)",
];

/**
 * The one command that installs packgate where this search will find it. packgate is not on
 * PyPI, so it installs from its source (the checkout the extension was built from, or the
 * git URL given at build time); empty `source` means the extension does not know it.
 */
export function installCommand(opts: {
  source: string;
  /** The Python extension's interpreter, if any: installing there makes step 4 find it. */
  python?: string;
  /** A workspace folder holding .venv/bin/python: installing there makes step 2 find it. */
  workspaceVenvPython?: string;
  /** pipx on PATH: it puts packgate on PATH (step 3) without touching a system Python. */
  pipx?: string;
  platform?: NodeJS.Platform;
}): string | undefined {
  if (!opts.source) {
    return undefined;
  }
  if (!opts.workspaceVenvPython && !opts.python && opts.pipx) {
    return `pipx install ${shellQuote(opts.source)}`;
  }
  const python = opts.workspaceVenvPython ?? opts.python ?? (opts.platform === 'win32' ? 'py' : 'python3');
  return `${shellQuote(python)} -m pip install ${shellQuote(opts.source)}`;
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./\\-]+$/.test(word) ? word : `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}
