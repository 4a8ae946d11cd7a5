// Bundles the Electron shell: main (ESM, dependencies left in node_modules) and the two sandboxed preloads
// (CommonJS, one file each: a sandboxed preload can require only `electron`). Output: dist/electron/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the bundles go. */
export const OUT_DIR = path.join(ROOT, 'dist', 'electron');

/** Builds main.mjs, preload.cjs and dialog-preload.cjs. */
export async function buildElectron(): Promise<void> {
  await Promise.all([
    build({
      entryPoints: [path.join(ROOT, 'main', 'electron', 'main.ts')],
      outfile: path.join(OUT_DIR, 'main.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Native modules (better-sqlite3, keytar) and every other package stay in node_modules, where
      // electron-builder rebuilds the native ones for Electron.
      packages: 'external',
      sourcemap: 'linked',
      logLevel: 'warning',
    }),
    ...['preload', 'dialog-preload'].map((name) =>
      build({
        entryPoints: [path.join(ROOT, 'preload', `${name}.ts`)],
        outfile: path.join(OUT_DIR, `${name}.cjs`),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'chrome130',
        external: ['electron'],
        logLevel: 'warning',
      }),
    ),
  ]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildElectron();
  console.log(`built ${path.relative(ROOT, OUT_DIR)}/{main.mjs,preload.cjs,dialog-preload.cjs}`);
}
