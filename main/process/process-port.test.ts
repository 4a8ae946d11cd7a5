import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessGroups } from './process-group';
import { processPort } from './process-port';
import { processRunning, readTreePids, stubbornTreeSource, waitFor } from './process-group-testing';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-port-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const live = () => new AbortController().signal;
const launchFiles = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('agenvoy-launch-'));

describe('processPort.run', () => {
  it('runs a shell line in cwd with extra env, streaming each chunk with its stream, tracked while it runs', async () => {
    const groups = new ProcessGroups();
    const port = processPort(groups);
    const chunks: Array<[string, string]> = [];
    let trackedWhileRunning = 0;
    const result = await port.run({
      command: 'printf "%s|" "$PORT_TEST" && pwd && echo oops >&2 && exit 4',
      shell: true,
      cwd: tmp,
      env: { PORT_TEST: 'set' },
      signal: live(),
      confinement: null,
      onOutput: (chunk, stream) => {
        trackedWhileRunning = Math.max(trackedWhileRunning, groups.size);
        chunks.push([stream, chunk]);
      },
    });
    expect(result).toMatchObject({
      exitCode: 4,
      signal: null,
      stdout: `set|${fs.realpathSync(tmp)}\n`,
      stderr: 'oops\n',
      truncated: false,
    });
    expect(
      chunks
        .filter(([s]) => s === 'stdout')
        .map(([, c]) => c)
        .join(''),
    ).toBe(result.stdout);
    expect(
      chunks
        .filter(([s]) => s === 'stderr')
        .map(([, c]) => c)
        .join(''),
    ).toBe('oops\n');
    expect(trackedWhileRunning).toBe(1);
    expect(groups.size).toBe(0);
  });

  it('runs a program with arguments and input without a shell, and caps output with a note', async () => {
    const port = processPort(new ProcessGroups());
    const echo = await port.run({
      command: process.execPath,
      args: ['-e', 'process.stdin.pipe(process.stdout)', '$HOME'],
      input: 'as typed $HOME',
      cwd: tmp,
      signal: live(),
      confinement: null,
    });
    expect(echo.stdout).toBe('as typed $HOME');
    const big = await port.run({
      command: 'head -c 300000 /dev/zero | tr "\\0" a',
      shell: true,
      cwd: tmp,
      signal: live(),
      confinement: null,
      maxOutputBytes: 1000,
    });
    expect(big.truncated).toBe(true);
    expect(big.stdout).toBe(`${'a'.repeat(500)}\n[output truncated: 299,000 bytes cut]\n${'a'.repeat(500)}`);
  });

  it('on abort kills the whole tree and rejects with the reason', async () => {
    const groups = new ProcessGroups();
    const port = processPort(groups);
    const pidFile = path.join(tmp, 'pids.json');
    fs.writeFileSync(path.join(tmp, 'tree.js'), stubbornTreeSource(pidFile));
    const controller = new AbortController();
    const run = port.run({
      command: `"${process.execPath}" tree.js`,
      shell: true,
      cwd: tmp,
      signal: controller.signal,
      confinement: null,
    });
    const pids = await readTreePids(pidFile);
    const reason = new Error('timed out after 1 s');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
    expect(groups.size).toBe(0);
  });
});

describe('processPort.launch', () => {
  it('leaves a program running, untracked, once the settle wait is over', async () => {
    const groups = new ProcessGroups();
    const before = launchFiles();
    const launched = await processPort(groups).launch({
      command: 'sleep',
      args: ['30'],
      cwd: tmp,
      signal: live(),
      settleMs: 200,
    });
    expect(launched.state).toBe('running');
    const pid = launched.state === 'running' ? launched.pid : 0;
    try {
      expect(processRunning(pid)).toBe(true);
      expect(groups.size).toBe(0);
      expect(launchFiles()).toEqual(before);
    } finally {
      process.kill(-pid, 'SIGKILL');
    }
  });

  it('reports an early exit with its code and stderr, and rejects with ENOENT for a missing program', async () => {
    const port = processPort(new ProcessGroups());
    const failed = await port.launch({
      command: '/bin/sh',
      args: ['-c', 'echo "no viewer" >&2; exit 3'],
      cwd: tmp,
      signal: live(),
    });
    expect(failed).toEqual({ state: 'exited', exitCode: 3, signal: null, stderr: 'no viewer\n' });
    await expect(
      port.launch({ command: path.join(tmp, 'missing'), args: [], cwd: tmp, signal: live() }),
    ).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('adds the request variables to the program environment (how open_file hands Windows its target)', async () => {
    const seen = path.join(tmp, 'seen');
    const target = 'https://example.com/?a=1&calc.exe|whoami^&"%PATH%"';
    const launched = await processPort(new ProcessGroups()).launch({
      command: '/bin/sh',
      args: ['-c', `printf '%s' "$AGENVOY_OPEN_TARGET" > ${seen}`],
      cwd: tmp,
      signal: live(),
      env: { AGENVOY_OPEN_TARGET: target },
    });
    expect(launched).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(fs.readFileSync(seen, 'utf8')).toBe(target);
  });

  it('kills what it started when aborted during the settle wait', async () => {
    const controller = new AbortController();
    const pidFile = path.join(tmp, 'pid');
    const launch = processPort(new ProcessGroups()).launch({
      command: '/bin/sh',
      args: ['-c', `echo $$ > ${pidFile}; exec sleep 30`],
      cwd: tmp,
      signal: controller.signal,
      settleMs: 10_000,
    });
    await waitFor(
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '',
      5000,
      'pid file',
    );
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    controller.abort(new Error('cancelled by the user'));
    await expect(launch).rejects.toThrow('cancelled by the user');
    expect(processRunning(pid)).toBe(false);
  });
});
