// The real sandbox (bubblewrap here): what a sandboxed process can and cannot do. Every test runs real programs.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confinement, ProcessRunResult } from '../../tools/sdk/process-port';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import { ProcessGroups } from '../process/process-group';
import { runToolProcess } from '../process/process-port';
import { RuntimeSandbox } from './runtime-sandbox';

let root: string;
let home: string;
let agenvoyHome: string;
let workspace: string;
let outside: string;
let web: WebSettings = {};
let sandbox: RuntimeSandbox;
const groups = new ProcessGroups();

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-sandbox-')));
  home = path.join(root, 'home');
  agenvoyHome = path.join(home, '.config', 'agenvoy');
  workspace = path.join(home, 'project');
  outside = path.join(root, 'outside');
  for (const dir of [path.join(home, '.ssh'), path.join(agenvoyHome, 'desktop'), workspace, outside])
    fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-CANARY');
  fs.writeFileSync(path.join(agenvoyHome, '.secrets'), 'TOKEN=SECRET-FILE-CANARY\n');
  fs.writeFileSync(path.join(agenvoyHome, 'desktop', 'settings.json'), '{}');
  fs.writeFileSync(path.join(workspace, '.env'), 'DB_PASSWORD=DOTENV-CANARY\n');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# hello\n');
  sandbox = new RuntimeSandbox({
    agenvoyHome,
    homes: [home],
    web: () => web,
    cacheDir: path.join(root, 'cache'),
  });
});

afterAll(async () => {
  await sandbox.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function confinement(network: Confinement['network'] = 'none', writable: string[] = []): Confinement {
  return { workspace, writable: [workspace, ...writable], network };
}

function run(
  command: string,
  options: {
    network?: Confinement['network'];
    env?: Record<string, string>;
    signal?: AbortSignal;
    cwd?: string;
  } = {},
): Promise<ProcessRunResult> {
  return runToolProcess(
    {
      command,
      shell: true,
      cwd: options.cwd ?? workspace,
      env: options.env,
      signal: options.signal ?? new AbortController().signal,
      confinement: confinement(options.network),
    },
    { groups, sandbox, parentEnv: () => ({ ...process.env, HOME: home, OPENAI_API_KEY: 'sk-ENV-CANARY' }) },
  );
}

describe('RuntimeSandbox', () => {
  it('can start here (bubblewrap and socat are installed by the test script)', async () => {
    expect(await sandbox.state()).toEqual({ kind: 'ready', backend: 'bubblewrap' });
  });

  it('runs everyday work in the workspace: read, write, list, a per-call TMPDIR', async () => {
    const result = await run(
      'cat README.md && echo made > made.txt && ls && echo "$TMPDIR" && touch "$TMPDIR/t"',
    );
    expect(result.exitCode).toBe(0);
    expect(result.sandbox).toEqual({ confined: true, blocked: [], warnings: [] });
    expect(fs.readFileSync(path.join(workspace, 'made.txt'), 'utf8')).toBe('made\n');
    const tmp = result.stdout.trim().split('\n').at(-1) as string;
    expect(tmp).toMatch(/agenvoy-run-/);
    // The temp folder is the call's own and goes with it.
    expect(fs.existsSync(tmp)).toBe(false);
  });

  it('refuses writes outside the workspace and says which path', async () => {
    const target = path.join(outside, 'planted');
    const result = await run(`echo x > ${target}; echo y > ${path.join(home, '.bashrc')}`);
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(home, '.bashrc'))).toBe(false);
    // The home folder is hidden: inside the sandbox an empty scratch folder, so ~/.bashrc was written nowhere.
    expect(result.sandbox.blocked).toEqual([
      `a write to ${target} (outside the workspace and the temp folder)`,
    ]);
  });

  it('hides secret locations: ~/.ssh, the secret file, the app data, the workspace .env', async () => {
    const result = await run(
      `cat ${path.join(home, '.ssh', 'id_rsa')}; cat ${path.join(agenvoyHome, '.secrets')}; ` +
        `ls ${path.join(agenvoyHome, 'desktop')}; cat .env; grep -r CANARY ${home} 2>/dev/null`,
    );
    expect(result.stdout + result.stderr).not.toMatch(/PRIVATE-KEY-CANARY|SECRET-FILE-CANARY|DOTENV-CANARY/);
    expect(result.sandbox.blocked).toContain(
      `a read of ${path.join(home, '.ssh', 'id_rsa')} (the sandbox hides ${path.join(home, '.ssh')})`,
    );
  });

  it('keeps git hooks and config and this app’s workspace tools read-only inside the workspace', async () => {
    const repo = path.join(workspace, 'repo');
    fs.mkdirSync(path.join(repo, '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git', 'config'), '[core]\n');
    const result = await run(
      'echo "[core] fsmonitor = evil" >> repo/.git/config; echo evil > repo/.git/hooks/pre-commit; ' +
        'mkdir -p .config/agenvoy/tools/script/x',
    );
    expect(fs.readFileSync(path.join(repo, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(fs.existsSync(path.join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(fs.existsSync(path.join(workspace, '.config', 'agenvoy'))).toBe(false);
    expect(result.sandbox.blocked.join('\n')).toContain(`a write to ${path.join(repo, '.git', 'config')}`);
  });

  it('passes no variable of the app’s own: API keys in the parent environment stay out', async () => {
    const result = await run('env');
    expect(result.stdout).not.toContain('sk-ENV-CANARY');
    expect(result.stdout).toContain(`HOME=${home}`);
  });

  it('gives a rule-allowed command no network, not even the host’s loopback', async () => {
    const server = await listen();
    try {
      const result = await run(`curl -sS -m 5 http://127.0.0.1:${server.port}/ || echo FAILED`);
      expect(result.stdout).toContain('FAILED');
      expect(server.hits()).toBe(0);
      const named = await run(`curl -sS -m 5 http://localhost:${server.port}/ || echo FAILED`);
      expect(named.stdout).toContain('FAILED');
      expect(server.hits()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('lets an approved command through the proxy, which refuses internal addresses unless settings allow them', async () => {
    const server = await listen();
    try {
      // Loopback is left out of the proxy by NO_PROXY, so `--noproxy ''` sends it through the proxy to be judged.
      const url = `http://127.0.0.1:${server.port}/`;
      const refused = await run(`curl -sS -m 5 --noproxy '' -o /dev/null -w "%{http_code}" ${url}`, {
        network: 'proxy',
      });
      expect(server.hits()).toBe(0);
      expect(refused.stdout).toBe('403');
      expect(refused.sandbox.blocked.join('\n')).toContain(`a connection to 127.0.0.1:${server.port}`);
      const direct = await run(`curl -sS -m 5 ${url} || echo FAILED`, { network: 'proxy' });
      expect(direct.stdout).toContain('FAILED');
      web = { allowedHosts: ['127.0.0.1'] };
      const allowed = await run(`curl -sS -m 5 --noproxy '' ${url}`, { network: 'proxy' });
      expect(allowed.stdout).toBe('hello from the host');
      expect(server.hits()).toBe(1);
    } finally {
      web = {};
      await server.close();
    }
  });

  it('kills the whole tree on abort, including a process that left with setsid', async () => {
    const beat = path.join(workspace, 'beat');
    const controller = new AbortController();
    const running = run(`setsid sh -c 'while :; do date +%s%N > ${beat}; sleep 0.05; done' & sleep 60`, {
      signal: controller.signal,
    });
    for (let i = 0; i < 200 && !fs.existsSync(beat); i++) await new Promise((r) => setTimeout(r, 25));
    controller.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    const last = fs.readFileSync(beat, 'utf8');
    await new Promise((r) => setTimeout(r, 400));
    expect(fs.readFileSync(beat, 'utf8')).toBe(last);
  });
});

async function listen(): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end('hello from the host');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
