// An unconfined command (sandbox: false, which a person approved) that ends normally but first starts a helper in a
// session of its own (setsid, a double fork, nohup … & under setsid): its group is empty when the leader exits, so a
// group kill misses the helper, which then ran on unlisted past the call and past the app. The run's mark finds it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/testing/cli-harness';
import { processRunning, waitFor } from './process-group-testing';

let tmp: string;
let leftovers: number[] = [];

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-exit-leftover-')));
  fs.mkdirSync(path.join(tmp, 'home', 'desktop'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'ws'));
  leftovers = [];
});

afterEach(() => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Each helper writes its pid, then beats forever; the command itself exits 0 at once.
const ESCAPES = {
  setsid: `setsid sh -c 'echo $$ > setsid.pid; while :; do sleep 0.2; done' >/dev/null 2>&1 </dev/null &`,
  doubleFork: `(setsid sh -c 'sh -c "echo \\$\\$ > fork.pid; while :; do sleep 0.2; done" &' >/dev/null 2>&1 </dev/null &)`,
  nohup: `setsid nohup sh -c 'echo $$ > nohup.pid; while :; do sleep 0.2; done' >/dev/null 2>&1 </dev/null &`,
};

describe.skipIf(process.platform !== 'linux')('helpers left by an unconfined command that ended', () => {
  it('die with the call: setsid, a double fork into a new session, nohup under setsid', async () => {
    const ws = path.join(tmp, 'ws');
    const command = `${Object.values(ESCAPES).join('\n')}\nsleep 0.5\necho started`;
    const run = await runCli(
      ['tools', 'call', 'run_command', JSON.stringify({ command, sandbox: false }), '--yes', '--json'],
      {
        home: path.join(tmp, 'home'),
        cwd: ws,
      },
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'ok' });
    const pids = ['setsid', 'fork', 'nohup'].map((name) =>
      Number(fs.readFileSync(path.join(ws, `${name}.pid`), 'utf8')),
    );
    leftovers = pids;
    for (const pid of pids) expect(pid).toBeGreaterThan(1);
    // Gone by the time the call has answered (a short wait for the kernel to reap them).
    await waitFor(() => pids.every((pid) => !processRunning(pid)), 1000, 'the helpers to be gone');
  });
});
