// A hostile repository racing the safe reader (tools/sdk/safe-read.ts, html_template's template and data files):
// a real process swaps, as fast as it can, the file named between an innocent file and a symlink or a hard link to
// a secret outside, and a folder on the way between a real folder and a symlink out. Whatever the timing, each read
// returns the innocent text or an error, never the secret (docs/security.md, "Hard links"). The symlink and folder
// swaps were already refused; the hard link was not: opened, then its workspace name removed, it had one name left
// (the secret's), so the link count read 1, and /proc/self/fd still named the workspace, as "… (deleted)".
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWorkspaceText } from './safe-read';
import { ToolError } from './types';

const canary = `canary-${process.pid}-${Date.now()}`;
let base: string;
let workspace: string;
let outside: string;
let swapper: ChildProcess | null = null;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-read-race-')));
  workspace = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 't.liquid'), canary);
  fs.writeFileSync(path.join(workspace, 't.liquid'), 'innocent');
  fs.writeFileSync(path.join(workspace, 'sub', 't.liquid'), 'innocent');
});
afterEach(async () => {
  if (swapper && swapper.exitCode === null) {
    const ended = new Promise((resolve) => swapper?.once('exit', resolve));
    swapper.kill('SIGKILL');
    await ended;
  }
  swapper = null;
  fs.rmSync(base, { recursive: true, force: true });
});

// Each loop of the swapper puts the hostile name in place and then the innocent one back, each by rename().
const SWAPS = `
import os, sys
ws, secret, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
os.chdir(ws)
print('swapping', flush=True)
while True:
    for make in (lambda n: os.symlink(secret, n), lambda n: os.link(secret, n)):
        make('x.tmp'); os.rename('x.tmp', 't.liquid')
        with open('y.tmp', 'w') as f: f.write('innocent')
        os.rename('y.tmp', 't.liquid')
    os.rename('sub', 'sub.real'); os.symlink(outdir, 'sub')
    os.unlink('sub'); os.rename('sub.real', 'sub')
`;

describe('the safe reader against a file or folder swapped while it reads', () => {
  it('never returns the secret, however the swaps fall', { timeout: 60_000 }, async () => {
    const child = spawn('python3', ['-c', SWAPS, workspace, path.join(outside, 't.liquid'), outside], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    swapper = child;
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const seen = { innocent: 0, refused: 0 };
    // Four seconds of reads, longer (up to 20) on a loaded machine until both outcomes were seen.
    const started = Date.now();
    const racing = () =>
      Date.now() - started < 4000 || (!(seen.innocent && seen.refused) && Date.now() - started < 20_000);
    while (racing()) {
      for (const name of ['t.liquid', 'sub/t.liquid']) {
        try {
          const file = await readWorkspaceText(workspace, name, 'template_file', 1024);
          expect(file.text, name).toBe('innocent');
          seen.innocent++;
        } catch (error) {
          // Refused (a ToolError), or gone for a moment (ENOENT): never a read of the secret.
          if (!(error instanceof ToolError) && (error as NodeJS.ErrnoException).code !== 'ENOENT')
            throw error;
          expect((error as Error).message).not.toContain(canary);
          seen.refused++;
        }
      }
    }
    expect(swapper.exitCode).toBeNull();
    // The race was real: both outcomes happened.
    expect(seen.innocent).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});
