// The chat's approval record keeps the decision each call ran by. A call a rule allowed is decided again just before
// it runs when an earlier call of its batch ran (docs/security.md, "Decisions and rules"); when that asks the person
// and they deny it, the record said "allowed by rule" and the log said "could not record approval". Played through
// `agenvoy chat --approve ask` at a terminal, with the real gate, shell, write_result and chat store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatStorePath, openChatStore } from '../store';
import type { CliPlace } from './testing/cli-harness';
import { chatRounds, runCli } from './testing/cli-harness';

let root: string;
let place: CliPlace;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-approval-record-')));
  const workspace = path.join(root, 'repo');
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.mkdirSync(path.join(workspace, 'out'));
  fs.writeFileSync(path.join(workspace, 'src', 'index.js'), 'console.log("real code");\n');
  fs.mkdirSync(path.join(root, 'home'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the approval record of a call decided again before it ran', () => {
  it('keeps the denial the person gave when asked again, not the rule that first allowed it', async () => {
    const added = await runCli(
      ['rules', 'add', '--tool', 'write_result', '--pattern', 'out/**', '--allow'],
      place,
    );
    expect(added.code, added.stderr).toBe(0);
    // The link is allowed once at the terminal; the write through it, decided again, is denied with no reason.
    const run = await chatRounds(
      [
        [
          { name: 'run_command', args: { command: 'ln -s ../src out/lib' } },
          { name: 'write_result', args: { path: 'out/lib/index.js', content: 'evil();\n', overwrite: true } },
        ],
      ],
      place,
      { stdin: 'y\nn\n\n' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(fs.readFileSync(path.join(place.cwd, 'src', 'index.js'), 'utf8')).toContain('real code');
    expect(run.toolResults.call_1).toMatch(/denied/);

    const store = openChatStore(chatStorePath(path.join(place.home, 'desktop')));
    try {
      const [chat] = store.chats.list();
      const records = store.approvals.list(chat?.id ?? '');
      expect(records.map((r) => [r.callId, r.tool, r.decision?.kind])).toEqual([
        ['call_0', 'run_command', 'allow'],
        ['call_1', 'write_result', 'deny'],
      ]);
    } finally {
      store.close();
    }
    const logFile = path.join(place.home, 'desktop', 'logs', 'app.log');
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    expect(log).not.toContain('could not record approval');
  });
});
