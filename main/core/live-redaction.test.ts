// Live output through the real dispatcher and a real process: a key printed one character at a time never shows
// in a progress event or a background task's output tail, not even one character of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { backgroundCommandTool } from '../../tools/builtin/background-command';
import { runCommandTool } from '../../tools/builtin/run-command';
import type { CallEvent } from './dispatcher';
import { ProcessGroups } from '../process/process-group';
import { processPort } from '../process/process-port';
import { testCore } from './testing/test-core';

const KEY = 'Zq7CanaryKEY9XpWm4';

let workspace: string;
let groups: ProcessGroups;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-live-'));
  fs.writeFileSync(path.join(workspace, 'key.txt'), KEY);
  // Prints the key slowly, then a line, then the key again in one piece.
  fs.writeFileSync(
    path.join(workspace, 'slow.js'),
    `const key = require('fs').readFileSync('key.txt', 'utf8');
     let i = 0;
     const tick = () => {
       if (i < key.length) { process.stdout.write(key[i++]); return setTimeout(tick, 40); }
       console.log('\\nagain ' + key + ' done');
     };
     process.stdout.write('key: ');
     setTimeout(tick, 250);`,
  );
  groups = new ProcessGroups();
});
afterEach(async () => {
  await groups.killAll();
  fs.rmSync(workspace, { recursive: true, force: true });
});

function withoutMarks(text: string): string {
  return text.replace(/\[redacted:[A-Z_]+\]/g, '');
}

it('run_command: the progress events hold the key back and show only its redaction', async () => {
  const core = testCore([runCommandTool]);
  core.redactor.add('LIVE_KEY', KEY);
  const events: CallEvent[] = [];
  core.dispatcher.on((event) => events.push(event));
  const outcome = await core.dispatcher.dispatch(
    { id: 'r1', name: 'run_command', args: { command: `"${process.execPath}" slow.js` } },
    { chatId: 'live', workspace, services: { processes: processPort(groups) } },
  );
  expect(outcome.outcome).toBe('ok');
  const outputs = events.flatMap((e) => (e.type === 'call.progress' ? [e.update.output ?? ''] : []));
  // Streamed live (usually "key: " alone first, while the key is still being printed).
  expect(outputs[0]?.startsWith('key: ')).toBe(true);
  expect(outputs.join('')).toBe('key: [redacted:LIVE_KEY]\nagain [redacted:LIVE_KEY] done\n');
  for (const output of outputs) expect(withoutMarks(output).toLowerCase()).not.toContain('z');
});

it('background_command: the task output tail never holds a piece of the key', async () => {
  const core = testCore([backgroundCommandTool]);
  core.redactor.add('LIVE_KEY', KEY);
  const tails: string[] = [];
  core.tasks.onChange((task) => tails.push(task.outputTail));
  const started = await core.dispatcher.dispatch(
    { id: 'b1', name: 'background_command', args: { command: `"${process.execPath}" slow.js` } },
    { chatId: 'live', workspace, services: { processes: processPort(groups) } },
  );
  expect(started.outcome).toBe('ok');
  const id = (started as { data?: { taskId?: string } }).data?.taskId ?? '';
  const until = Date.now() + 15_000;
  while (core.tasks.get(id)?.status === 'running' && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(core.tasks.get(id)?.outputTail).toBe('key: [redacted:LIVE_KEY]\nagain [redacted:LIVE_KEY] done\n');
  for (const tail of tails) expect(withoutMarks(tail).toLowerCase()).not.toContain('z');
});
