// The secrets file `$AGENVOY_HOME/.secrets` as a fifo or a link to /dev/zero (docs/robustness.md, "The app's own
// files"). The secret store reads it synchronously when it is made, so that stored values are scrubbed before any tool
// runs (docs/security.md); a plain read of a fifo there stopped the whole process for a writer that never came, and
// `agenvoy secrets list` never ended. Each is now refused as not a regular file, and the command ends naming it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin } from '../cli/testing/cli-harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place(): { home: string; cwd: string; secrets: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
  dirs.push(home, cwd);
  return { home, cwd, secrets: path.join(home, '.secrets') };
}

// runBin leaves out the session bus: no keychain, so the file is the store (docs/secrets.md, "Fallback").
describe('the secrets file that is not a regular file', () => {
  it('a fifo: `agenvoy secrets list` ends and says why, instead of waiting for a writer for ever', async () => {
    const { home, cwd, secrets } = place();
    execFileSync('mkfifo', [secrets]);
    const run = await runBin(['secrets', 'list'], { home, cwd, timeoutMs: 30_000 });
    // Killed at the timeout before (code null, nothing printed).
    expect(run.code).not.toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/not a regular file/);
  }, 45_000);

  it('a link to /dev/zero is refused without being read', async () => {
    const { home, cwd, secrets } = place();
    fs.symlinkSync('/dev/zero', secrets);
    const run = await runBin(['secrets', 'list'], { home, cwd, timeoutMs: 30_000 });
    expect(run.code).not.toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/not a regular file/);
  }, 45_000);
});
