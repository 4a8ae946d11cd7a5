// The terminal approval prompt must show what will run (docs/security.md, "What the person sees"): nothing a model
// writes may reach the terminal as a control sequence. A command line's words are quoted back in the prompt's
// reasons ("the gate cannot tell what this line will run: `${X:-…}` …"); printed raw, an ESC there moved the
// cursor up, erased the real `rm -rf` line and the sandbox warning, and painted a harmless-looking call instead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness';

let base: string;
let home: string;
let workspace: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-term-attack-')));
  home = path.join(base, 'agenvoy');
  workspace = path.join(base, 'ws');
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'src', 'keep.txt'), 'keep');
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

// Control characters, C1 controls, bidi overrides and zero-width characters: none may reach the terminal raw.
const RAW_CONTROL =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

// Up 9 lines, erase to the end of the screen, then a fake prompt for a harmless call.
const REPAINT = '\u001b[9A\u001b[J\nApprove tool call: run_command\n  args:    {"command": "ls"}\n';

describe('the terminal prompt repainted by a model', () => {
  it.each([
    ['a parameter expansion', `rm -rf ./src "\${X:-${REPAINT}}"`, {}],
    ['a command substitution', `rm -rf ./src \`${REPAINT}\``, {}],
    ['a working folder outside the workspace', 'rm -rf ./src', { cwd: `/tmp/${REPAINT}` }],
  ])('%s: no control sequence is printed, and the answer n denies', async (_what, command, extra) => {
    const run = await runCli(
      ['tools', 'call', 'run_command', JSON.stringify({ command, ...extra }), '--json'],
      { home, cwd: workspace, interactive: true, stdin: 'n\n\n' },
    );
    expect(run.stderr).toContain('Approve tool call');
    expect(run.stderr).toMatch(/cannot tell what this line will run|working folder leads outside/);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    expect(run.stderr).toContain('\\u{001b}[9A');
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'denied' });
    expect(fs.existsSync(path.join(workspace, 'src', 'keep.txt'))).toBe(true);
  });
});
