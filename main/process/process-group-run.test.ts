import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupAlive, runInGroup } from './process-group';
import { processRunning, readTreePids, stubbornTreeSource, waitFor } from './process-group-testing';

let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-run-'));
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const node = (source: string, extra: Partial<Parameters<typeof runInGroup>[0]> = {}) =>
  runInGroup({ command: process.execPath, args: ['-e', source], ...extra });

describe('runInGroup', () => {
  it('passes stdin, env and cwd and returns exit code, stdout and stderr', async () => {
    const result = await node(
      `let input = '';
       process.stdin.on('data', (d) => (input += d));
       process.stdin.on('end', () => {
         console.log(JSON.stringify({ input: JSON.parse(input), env: process.env.RUN_TEST, cwd: process.cwd() }));
         console.error('warned');
         process.exit(3);
       });`,
      { input: JSON.stringify({ a: 1 }), env: { ...process.env, RUN_TEST: 'yes' }, cwd: tmp },
    );
    expect(result.exitCode).toBe(3);
    expect(result.signal).toBeNull();
    expect(JSON.parse(result.stdout)).toEqual({ input: { a: 1 }, env: 'yes', cwd: fs.realpathSync(tmp) });
    expect(result.stderr).toBe('warned\n');
    expect(result.truncated).toBe(false);
    expect(groupAlive(result.pgid)).toBe(false);
  });

  it('closes stdin at once without input, and ignores a child that never reads it', async () => {
    const read = await node(`process.stdin.resume(); process.stdin.on('end', () => console.log('eof'));`);
    expect(read.stdout).toBe('eof\n');
    const big = 'x'.repeat(4 * 1024 * 1024);
    const ignored = await node('process.exit(0)', { input: big });
    expect(ignored.exitCode).toBe(0);
  });

  it('caps each stream with a note saying how much was cut, and streams every chunk to onOutput', async () => {
    let streamed = 0;
    const result = await node(
      `process.stdout.write('a'.repeat(300000)); process.stdout.write('b'.repeat(300000));`,
      {
        maxOutputBytes: 100_000,
        onOutput: (stream, text) => {
          if (stream === 'stdout') streamed += text.length;
        },
      },
    );
    expect(streamed).toBe(600_000);
    expect(result.stdoutBytes).toBe(600_000);
    expect(result.truncated).toBe(true);
    expect(result.stdout).toBe(
      `${'a'.repeat(50_000)}\n[output truncated: 500,000 bytes cut]\n${'b'.repeat(50_000)}`,
    );
  });

  it('on abort kills the whole tree (SIGTERM-ignoring leader and grandchild) and then rejects with the reason', async () => {
    const pidFile = path.join(tmp, 'pids.json');
    const controller = new AbortController();
    let pgid = 0;
    const run = node(stubbornTreeSource(pidFile), {
      signal: controller.signal,
      onSpawn: (id) => (pgid = id),
    });
    const pids = await readTreePids(pidFile);
    const reason = new Error('timed out after 1 s');
    const t0 = Date.now();
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    const took = Date.now() - t0;
    // SIGTERM is ignored, so this is the 500 ms grace plus SIGKILL; the bound is loose for a busy machine.
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(2500);
    // Settled means gone: no waiting here.
    expect(groupAlive(pgid)).toBe(false);
    expect(processRunning(pids.leader)).toBe(false);
    expect(processRunning(pids.grandchild)).toBe(false);
  });

  // Attack: a command run outside the OS sandbox (sandbox: false, or no sandbox here) leaves its group with setsid (or
  // a double fork into a new session) and ignores SIGTERM; killing the group at a cancel or a time-out missed it, and
  // it kept working. Every process started for a run carries the run's mark in its environment, and the kill also
  // sweeps /proc for it (docs/dispatch.md, "Process-tree kill").
  it.runIf(fs.existsSync('/proc/self/environ'))(
    'on abort also kills what left the group with setsid or a double fork, SIGTERM ignored',
    async () => {
      const beats = ['a', 'b'].map((name) => path.join(tmp, `beat-${name}`));
      const loop = (file: string) => `trap '' TERM; while :; do date +%s%N > ${file}; sleep 0.05; done`;
      const controller = new AbortController();
      const run = runInGroup({
        command: '/bin/sh',
        args: [
          '-c',
          `setsid sh -c "${loop(beats[0] as string)}" & (setsid sh -c "${loop(beats[1] as string)}" &) ; sleep 60`,
        ],
        signal: controller.signal,
      });
      await waitFor(() => beats.every((file) => fs.existsSync(file)), 5000, 'both escapees beating');
      controller.abort(new Error('cancelled by the user'));
      await expect(run).rejects.toThrow('cancelled by the user');
      const before = beats.map((file) => fs.readFileSync(file, 'utf8'));
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(beats.map((file) => fs.readFileSync(file, 'utf8'))).toEqual(before);
    },
  );

  it('kills what the leader left in its group when it exits, instead of waiting on the pipe it holds', async () => {
    const pidFile = path.join(tmp, 'pids.json');
    const t0 = Date.now();
    const result = await node(stubbornTreeSource(pidFile, { exitAfterSpawn: true }));
    expect(result.exitCode).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    const pids = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as { grandchild: number };
    expect(processRunning(pids.grandchild)).toBe(false);
  });

  it('rejects without starting anything when the signal is already aborted', async () => {
    const marker = path.join(tmp, 'ran');
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      node(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`, { signal: controller.signal }),
    ).rejects.toThrow('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('rejects for a missing command or working directory', async () => {
    await expect(runInGroup({ command: path.join(tmp, 'no-such-command') })).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await expect(runInGroup({ command: 'true', cwd: path.join(tmp, 'missing') })).rejects.toThrow(
      /working directory does not exist/,
    );
  });

  it('reports a leader killed by a signal from outside', async () => {
    let pgid = 0;
    const run = runInGroup({ command: 'sleep', args: ['30'], onSpawn: (id) => (pgid = id) });
    await waitFor(() => pgid > 0, 5000, 'spawn');
    process.kill(pgid, 'SIGKILL');
    const result = await run;
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGKILL');
  });
});
