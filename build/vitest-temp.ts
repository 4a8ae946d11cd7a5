// vitest's global setup: every test run gets its own temp folder (TMPDIR, which os.tmpdir() reads, and which the
// forked workers and every process a test starts inherit), removed when the run ends. Tests make thousands of temp
// folders (homes, workspaces, MCP and CLI children's files); a run that left them in /tmp filled it with ~25,000
// folders over a day of work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const outer = os.tmpdir();
  const dir = fs.mkdtempSync(path.join(outer, 'agenvoy-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
