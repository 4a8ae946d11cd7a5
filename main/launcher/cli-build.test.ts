// The built agenvoy command (docs/hosts.md, "The agenvoy command"): bin/agenvoy runs the bundle while its stamp
// matches the sources, rebuilds it when a source changed, and runs the TypeScript through tsx when it cannot build.
// A real esbuild and real child processes over a small tree of the same layout (bin/, build/, main/launcher/).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript without declarations, run before anything compiles TypeScript
import { buildCli, bundleIsFresh } from '../../build/cli-build.mjs';

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '..', '..');
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tree laid out like the repository, whose command prints `said` and the way it was loaded. */
function tree(said: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-cli-build-'));
  temps.push(root);
  fs.mkdirSync(path.join(root, 'bin'));
  fs.mkdirSync(path.join(root, 'build'));
  fs.copyFileSync(path.join(REPO, 'bin', 'agenvoy'), path.join(root, 'bin', 'agenvoy'));
  fs.copyFileSync(path.join(REPO, 'build', 'cli-build.mjs'), path.join(root, 'build', 'cli-build.mjs'));
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  fs.writeFileSync(path.join(root, 'package.json'), '{"type":"module"}');
  say(root, said);
  return root;
}

function say(root: string, said: string): void {
  const dir = path.join(root, 'main', 'launcher');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'words.ts'), `export const words: string = ${JSON.stringify(said)};\n`);
  fs.writeFileSync(
    path.join(dir, 'main.ts'),
    `import { words } from './words';\n` +
      `export async function main(argv: string[]): Promise<number> {\n` +
      `  const how = import.meta.url.endsWith('.mjs') ? 'bundle' : 'source';\n` +
      `  console.log(JSON.stringify({ words, how, argv }));\n  return 0;\n}\n`,
  );
}

async function agenvoy(root: string, env: NodeJS.ProcessEnv = {}, cwd?: string) {
  const { stdout } = await run(process.execPath, [path.join(root, 'bin', 'agenvoy'), 'tools', 'list'], {
    env: { ...process.env, ...env },
    ...(cwd ? { cwd } : {}),
  });
  return JSON.parse(stdout) as { words: string; how: string; argv: string[] };
}

describe('the agenvoy command', () => {
  it('builds on first use, runs the bundle while it is fresh, and rebuilds when a source changes', async () => {
    const root = tree('first');
    expect(bundleIsFresh(root)).toBe(false);
    expect(await agenvoy(root)).toEqual({ words: 'first', how: 'bundle', argv: ['tools', 'list'] });
    expect(bundleIsFresh(root)).toBe(true);
    const built = fs.statSync(path.join(root, 'dist', 'cli', 'main.mjs')).mtimeMs;
    expect(await agenvoy(root)).toMatchObject({ words: 'first', how: 'bundle' });
    expect(fs.statSync(path.join(root, 'dist', 'cli', 'main.mjs')).mtimeMs).toBe(built);

    // An imported file changes: the stamp no longer matches, so the next run builds again and runs the new code.
    say(root, 'second, and longer');
    expect(bundleIsFresh(root)).toBe(false);
    expect(await agenvoy(root)).toMatchObject({ words: 'second, and longer', how: 'bundle' });
    expect(bundleIsFresh(root)).toBe(true);
  });

  it('keeps its build wherever the command is started, above or below the app folder', async () => {
    const root = tree('anywhere');
    const deeper = path.join(root, 'main', 'launcher');
    for (const cwd of ['/', path.dirname(root), deeper]) {
      fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
      expect(await agenvoy(root, {}, cwd), cwd).toMatchObject({ words: 'anywhere', how: 'bundle' });
      expect(bundleIsFresh(root), cwd).toBe(true);
    }
  });

  it('never runs stale code: a source touched with the same size, or gone, is stale too', async () => {
    const root = tree('same');
    await buildCli(root);
    const words = path.join(root, 'main', 'launcher', 'words.ts');
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(words, later, later);
    expect(bundleIsFresh(root)).toBe(false);
    await buildCli(root);
    expect(bundleIsFresh(root)).toBe(true);
    fs.rmSync(words);
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('a damaged stamp or a missing bundle is stale, never trusted', async () => {
    const root = tree('x');
    await buildCli(root);
    const stamp = path.join(root, 'dist', 'cli', 'stamp.json');
    for (const text of ['', '{', '[]', '{"inputs":[]}', '{"inputs":[{"path":5}]}', 'null']) {
      fs.writeFileSync(stamp, text);
      expect(bundleIsFresh(root), text).toBe(false);
    }
    await buildCli(root);
    fs.rmSync(path.join(root, 'dist', 'cli', 'main.mjs'));
    expect(bundleIsFresh(root)).toBe(false);
    // The build's own folder (its chunks) gone, or a stamp naming a folder outside dist/cli: stale too.
    await buildCli(root);
    const stampText = fs.readFileSync(stamp, 'utf8');
    const { build } = JSON.parse(stampText) as { build: string };
    fs.rmSync(path.join(root, 'dist', 'cli', build), { recursive: true });
    expect(bundleIsFresh(root)).toBe(false);
    await buildCli(root);
    fs.writeFileSync(
      stamp,
      fs.readFileSync(stamp, 'utf8').replace(/"build": "[^"]+"/, '"build": "../../.."'),
    );
    expect(bundleIsFresh(root)).toBe(false);
  });

  it('splits the command at its dynamic imports and keeps a replaced build a while for commands still running', async () => {
    const root = tree('split');
    const dir = path.join(root, 'main', 'launcher');
    fs.writeFileSync(path.join(dir, 'later.ts'), `export const later: string = 'loaded when asked';\n`);
    fs.writeFileSync(
      path.join(dir, 'main.ts'),
      `export async function main(argv: string[]): Promise<number> {\n` +
        `  const { later } = await import('./later');\n` +
        `  console.log(JSON.stringify({ words: later, how: 'bundle', argv }));\n  return 0;\n}\n`,
    );
    await buildCli(root);
    const cli = path.join(root, 'dist', 'cli');
    const first = (JSON.parse(fs.readFileSync(path.join(cli, 'stamp.json'), 'utf8')) as { build: string })
      .build;
    expect(fs.readdirSync(path.join(cli, first, 'chunks')).length).toBeGreaterThan(0);
    expect(await agenvoy(root)).toMatchObject({ words: 'loaded when asked' });
    fs.appendFileSync(path.join(dir, 'later.ts'), '// changed\n');
    await buildCli(root);
    const second = (JSON.parse(fs.readFileSync(path.join(cli, 'stamp.json'), 'utf8')) as { build: string })
      .build;
    expect(second).not.toBe(first);
    // The first build stays (a command started from it may still load a chunk) until it is an hour old.
    expect(fs.existsSync(path.join(cli, first))).toBe(true);
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(path.join(cli, first), old, old);
    fs.appendFileSync(path.join(dir, 'later.ts'), '// changed again\n');
    await buildCli(root);
    expect(fs.existsSync(path.join(cli, first))).toBe(false);
    expect(fs.existsSync(path.join(cli, second))).toBe(true);
  });

  it('falls back to the TypeScript through tsx when it cannot build, and when asked to', async () => {
    const root = tree('from source');
    // dist is a file: nothing can be built there.
    fs.writeFileSync(path.join(root, 'dist'), 'not a folder');
    expect(await agenvoy(root)).toEqual({ words: 'from source', how: 'source', argv: ['tools', 'list'] });
    fs.rmSync(path.join(root, 'dist'));
    await buildCli(root);
    expect(await agenvoy(root, { AGENVOY_FROM_SOURCE: '1' })).toMatchObject({ how: 'source' });
    expect(await agenvoy(root)).toMatchObject({ how: 'bundle' });
  });
});
