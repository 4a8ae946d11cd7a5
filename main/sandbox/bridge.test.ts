// The sandbox's proxy bridge (docs/security.md, "A networked command waits for its bridge"): a networked command is
// not refused by a bridge still starting, waits a bounded time for one that never starts, and the host-side bridge
// dies with the app even when the app is killed. Each scenario runs a real RuntimeSandbox in its own process
// (testing/bridge-child.ts), real bubblewrap and socat, against a real server on 127.0.0.1.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_WAIT_S } from './bridge-ready';
import { processAlive } from '../process/testing/process-alive';

const here = path.dirname(fileURLToPath(import.meta.url));
const childScript = path.join(here, 'testing', 'bridge-child.ts');

let root: string;
let server: http.Server;
let url: string;
let hits = 0;
const children: ChildProcess[] = [];

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bridge-test-'));
  server = http.createServer((_req, res) => {
    hits++;
    res.end('hello from the host');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(root, { recursive: true, force: true });
});

interface Ran {
  stdout: string;
  stderr: string;
  ms: number;
}

/** Starts the child on a scenario; resolves with it and the result line it prints. */
function start(scenario: {
  command: string;
  socatPath?: string;
  hold?: boolean;
  tmpInHome?: boolean;
}): Promise<{
  child: ChildProcess;
  ran: Ran;
}> {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, JSON.stringify(scenario)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
      resolve({ child, ran: JSON.parse(line) as Ran });
    });
    child.once('exit', (code) =>
      reject(new Error(`the child exited (${code}) before its result: ${stderr}`)),
    );
  });
}

function socat(name: string, body: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'socat');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

function realSocat(): string {
  for (const dir of (process.env.PATH ?? '/usr/bin').split(':')) {
    const candidate = path.join(dir, 'socat');
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('socat is not installed');
}

/** The pids of the processes whose parent is `pid`, with their command lines. */
function childrenOf(pid: number): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      found.push({ pid: Number(entry), cmdline: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      // Gone while listed.
    }
  }
  return found;
}

describe('the proxy bridge of networked commands', () => {
  it('is waited for: a command whose first act is a request is not refused by a bridge still starting', async () => {
    // The runtime starts its in-sandbox listeners in the background and runs the command at once; on a loaded machine
    // the first request found nothing listening (curl exit 7). A socat that starts 300 ms late makes that the rule.
    const before = hits;
    const { ran } = await start({
      command: `curl -sS -m 5 --noproxy '' ${url}`,
      socatPath: socat('slow', `sleep 0.3\nexec ${realSocat()} "$@"`),
    });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe('hello from the host');
    expect(hits).toBe(before + 1);
  }, 30_000);

  it('is waited for at most a bounded time: the command runs anyway when the bridge never starts', async () => {
    // Only the listeners inside the sandbox hang; the host side starts as it should.
    const { ran } = await start({
      command: 'echo ran',
      socatPath: socat('stuck', `case "$1" in TCP-LISTEN:*) exec sleep 60 ;; esac\nexec ${realSocat()} "$@"`),
    });
    expect(ran.stdout.trim()).toBe('ran');
    expect(ran.ms).toBeGreaterThanOrEqual(BRIDGE_WAIT_S * 1000);
    expect(ran.ms).toBeLessThan(BRIDGE_WAIT_S * 1000 + 15_000);
  }, 30_000);

  it('works where the app’s temp folder lies in the hidden home folder', async () => {
    const { ran } = await start({ command: `curl -sS -m 5 --noproxy '' ${url}`, tmpInHome: true });
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toBe('hello from the host');
  }, 30_000);

  it('dies with the app: the host-side socat does not outlive a kill -9 of the process that started it', async () => {
    const { child, ran } = await start({ command: `curl -sS -m 5 --noproxy '' ${url}`, hold: true });
    expect(ran.stdout).toBe('hello from the host');
    const bridges = childrenOf(child.pid as number).filter((proc) => proc.cmdline.includes('UNIX-LISTEN:'));
    expect(bridges.length).toBeGreaterThan(0);
    child.kill('SIGKILL');
    const deadline = Date.now() + 5000;
    while (bridges.some((bridge) => processAlive(bridge.pid)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const left = bridges.filter((bridge) => processAlive(bridge.pid));
    for (const bridge of left) process.kill(bridge.pid, 'SIGKILL');
    expect(left.map((bridge) => bridge.cmdline.replace(/\0/g, ' '))).toEqual([]);
  }, 30_000);
});
