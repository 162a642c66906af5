// Bundles src/extension.ts with its runtime dependencies into dist/extension.js.
// `vscode` is provided by the editor at run time, so it stays external.
import * as esbuild from 'esbuild';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');

/** Where the "packgate not found" notification tells users to install packgate from. */
function installSource() {
  // packgate is not published on a package index: it installs from its source, either a
  // git URL given when building a .vsix for other machines, or the checkout this one is built from.
  if (process.env.PACKGATE_INSTALL_SOURCE) return process.env.PACKGATE_INSTALL_SOURCE;
  const checkout = resolve(here, '..');
  const pyproject = join(checkout, 'pyproject.toml');
  if (existsSync(pyproject) && /^name\s*=\s*"packgate"/m.test(readFileSync(pyproject, 'utf8'))) {
    return checkout;
  }
  return '';
}

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
  define: { PACKGATE_INSTALL_SOURCE: JSON.stringify(installSource()) },
  logLevel: 'warning',
});
