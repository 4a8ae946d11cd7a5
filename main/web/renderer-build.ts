// Finds the built renderer (vite build of renderer/ into dist/renderer) and builds it when it is missing or older
// than its sources, so `agenvoy web` works right after `npm ci`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (where package.json and vite.config.ts live): the nearest folder above this module whose
 * package.json is the app's. The sources sit two levels below it, the CLI's bundle chunks four (dist/cli/b-<id>/chunks).
 */
export function projectRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here, depth = 0; depth < 6; depth++, dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (pkg.name === 'agenvoy-desktop') return dir;
    } catch {
      // Not here: look one folder up.
    }
  }
  return path.resolve(here, '..', '..');
}

/** The renderer build's folder. */
export function rendererDist(root = projectRoot()): string {
  return path.join(root, 'dist', 'renderer');
}

/** Whether the build is missing or older than a renderer or contract source; false where no sources ship. */
export function needsBuild(root = projectRoot()): boolean {
  const index = path.join(rendererDist(root), 'index.html');
  let built: number;
  try {
    built = fs.statSync(index).mtimeMs;
  } catch {
    return true;
  }
  const sources = [path.join(root, 'renderer'), path.join(root, 'preload')];
  return (
    sources.some((dir) => newestMtime(dir) > built) || newestMtime(path.join(root, 'vite.config.ts')) > built
  );
}

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(entry)) {
    if (child === 'node_modules' || child.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** Runs the renderer's vite build (a few seconds); `log` says it is happening. */
export async function buildRenderer(
  root = projectRoot(),
  log: (line: string) => void = () => {},
): Promise<void> {
  const config = path.join(root, 'vite.config.ts');
  if (!fs.existsSync(config)) throw new Error(`cannot build the renderer: ${config} is missing`);
  log('building the renderer (vite build, once after a change)…');
  // Loaded only when needed: vite is a dev tool and a prebuilt renderer needs none of it.
  const vite = await import('vite');
  await vite.build({ configFile: config, logLevel: 'warn' });
}

/** The folder to serve: built (or rebuilt) when needed; an error says how to build it by hand. */
export async function ensureRenderer(
  options: { root?: string; rebuild?: boolean; log?: (line: string) => void } = {},
): Promise<string> {
  const root = options.root ?? projectRoot();
  if (options.rebuild || needsBuild(root)) {
    try {
      await buildRenderer(root, options.log);
    } catch (error) {
      throw new Error(`the renderer is not built (${(error as Error).message}); run: npm run build:renderer`);
    }
  }
  const dist = rendererDist(root);
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`no renderer build in ${dist}; run: npm run build:renderer`);
  }
  return dist;
}
