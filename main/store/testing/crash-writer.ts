// Child process of the crash test: writes chat events in a loop and prints one ack line after each write
// returns, until it is killed with SIGKILL. Usage: node --import tsx crash-writer.ts <db file>
import { spawn } from 'node:child_process';
import { groupRecord } from '../../process/process-group-tracker';
import { openChatStore } from '../chat-store';
import type { CrashAck } from './crash-script';
import {
  CRASH_CHAT_ID,
  CRASH_TASK_ID,
  STREAM_STEPS,
  TOOL_TICKS,
  callIdOf,
  streamedText,
  taskTail,
  userText,
} from './crash-script';

const file = process.argv[2];
if (!file) throw new Error('usage: crash-writer.ts <db file>');

// Pipes are synchronous on Linux, so an ack is out of this process before the next write starts.
const ack = (line: CrashAck) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const store = openChatStore(file);
store.chats.create({ id: CRASH_CHAT_ID, title: 'crash test', workspace: '/tmp' });

// A real detached process group, the kind a background command leaves behind when the app dies.
const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
if (child.pid === undefined) throw new Error('could not start sleep');
child.unref();
let tick = 0;
const task = {
  id: CRASH_TASK_ID,
  chatId: CRASH_CHAT_ID,
  tool: 'background_command',
  summary: 'sleep 300',
  status: 'running' as const,
  startedAt: Date.now(),
  endedAt: null,
  limitMs: 600_000,
  outputTail: '',
  result: null,
  error: null,
};
store.tasks.upsert(task);
ack({ kind: 'task', tail: 0 });
store.processGroups.record(groupRecord(child.pid, 'sleep 300'), { taskId: CRASH_TASK_ID });
ack({ kind: 'group', pgid: child.pid });

for (let round = 1; ; round++) {
  const user = store.messages.append(CRASH_CHAT_ID, {
    role: 'user',
    content: [{ type: 'text', text: userText(round) }],
  });
  ack({ kind: 'user', ...user, round });
  const begun = store.messages.begin(CRASH_CHAT_ID);
  ack({ kind: 'begin', ...begun, round });
  for (let step = 0; step < STREAM_STEPS; step++) {
    await sleep(2);
    store.messages.checkpoint(begun.id, [{ type: 'text', text: streamedText(round, step) }]);
    ack({ kind: 'checkpoint', id: begun.id, round, step });
  }
  const callId = callIdOf(round);
  const args = JSON.stringify({ path: `file_${round}.txt` });
  store.messages.finish(
    begun.id,
    [
      { type: 'text', text: streamedText(round, STREAM_STEPS - 1) },
      { type: 'tool_call', id: callId, name: 'read_file', args },
    ],
    'complete',
  );
  ack({ kind: 'finish', id: begun.id, round });
  store.toolCalls.queued({
    chatId: CRASH_CHAT_ID,
    callId,
    tool: 'read_file',
    source: { kind: 'builtin' },
    args,
  });
  ack({ kind: 'queued', callId, round });
  store.toolCalls.started(CRASH_CHAT_ID, callId, { limitMs: 900_000 });
  ack({ kind: 'started', callId, round });
  const started = Date.now();
  // While the tool runs, the background task keeps streaming output.
  for (let i = 0; i < TOOL_TICKS; i++) {
    await sleep(3);
    tick += 1;
    store.tasks.upsert({ ...task, outputTail: taskTail(tick) });
    ack({ kind: 'task', tail: tick });
  }
  const text = `contents of file_${round}.txt`;
  // The outcome and the transcript's answer commit together; the acks follow the commit.
  const results = store.transaction(() => {
    store.toolCalls.finished(CRASH_CHAT_ID, callId, {
      outcome: 'ok',
      text,
      content: [{ type: 'text', text }],
      durationMs: Date.now() - started,
    });
    return store.messages.append(CRASH_CHAT_ID, {
      role: 'tool_results',
      results: [{ callId, name: 'read_file', content: [{ type: 'text', text }], isError: false }],
    });
  });
  ack({ kind: 'finished', callId, round });
  ack({ kind: 'results', id: results.id, round });
}
