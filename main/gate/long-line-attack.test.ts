// Command lines built to crash or freeze the gate, end to end through the real dispatcher, the ConfirmGate and a
// real run_command, with nobody to ask: a stack overflow in the reader, quadratic path resolution, deep nesting.
// Each is decided within a generous bound and denied with its reason; nothing runs and nothing throws.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatItem } from './format-request';
import type { PromptItem } from './prompter-port';
import { attackGround, outcomeText } from './testing/attack-workspace';
import { ScriptedPrompter } from './testing/scripted-prompter';

// A loaded 2-core CI machine can be slow; a regression here is minutes, not seconds.
const BOUND_MS = 15_000;

const HOSTILE: Array<[string, string]> = [
  ['empty braces', `ls ${'{}'.repeat(200_000)}`],
  ['a deep path', `ls ${'a/'.repeat(32 * 1024)}`],
  ['a deeper path', `ls ${'a/'.repeat(440 * 1024)}`],
  ['.. after a deep path', `ls ${'a/'.repeat(100_000)}${'../'.repeat(100_000)}x`],
  ['command substitutions', `ls ${'$('.repeat(100_000)}`],
  ['closed substitutions', `ls ${'$('.repeat(20_000)}x${')'.repeat(20_000)}`],
  ['parameter defaults', `ls ${'${x:-'.repeat(50_000)}`],
  ['quoted substitutions', `ls ${'"$('.repeat(50_000)}`],
  ['backquotes', `ls ${'`'.repeat(200_000)}`],
  ['brackets', `ls ${'['.repeat(200_000)}`],
  ['globs', `ls .${'*?'.repeat(100_000)}`],
  ['many folders', `${'cd a; '.repeat(20_000)}ls ${'b '.repeat(20_000)}`],
  ['many words', `ls ${'a '.repeat(200_000)}`],
  ['doubling variables', `${'x=$x$x$x$x; '.repeat(2_000)}ls $x$x$x$x`],
  ['here-documents', 'cat <<a\n'.repeat(50_000)],
  ['ANSI-C escapes', `ls $'${'\\x41'.repeat(100_000)}'`],
];

describe('long and deep command lines', () => {
  it('are each decided quickly and denied, and nothing runs', async () => {
    const ground = attackGround();
    for (const [name, command] of HOSTILE) {
      const started = Date.now();
      const outcome = await ground.call({ command });
      expect(Date.now() - started, name).toBeLessThan(BOUND_MS);
      expect(outcome.outcome, name).toBe('denied');
      expect(outcomeText(outcome), name).toMatch(/needs approval.* there is nobody to ask/);
    }
    expect(fs.readdirSync(ground.workspace).filter((name) => !name.startsWith('.'))).toEqual(['a.txt']);
  }, 240_000);

  it('reads a repository’s hostile `.git` file quickly: a gitdir line padded with a megabyte of blanks', async () => {
    const ground = attackGround();
    const nested = path.join(ground.workspace, 'vendor', 'lib');
    fs.mkdirSync(nested, { recursive: true });
    fs.writeFileSync(path.join(nested, '.git'), `gitdir: a${' '.repeat(1024 * 1024)}b\n`);
    const started = Date.now();
    const outcome = await ground.call({ command: 'git status --short' });
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(outcome.outcome).toBe('ok');
  }, 60_000);

  it('asks a person with the reason, offers no standing approval, and folds the line in the prompt', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    const command = `ls ${'a/'.repeat(32 * 1024)}`;
    await ground.call({ command });
    const [question] = prompter.questions;
    expect(question?.noStanding).toMatch(/64\.0 KiB long.* 32 KiB/);
    expect(question?.offers).toEqual({ chat: false, always: false });
    const shown = formatItem(question as PromptItem, { index: 0, count: 1 });
    expect(shown).toMatch(/characters folded/);
    expect(shown.length).toBeLessThan(4000);
    expect(shown).toContain('64.0 KiB long');
  });

  it('still allows an everyday line just under the limit', async () => {
    const ground = attackGround();
    const names = Array.from({ length: 3000 }, (_, i) => `f${i}.txt`);
    fs.writeFileSync(path.join(ground.workspace, names[0] as string), 'x');
    const command = `ls -d ${names.join(' ')}`;
    expect(command.length).toBeLessThan(32 * 1024);
    const outcome = await ground.call({ command });
    expect(outcome.outcome).toBe('ok');
    expect(outcomeText(outcome)).toContain('f0.txt');
  }, 60_000);
});
