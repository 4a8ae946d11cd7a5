// How long the agenvoy command takes to start, as whole processes (medians of 7 runs), against `node -e 0` in the same
// run: `tools list` from the built bundle and from the TypeScript through tsx (AGENVOY_FROM_SOURCE=1), and `web` until
// it prints its URL. Goals from the fast-start issue: tools list ≤ 0.3 s, web to URL ≤ 0.5 s.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { BenchRow } from './report';
import { printRows } from './print';

const BENCH = 'cli start';
const RUNS = 7;
const exec = promisify(execFile);
const BIN = path.resolve('bin', 'agenvoy');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  await exec(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 });
  return performance.now() - started;
}

/** Milliseconds from spawning `agenvoy web` to the line with its URL. */
function untilUrl(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, 'web'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('http://127.0.0.1:')) {
        resolve(performance.now() - started);
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => reject(new Error(`agenvoy web exited (${code}) before its URL: ${out}`)));
  });
}

/** 500 global script tools, each with its own name, words and parameters (no two schemas alike). */
function scriptTools(home: string): void {
  const topics = ['sales', 'invoices', 'tickets', 'deploys', 'metrics', 'contracts', 'orders', 'backups'];
  for (let i = 0; i < 500; i++) {
    const dir = path.join(home, 'tools', 'script', `tool${i}`);
    fs.mkdirSync(dir, { recursive: true });
    const topic = topics[i % topics.length] as string;
    fs.writeFileSync(
      path.join(dir, 'tool.json'),
      JSON.stringify({
        name: `${topic}_report_${i}`,
        description: `Builds report ${i} of the ${topic} for a team, with totals per region and a chart.`,
        parameters: {
          type: 'object',
          properties: { [`region_${i}`]: { type: 'string', description: `Region ${i}` } },
          required: [`region_${i}`],
        },
      }),
    );
    fs.writeFileSync(path.join(dir, 'script.js'), 'console.log("ok")');
  }
}

/** The resident memory of `agenvoy web` once it has printed its URL and sat idle for two seconds, in MiB. */
function idleWebMemory(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'web'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (before.includes('http://127.0.0.1:') || !out.includes('http://127.0.0.1:')) return;
      setTimeout(() => {
        try {
          const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
          const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
          resolve(Math.round((kb / 1024) * 10) / 10);
        } catch (error) {
          reject(error as Error);
        } finally {
          child.kill('SIGTERM');
        }
      }, 2000);
    });
    child.on('exit', (code) => {
      if (!out.includes('http://127.0.0.1:')) reject(new Error(`agenvoy web exited (${code}): ${out}`));
    });
  });
}

/** Starts each command RUNS times over a fresh AGENVOY_HOME. */
export async function run(): Promise<BenchRow[]> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bench-cli-'));
  const env = { ...process.env, AGENVOY_HOME: home, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' };
  try {
    // One run each first, so the bundle is built and the renderer too (web serves it).
    await timed([BIN, 'tools', 'list'], env);
    await untilUrl(env);
    const many = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bench-500-'));
    scriptTools(many);
    const manyEnv = { ...env, AGENVOY_HOME: many };
    const search = [BIN, 'tools', 'search', 'chart of the sales per region', '--limit', '5', '--json'];
    const samples = {
      node: [] as number[],
      bundle: [] as number[],
      source: [] as number[],
      web: [] as number[],
      search: [] as number[],
      searchUncached: [] as number[],
    };
    for (let i = 0; i < RUNS; i++) {
      samples.node.push(await timed(['-e', '0'], env));
      samples.bundle.push(await timed([BIN, 'tools', 'list'], env));
      samples.source.push(await timed([BIN, 'tools', 'list'], { ...env, AGENVOY_FROM_SOURCE: '1' }));
      samples.web.push(await untilUrl(env));
      samples.search.push(await timed(search, manyEnv));
      // The very first start over these tools: no compile results remembered yet (docs/hosts.md, "Fast start").
      fs.rmSync(path.join(many, 'desktop', 'cache'), { recursive: true, force: true });
      samples.searchUncached.push(await timed(search, manyEnv));
    }
    fs.rmSync(many, { recursive: true, force: true });
    const memory = await idleWebMemory(env);
    const node = median(samples.node);
    const row = (metric: string, values: number[], target?: number): BenchRow => {
      const value = median(values);
      return {
        bench: BENCH,
        metric,
        value: Math.round(value),
        unit: 'ms',
        reference: Math.round(node),
        ratio: Math.round((value / node) * 10) / 10,
        ...(target === undefined ? {} : { target: `≤ ${target} ms`, met: value <= target }),
      };
    };
    return [
      row('agenvoy tools list (built bundle), against node -e 0', samples.bundle, 300),
      row('agenvoy tools list from the TypeScript (tsx), against node -e 0', samples.source),
      row('agenvoy web until it prints its URL, against node -e 0', samples.web, 500),
      row('agenvoy tools search with 500 script tools, cold, against node -e 0', samples.search, 1000),
      row('the same, the first start ever (no schema compile results on disk)', samples.searchUncached),
      {
        bench: BENCH,
        metric: 'agenvoy web idle resident memory (2 s after its URL)',
        value: memory,
        unit: 'MiB',
      },
    ];
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
