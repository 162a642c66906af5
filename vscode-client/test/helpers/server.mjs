// Where the tests find the real packgate: PACKGATE_PATH, else the repository's .venv.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REPO = resolve(ROOT, '..');

/** The packgate executable under test; throws with a hint when there is none. */
export function packgatePath() {
  const path = process.env.PACKGATE_PATH || join(REPO, '.venv', 'bin', 'packgate');
  if (!existsSync(path)) {
    throw new Error(`no packgate at ${path}: run \`make venv\` in ${REPO}, or set PACKGATE_PATH`);
  }
  return path;
}
