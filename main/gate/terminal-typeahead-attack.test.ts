// On a terminal, an answer typed ahead must not decide a call that was not on screen yet (docs/security.md, "What
// the person sees"). The line reader kept every line that arrived early, so "y" Enter pressed twice, or an answer
// typed while the model was still working, allowed the next call of the batch (the one a model put second on
// purpose) before its prompt had been read. Lines that were typed before a prompt was shown, or within a moment of
// it, are now ignored on a terminal, saying so; piped input (scripts) is read as before.
import { PassThrough } from 'node:stream';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TerminalPrompter } from './terminal-prompter';
import { gateFixture } from './testing/gate-fixture';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A terminal: stdin is a TTY and typed input is echoed.
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const echo = new PassThrough();
  echo.resume();
  let output = '';
  const prompter = new TerminalPrompter({ input, write: (text) => (output += text), echo });
  const f = gateFixture({ prompter });
  dirs.push(f.home, f.dir);
  return { f, input, output: () => output };
}

const batch = [
  { id: 'a', name: 'run_command', args: { command: 'ls' } },
  { id: 'b', name: 'run_command', args: { command: 'rm -rf ./src' } },
];

describe('the terminal prompt ignores answers typed ahead', () => {
  it('"y" Enter pressed twice allows the first call only', async () => {
    const { f, input, output } = terminal();
    const running = f.executor.run(batch, { chatId: 'c', workspace: f.dir });
    // The first question on screen and read (a loaded machine may take a while to show it), then "y" Enter twice.
    while (!output().includes('Approve tool call 1 of 2')) await sleep(20);
    await sleep(600);
    input.write('y\ny\n');
    await sleep(600);
    // Calls run once the whole batch is decided: the second is still waiting for its answer.
    expect(output()).toContain('Approve tool call 2 of 2');
    expect(f.runs).toEqual([]);
    input.write('n not this one\n');
    const results = await running;
    expect(results.map((r) => r.outcome.outcome)).toEqual(['ok', 'denied']);
    expect(f.runs).toEqual([expect.stringContaining('"ls"')]);
  });

  it('an answer typed before the prompt appeared does not answer it', async () => {
    const { f, input, output } = terminal();
    input.write('y\n');
    const running = f.executor.run([batch[1] as (typeof batch)[number]], { chatId: 'c', workspace: f.dir });
    while (!output().includes('Approve tool call')) await sleep(20);
    await sleep(600);
    expect(f.runs).toEqual([]);
    expect(output()).toContain('typed before this question was shown was ignored');
    input.write('n not this one\n');
    const [result] = await running;
    expect(result?.outcome.outcome).toBe('denied');
  });
});
