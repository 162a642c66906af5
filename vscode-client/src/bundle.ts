// The server that ships inside the extension (bundled/): which interpreter runs it and whether
// the bundle fits that interpreter. No `vscode` import, so every decision is unit-tested.

import * as fs from 'node:fs';
import * as path from 'node:path';

/** bundled/bundle.json, written by scripts/bundle_server.py. */
export interface BundleInfo {
  /** The packgate version inside. */
  packgate: string;
  /** The VS Code target it was built for (linux-x64, darwin-arm64, ...). */
  target: string;
  /** The CPython versions it carries compiled wheels for ("3.10", ...). */
  pythons: string[];
}

/** What an interpreter says about itself (the output of PYTHON_PROBE). */
export interface PythonProbe {
  version: [number, number, number];
  implementation: string;
  /** sys.platform: linux, darwin, win32. */
  platform: string;
  /** platform.machine(): x86_64, aarch64, arm64, AMD64. */
  machine: string;
  /** platform.libc_ver()[0]: glibc on most Linux, '' on musl (Alpine). */
  libc: string;
}

/** Where an interpreter for the bundled server comes from, in the order they are tried. */
export type InterpreterSource = 'setting' | 'python-extension' | 'path';

export interface InterpreterChoice {
  command: string[];
  source: InterpreterSource;
}

/** Run with `-I -c`: prints the PythonProbe as one JSON line. */
export const PYTHON_PROBE =
  'import json, platform, sys; print(json.dumps({"version": list(sys.version_info[:3]), ' +
  '"implementation": sys.implementation.name, "platform": sys.platform, ' +
  '"machine": platform.machine(), "libc": platform.libc_ver()[0]}))';

/** The bundle beside the extension's dist/, or undefined when this build carries none. */
export function readBundle(extensionRoot: string): BundleInfo | undefined {
  const file = path.join(extensionRoot, 'bundled', 'bundle.json');
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as BundleInfo;
    if (typeof info.packgate === 'string' && typeof info.target === 'string' && Array.isArray(info.pythons)) {
      return info;
    }
  } catch {
    // No bundle, or not one this extension wrote: handled as "no bundle".
  }
  return undefined;
}

/** The script that starts the bundled server. */
export function bundledServerScript(extensionRoot: string): string {
  return path.join(extensionRoot, 'bundled', 'tool', 'packgate_server.py');
}

/**
 * The interpreters to try for the bundled server, in order: packgate.interpreter alone when set
 * (an explicit choice is never replaced by another), else the Python extension's selected
 * interpreter, then python3 (python on Windows) on PATH.
 */
export function interpreterCandidates(opts: {
  configured?: string[];
  pythonExtension?: string;
  onPath?: string;
}): InterpreterChoice[] {
  const configured = (opts.configured ?? []).map((part) => part.trim()).filter((part) => part);
  if (configured.length > 0) {
    return [{ command: configured, source: 'setting' }];
  }
  const found: InterpreterChoice[] = [];
  if (opts.pythonExtension) {
    found.push({ command: [opts.pythonExtension], source: 'python-extension' });
  }
  if (opts.onPath) {
    found.push({ command: [opts.onPath], source: 'path' });
  }
  return found;
}

/** The probe's JSON line, or undefined when the output is not one. */
export function parseProbe(stdout: string): PythonProbe | undefined {
  try {
    const value = JSON.parse(stdout.trim().split('\n').pop() ?? '') as PythonProbe;
    if (Array.isArray(value.version) && typeof value.implementation === 'string') {
      return value;
    }
  } catch {
    // Not a Python, or one that printed something else.
  }
  return undefined;
}

/** The VS Code target an interpreter runs on, in the names `vsce package --target` uses. */
export function probeTarget(probe: PythonProbe): string {
  const machine = probe.machine.toLowerCase();
  const arch = machine === 'x86_64' || machine === 'amd64' ? 'x64' : machine === 'aarch64' || machine === 'arm64' ? 'arm64' : machine;
  const system = probe.platform === 'linux' ? (probe.libc === 'glibc' ? 'linux' : 'alpine') : probe.platform;
  return `${system}-${arch}`;
}

export type Translate = (message: string, ...args: (string | number)[]) => string;

/** Why the bundle cannot run on this interpreter, or undefined when it can. */
export function bundleMisfit(probe: PythonProbe, bundle: BundleInfo, t: Translate): string | undefined {
  const version = `${probe.version[0]}.${probe.version[1]}`;
  const supported = `${bundle.pythons[0]}–${bundle.pythons[bundle.pythons.length - 1]}`;
  if (probe.implementation !== 'cpython') {
    return t('it is {0} {1}, and the bundled server needs CPython {2}', probe.implementation, version, supported);
  }
  if (!bundle.pythons.includes(version)) {
    return t('it is Python {0}, and the bundled server needs CPython {1}', version, supported);
  }
  const target = probeTarget(probe);
  if (target !== bundle.target) {
    return t('this extension was built for {0}, and this Python runs on {1}', bundle.target, target);
  }
  return undefined;
}
