// A sandboxed command reading the app's own process files (docs/security.md, the OS sandbox): the app's
// /proc/<pid>/environ, cmdline and mem hold its API keys; bubblewrap runs the command in its own PID namespace with
// a fresh /proc, so the app's pid names nothing there. Already refused; pinned.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let workspace: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-app-proc-attack-')));
  workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  const home = path.join(root, 'agenvoy');
  fs.mkdirSync(home);
  place = { home, cwd: workspace, env: { HOME: path.join(root, 'home') } };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("a sandboxed command and the app's own /proc", () => {
  it("cannot read the app's environ, cmdline or memory by its pid, nor find it among the pids it sees", async () => {
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'APP-PROC-KEY-CANARY';
    try {
      const pid = process.pid;
      const command =
        `cat /proc/${pid}/environ /proc/${pid}/cmdline; head -c 100000 /proc/${pid}/mem; ` +
        `for f in /proc/[0-9]*/environ; do cat "$f"; done | tr '\\0' '\\n'; ls /proc`;
      const run = await runCli(
        [
          'tools',
          'call',
          'run_command',
          JSON.stringify({ command }),
          '--json',
          '--workspace',
          workspace,
          '--yes',
        ],
        place,
      );
      expect(run.stdout).not.toContain('APP-PROC-KEY-CANARY');
      const outcome = JSON.parse(run.stdout) as { text: string };
      expect(outcome.text).not.toMatch(new RegExp(`(^|\\s)${pid}(\\s|$)`, 'm'));
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });
});
