// Bundles src/extension.ts with its runtime dependencies into dist/extension.js.
// `vscode` is provided by the editor at run time, so it stays external.
import * as esbuild from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');

// Where the "packgate not found" notification tells users to install packgate from: only a
// source given on purpose (a git URL), never a path of the machine that builds the .vsix.
const installSource = process.env.PACKGATE_INSTALL_SOURCE ?? '';
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

rmSync(join(here, 'dist'), { recursive: true, force: true });
await esbuild.build({
  entryPoints: [join(here, 'src', 'extension.ts')],
  outfile: join(here, 'dist', 'extension.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: production ? false : 'linked',
  minify: production,
  keepNames: true,
  define: {
    PACKGATE_INSTALL_SOURCE: JSON.stringify(installSource),
    PACKGATE_EXTENSION_VERSION: JSON.stringify(version),
  },
  logLevel: 'warning',
});
