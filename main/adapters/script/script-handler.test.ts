import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CredentialError, ToolError } from '../../../tools/sdk/types';
import { agenvoyHome, agenvoyPaths } from '../../core/paths';
import { groupAlive, ProcessGroups, ProcessKilledError } from '../../process/process-group';
import { processRunning, readTreePids, stubbornTreeSource } from '../../process/process-group-testing';
import { loadToolFolder } from './discover';
import type { ScriptRunOptions } from './script-handler';
import { scriptHandler } from './script-handler';
import { manifest, testContext, writeToolFolder } from './script-testing';
import type { ScriptTool } from './types';

let tmp: string;
let scriptsDir: string;
let workspace: string;
let groups: ProcessGroups;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-handler-'));
  vi.stubEnv('AGENVOY_HOME', path.join(tmp, 'home'));
  scriptsDir = agenvoyPaths(agenvoyHome()).globalScripts;
  workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace);
  groups = new ProcessGroups();
});

afterEach(async () => {
  await groups.killAll();
  vi.unstubAllEnvs();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function tool(folder: string, content: Parameters<typeof writeToolFolder>[2]): Promise<ScriptTool> {
  const loaded = await loadToolFolder(writeToolFolder(scriptsDir, folder, content), 'global');
  if ('reason' in loaded) throw new Error(loaded.reason);
  return loaded;
}

function handler(loaded: ScriptTool, options: Partial<ScriptRunOptions> = {}) {
  return scriptHandler(loaded, { groups, ...options });
}

const ECHO_JS = `
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => console.log(JSON.stringify({ args: JSON.parse(input), cwd: process.cwd() })));
`;

const ECHO_PY = `
import json, os, sys
print(json.dumps({"args": json.load(sys.stdin), "cwd": os.getcwd()}))
`;

describe('script handler', () => {
  it('runs script.js with node: JSON args on stdin, cwd = workspace, stdout is the result', async () => {
    const { ctx } = testContext({ workspace });
    const result = await handler(await tool('echo', { manifest: manifest('echo'), js: ECHO_JS }))(
      { q: 'héllo', n: 2 },
      ctx,
    );
    expect(JSON.parse(result as string)).toEqual({
      args: { q: 'héllo', n: 2 },
      cwd: fs.realpathSync(workspace),
    });
    expect(result as string).not.toMatch(/\n$/);
  });

  it('runs script.py with python3', async () => {
    const { ctx } = testContext({ workspace });
    const result = await handler(await tool('echo_py', { manifest: manifest('echo_py'), py: ECHO_PY }))(
      { list: [1, 2] },
      ctx,
    );
    expect(JSON.parse(result as string)).toEqual({ args: { list: [1, 2] }, cwd: fs.realpathSync(workspace) });
  });

  it('turns a non-zero exit into a script error carrying stderr', async () => {
    const { ctx } = testContext({ workspace });
    const failing = await tool('fail', {
      manifest: manifest('fail'),
      js: `console.log('partial'); console.error('bad input: need q'); process.exit(2);`,
    });
    const error = await Promise.resolve(handler(failing)({}, ctx)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({
      code: 'script_error',
      message: 'script error: bad input: need q',
      details: { exitCode: 2 },
    });

    const silent = await tool('silent', { manifest: manifest('silent'), py: 'import sys\nsys.exit(4)\n' });
    await expect(handler(silent)({}, ctx)).rejects.toThrow(
      'script error: the script failed with exit code 4',
    );
  });

  it('passes secrets only in the child environment', async () => {
    const asked: string[] = [];
    const { ctx } = testContext({ workspace, secrets: { API_KEY: 'sk-test-123', UNLISTED: 'nope' } });
    const getSecret = ctx.getSecret;
    ctx.getSecret = async (key) => (asked.push(key), getSecret(key));
    const secretTool = await tool('secret', {
      manifest: manifest('secret', { secrets: ['API_KEY'] }),
      js: `console.log(JSON.stringify({ key: process.env.API_KEY, unlisted: process.env.UNLISTED ?? null }))`,
    });
    const result = await handler(secretTool)({}, ctx);
    expect(JSON.parse(result as string)).toEqual({ key: 'sk-test-123', unlisted: null });
    expect(asked).toEqual(['API_KEY']);
    expect(process.env.API_KEY).toBeUndefined();
  });

  it('throws CredentialError for a missing secret before the script starts', async () => {
    const marker = path.join(tmp, 'started');
    const { ctx } = testContext({ workspace, secrets: { PRESENT: 'value-1' } });
    const secretTool = await tool('needs_secret', {
      manifest: manifest('needs_secret', { secrets: ['PRESENT', 'MISSING_KEY'] }),
      js: `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`,
    });
    const error = await Promise.resolve(handler(secretTool)({}, ctx)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CredentialError);
    expect(error).toMatchObject({ key: 'MISSING_KEY', reason: 'missing', code: 'credential_missing' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.existsSync(marker)).toBe(false);
    expect(groups.size).toBe(0);
  });

  it('caps the output with a note saying how much was cut', async () => {
    const { ctx } = testContext({ workspace });
    const noisy = await tool('noisy', {
      manifest: manifest('noisy'),
      js: `process.stdout.write('x'.repeat(5000))`,
    });
    const result = (await handler(noisy, { maxOutputBytes: 1000 })({}, ctx)) as string;
    expect(result).toBe(`${'x'.repeat(500)}\n[output truncated: 4,000 bytes cut]\n${'x'.repeat(500)}`);
  });

  it('on abort kills the whole tree, a SIGTERM-ignoring grandchild included, and rejects with the reason', async () => {
    const pidFile = path.join(tmp, 'pids.json');
    const controller = new AbortController();
    const { ctx } = testContext({ workspace, signal: controller.signal });
    const stubborn = await tool('stubborn', {
      manifest: manifest('stubborn', { timeout: 1 }),
      js: stubbornTreeSource(pidFile),
    });
    const call = handler(stubborn)({}, ctx);
    const pids = await readTreePids(pidFile);
    const [record] = groups.list();
    expect(record?.pgid).toBe(pids.leader);

    const reason = Object.assign(new Error('timed out after 1 s'), { name: 'TimeoutError' });
    const t0 = Date.now();
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(groupAlive(pids.leader)).toBe(false);
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
    expect(groups.size).toBe(0);
  });

  it('settles with ProcessKilledError when quitting kills every group', async () => {
    const pidFile = path.join(tmp, 'quit.json');
    const { ctx } = testContext({ workspace });
    const stubborn = await tool('quit', { manifest: manifest('quit'), js: stubbornTreeSource(pidFile) });
    const call = Promise.resolve(handler(stubborn)({}, ctx));
    const pids = await readTreePids(pidFile);
    await groups.killAll();
    await expect(call).rejects.toBeInstanceOf(ProcessKilledError);
    expect(processRunning(pids.grandchild)).toBe(false);
  });

  it('logs a heartbeat with elapsed and limit while the script runs', async () => {
    const { ctx, lines, progress } = testContext({ workspace });
    const slow = await tool('slow', {
      manifest: manifest('slow', { timeout: 5 }),
      js: `setTimeout(() => console.log('done'), 700)`,
    });
    expect(await handler(slow, { heartbeatMs: 150 })({}, ctx)).toBe('done');
    const beats = lines.filter((line) => line.includes(' INFO running '));
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats[0]).toMatch(/ INFO running name=script_slow elapsed=\d+s\/5s$/);
    expect(progress[0]?.message).toMatch(/^running \d+s\/5s$/);
    const count = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines.length).toBe(count);
  });

  it('reports an interpreter that cannot start as a script error', async () => {
    const { ctx } = testContext({ workspace });
    const py = await tool('py', { manifest: manifest('py'), py: 'print(1)' });
    await expect(handler(py, { python: path.join(tmp, 'no-python3') })({}, ctx)).rejects.toThrow(
      /^script error: cannot start .*no-python3: spawn .* ENOENT/,
    );
  });
});
