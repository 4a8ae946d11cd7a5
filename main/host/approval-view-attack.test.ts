// The approval dialog (desktop and browser mode) must show what will run (docs/security.md, "What the person
// sees"): a model's arguments or a repository's folder names carrying bidi overrides, zero-width or C1 control
// characters must not reorder or hide text in the dialog. The terminal prompt escapes them (format-request.ts); the
// dialog's view is built by the real gate and DialogHub here, the way both hosts build it.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalItemView, DialogEvent } from '../../preload/contract';
import { defineTool } from '../../tools/sdk/types';
import { gateFixture } from '../gate/testing/gate-fixture';
import { SHOWN_HIDDEN } from '../core/testing/hidden-oracle';
import { DialogHub } from './dialog-hub';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

// A workspace script tool in a folder a repository named (the adapter puts the real folder in `dir`).
const trojanDir = '/home/ann/repo/.config/agenvoy/tools/script/lint\u202eexe.hs';
const workspaceTool = {
  ...defineTool({
    name: 'script_lint',
    description: 'Lint the repository for tests.\nUse when testing the approval view.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    handler: () => 'linted',
  }),
  source: {
    kind: 'script' as const,
    dir: trojanDir,
    scope: 'workspace' as const,
    trusted: false,
    writable: [],
  },
};

// Asks through a real DialogHub; returns the items the dialog showed, after denying them all.
async function shown(calls: Array<[string, Record<string, unknown>]>): Promise<ApprovalItemView[]> {
  const events: DialogEvent[] = [];
  const hub = new DialogHub({ redact: (text) => text, chatTitle: () => 'chat', notice: () => {} });
  hub.attach({ present: (event) => events.push(event) });
  const f = gateFixture({
    prompter: hub.approvalPrompter(),
    sandbox: 'sandboxed',
    extraTools: [workspaceTool],
  });
  homes.push(f.home, f.dir);
  const items: ApprovalItemView[] = [];
  const dispatched = calls.map(([name, args], i) =>
    f.dispatcher.dispatch({ id: `c${i}`, name, args }, { chatId: 'chat', workspace: '/home/ann/repo' }),
  );
  for (let answered = 0; answered < calls.length;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const dialog of hub.pending()) {
      if (dialog.kind !== 'approval') continue;
      for (const index of dialog.pending) {
        items.push(dialog.items.find((item) => item.index === index) as ApprovalItemView);
        await hub.answerApproval(dialog.id, index, { kind: 'deny' });
        answered++;
      }
    }
  }
  const outcomes = await Promise.all(dispatched);
  expect(outcomes.map((o) => o.outcome)).toEqual(calls.map(() => 'denied'));
  expect(f.runs).toEqual([]);
  return items;
}

// Every text of an item the dialog prints.
function texts(item: ApprovalItemView): string[] {
  const source = item.source.kind === 'script' ? [item.source.dir, ...item.source.writable] : [];
  return [
    item.tool,
    item.args,
    item.canonical,
    item.suggestedPattern ?? '',
    item.personOnly ?? '',
    ...source,
  ];
}

describe('the approval dialog shows hidden characters as escapes', () => {
  it('a command whose bidi override shows its end reversed', async () => {
    // Rendered, the part after U+202E reads backwards: the dialog would show a harmless-looking tail.
    const command = 'cat notes.txt #\u202e txt.seton tac';
    const [item] = await shown([['run_command', { command }]]);
    for (const text of texts(item as ApprovalItemView)) expect(text).not.toMatch(SHOWN_HIDDEN);
    expect(item?.args).toContain('\\u{202e}');
    expect(item?.canonical).toContain('\\u{202e}');
  });

  it('a path with zero-width and C1 characters, and an isolate that reorders it', async () => {
    const path = 'report\u2067.txt\u2069\u200b\u0085.sh';
    const [item] = await shown([['write_note', { path, content: 'x' }]]);
    for (const text of texts(item as ApprovalItemView)) expect(text).not.toMatch(SHOWN_HIDDEN);
    expect(item?.args).toContain('report\\u{2067}.txt\\u{2069}\\u{200b}\\u{0085}.sh');
  });

  it("an untrusted workspace tool's folder name, in its source and in the reason it asks", async () => {
    const [item] = await shown([['script_lint', {}]]);
    for (const text of texts(item as ApprovalItemView)) expect(text).not.toMatch(SHOWN_HIDDEN);
    expect(item?.source).toMatchObject({
      kind: 'script',
      dir: expect.stringContaining('lint\\u{202e}exe.hs'),
    });
    expect(item?.personOnly).toContain('lint\\u{202e}exe.hs');
  });
});
