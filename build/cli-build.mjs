// The built `agenvoy` command (docs/hosts.md, "The agenvoy command"): one ESM bundle of main/launcher/main.ts in
// dist/cli/, packages left in node_modules, and a stamp listing every source file that went into it with its size and
// modification time. bin/agenvoy runs the bundle only while the stamp still matches the sources, so it never runs
// stale code; otherwise it rebuilds (esbuild, about a second) or falls back to loading the TypeScript through tsx.
// Plain JavaScript: it runs before anything could compile TypeScript.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The bundle and its stamp. */
export const CLI_DIR = path.join(ROOT, 'dist', 'cli');
export const CLI_BUNDLE = path.join(CLI_DIR, 'main.mjs');
export const CLI_STAMP = path.join(CLI_DIR, 'stamp.json');
const ENTRY = path.join(ROOT, 'main', 'launcher', 'main.ts');

/**
 * Whether the bundle is there and was built from the sources as they are: every input it lists still has the size
 * and modification time it had. A source that changed, moved or went makes it stale (a new file only matters once an
 * input imports it, which changes that input).
 */
export function bundleIsFresh(root = ROOT) {
  const dir = path.join(root, 'dist', 'cli');
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(dir, 'stamp.json'), 'utf8'));
    if (!fs.statSync(path.join(dir, 'main.mjs')).isFile()) return false;
    if (typeof stamp?.build !== 'string' || !/^b-[0-9-]+$/.test(stamp.build)) return false;
    if (!fs.statSync(path.join(dir, stamp.build, 'main.mjs')).isFile()) return false;
  } catch {
    return false;
  }
  if (!stamp || typeof stamp !== 'object' || !Array.isArray(stamp.inputs) || stamp.inputs.length === 0)
    return false;
  for (const input of stamp.inputs) {
    if (!input || typeof input.path !== 'string') return false;
    let stat;
    try {
      stat = fs.statSync(path.join(root, input.path));
    } catch {
      return false;
    }
    if (stat.size !== input.size || stat.mtimeMs !== input.mtimeMs) return false;
  }
  return true;
}

/** How long a superseded build's folder is kept: a command started before a rebuild still loads its chunks from it. */
const OLD_BUILDS_KEPT_MS = 60 * 60_000;

/**
 * Builds the command and its stamp. esbuild splits it at every dynamic import, so a command loads only its own
 * chunks (docs/hosts.md, "Fast start"). Each build goes into a folder of its own (dist/cli/b-<id>/); then
 * dist/cli/main.mjs, a one-line module naming that folder, and the stamp are each written under a temporary name and
 * renamed, so two commands rebuilding at once (tests run in parallel) never leave a half-written bundle, and the stamp
 * comes last: a bundle without its stamp is stale, never wrong. A folder is removed an hour after another replaced it.
 */
export async function buildCli(root = ROOT) {
  const { build } = await import('esbuild');
  const dir = path.join(root, 'dist', 'cli');
  fs.mkdirSync(dir, { recursive: true });
  const id = `${process.pid}-${Date.now()}`;
  const buildDir = path.join(dir, `b-${id}`);
  const result = await build({
    // The metafile names its inputs relative to this folder, and the stamp resolves them against `root`: without it
    // they were relative to wherever the command was started, which only matched when both sat at the same depth.
    absWorkingDir: root,
    entryPoints: { main: root === ROOT ? ENTRY : path.join(root, 'main', 'launcher', 'main.ts') },
    outdir: buildDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // better-sqlite3 and keytar are native, and every package keeps its own files and paths in node_modules.
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).map((input) => {
    const full = path.resolve(root, input);
    const stat = fs.statSync(full);
    return { path: path.relative(root, full), size: stat.size, mtimeMs: stat.mtimeMs };
  });
  const entryTemp = path.join(dir, `main.${id}.mjs`);
  fs.writeFileSync(entryTemp, `export * from './b-${id}/main.mjs';\n`);
  fs.renameSync(entryTemp, path.join(dir, 'main.mjs'));
  const stampTemp = path.join(dir, `stamp.${id}.json`);
  const stamp = { built: new Date().toISOString(), build: `b-${id}`, inputs };
  fs.writeFileSync(stampTemp, `${JSON.stringify(stamp, null, 1)}\n`);
  fs.renameSync(stampTemp, path.join(dir, 'stamp.json'));
  removeOldBuilds(dir, `b-${id}`);
  return { inputs: inputs.length };
}

/** Removes the build folders (and stray files of an interrupted build) that a newer build replaced over an hour ago. */
function removeOldBuilds(dir, current) {
  for (const name of fs.readdirSync(dir)) {
    if (name === current || name === 'main.mjs' || name === 'stamp.json') continue;
    const full = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(full).mtimeMs > OLD_BUILDS_KEPT_MS)
        fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // Another build removed it first.
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { inputs } = await buildCli();
  console.log(`built dist/cli/main.mjs from ${inputs} source files`);
}
