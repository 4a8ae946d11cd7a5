// kill -9 a real writer process mid-stream and mid-tool, reopen, and check that every acknowledged write survived.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { killLeftoverGroups } from '../process/process-group-leftovers';
import { groupAlive } from '../process/process-group-kill';
import { openChatStore } from './chat-store';
import type { ChatStore } from './chat-store';
import type { CrashAck } from './testing/crash-script';
import {
  CRASH_CHAT_ID,
  CRASH_TASK_ID,
  callIdOf,
  streamedText,
  taskTail,
  userText,
} from './testing/crash-script';
import type { TempDesktop } from './testing/temp-store';
import { tempDesktop } from './testing/temp-store';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const writer = path.join(here, 'testing', 'crash-writer.ts');

let desktop: TempDesktop | undefined;
let leftovers: number[] = [];

afterEach(() => {
  for (const pgid of leftovers) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  leftovers = [];
  desktop?.remove();
  desktop = undefined;
});

/** Runs the writer until `killWhen` says so, SIGKILLs it, and returns the acks it had printed. */
async function runAndKill(
  file: string,
  killWhen: (ack: CrashAck, all: CrashAck[]) => boolean,
): Promise<CrashAck[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, file], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: CrashAck[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // 'close' waits for stdout to drain: lines still in the pipe after the kill were printed after commits too.
  const closed = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('close', (_code, signal) => resolve(signal)),
  );
  let killed = false;
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const ack = JSON.parse(line) as CrashAck;
    acks.push(ack);
    if (ack.kind === 'group') leftovers.push(ack.pgid);
    if (!killed && killWhen(ack, acks)) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  const signal = await closed;
  if (signal !== 'SIGKILL') throw new Error(`writer exited on its own (${signal}): ${stderr}`);
  return acks;
}

function assistantText(store: ChatStore, id: number): string {
  const message = store.messages.get(id)?.message;
  if (message?.role !== 'assistant') throw new Error(`message ${id} is not an assistant message`);
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

const stages = { queued: 1, started: 2, finished: 3 } as const;
const callStage = { queued: 1, running: 2, finished: 3, interrupted: 2 } as const;

/** Checks that every acknowledged write is in the reopened store. */
function expectAcked(store: ChatStore, acks: CrashAck[]): void {
  for (const ack of acks) {
    switch (ack.kind) {
      case 'group':
        expect(store.processGroups.live().map((g) => g.pgid)).toContain(ack.pgid);
        break;
      case 'task': {
        const task = store.tasks.get(CRASH_TASK_ID);
        expect(task?.status).toBe('running');
        const tick = Number(/tick (\d+)$/.exec(task?.outputTail ?? '')?.[1] ?? 0);
        expect(tick).toBeGreaterThanOrEqual(ack.tail);
        if (ack.tail > 0 && tick === ack.tail) expect(task?.outputTail).toBe(taskTail(ack.tail));
        break;
      }
      case 'user':
      case 'results': {
        const stored = store.messages.get(ack.id);
        expect(stored?.status).toBe('complete');
        if (ack.kind === 'user') {
          expect(stored?.seq).toBe(ack.seq);
          expect(stored?.message).toEqual({
            role: 'user',
            content: [{ type: 'text', text: userText(ack.round) }],
          });
        } else {
          expect(stored?.message.role).toBe('tool_results');
        }
        break;
      }
      case 'begin':
        expect(store.messages.get(ack.id)?.seq).toBe(ack.seq);
        break;
      case 'checkpoint':
        // A later checkpoint may have committed before its ack was printed: the text only grows.
        expect(assistantText(store, ack.id).startsWith(streamedText(ack.round, ack.step))).toBe(true);
        break;
      case 'finish':
        expect(store.messages.get(ack.id)?.status).toBe('complete');
        break;
      case 'queued':
      case 'started':
      case 'finished': {
        const call = store.toolCalls.get(CRASH_CHAT_ID, ack.callId);
        expect(call).toBeDefined();
        expect(callStage[call?.status ?? 'queued']).toBeGreaterThanOrEqual(stages[ack.kind]);
        break;
      }
    }
  }
}

/** Reopens, checks, recovers, kills the leftover group and writes a next turn. */
async function reopenAndRecover(file: string, acks: CrashAck[]) {
  const store = openChatStore(file);
  try {
    expect(store.integrityCheck()).toEqual({ ok: true, messages: ['ok'] });
    expectAcked(store, acks);
    const recovery = store.recover();
    expect(recovery.tasks.map((t) => [t.id, t.status])).toEqual([[CRASH_TASK_ID, 'interrupted']]);
    expect(store.tasks.get(CRASH_TASK_ID)?.status).toBe('interrupted');
    expect(store.messages.list(CRASH_CHAT_ID).filter((m) => m.status === 'streaming')).toEqual([]);
    expect(
      store.toolCalls.list(CRASH_CHAT_ID).filter((c) => c.status === 'queued' || c.status === 'running'),
    ).toEqual([]);

    const pgid = acks.find((a) => a.kind === 'group')?.pgid;
    expect(recovery.processGroups.map((g) => [g.pgid, g.owner])).toEqual([[pgid, { taskId: CRASH_TASK_ID }]]);
    const killed = await killLeftoverGroups(recovery.processGroups, { graceMs: 200 });
    expect(killed).toEqual([{ pgid, outcome: 'killed' }]);
    // Gone as the core counts it: no member left running (an orphaned zombie waits for init to reap it).
    expect(groupAlive(pgid as number)).toBe(false);
    for (const group of recovery.processGroups) store.processGroups.remove(group.pgid);
    expect(store.processGroups.live()).toEqual([]);

    // The next turn works.
    const user = store.messages.append(CRASH_CHAT_ID, {
      role: 'user',
      content: [{ type: 'text', text: 'again' }],
    });
    const reply = store.messages.begin(CRASH_CHAT_ID);
    store.messages.finish(reply.id, [{ type: 'text', text: 'fine' }], 'complete');
    expect(reply.seq).toBe(user.seq + 1);
    expect(store.messages.list(CRASH_CHAT_ID).at(-1)?.status).toBe('complete');
    expect(store.integrityCheck().ok).toBe(true);
    return recovery;
  } finally {
    store.close();
  }
}

describe('crash safety (kill -9 of a real writer)', () => {
  it('keeps every acknowledged write when killed mid-stream, and marks the stream interrupted', async () => {
    desktop = tempDesktop();
    // Round 2, a third of the way into its stream: dozens of checkpoints are still to come.
    const acks = await runAndKill(
      desktop.file,
      (ack) => ack.kind === 'checkpoint' && ack.round === 2 && ack.step === 20,
    );
    const last = acks.findLast((a) => a.kind === 'checkpoint');
    const recovery = await reopenAndRecover(desktop.file, acks);
    expect(recovery.messageIds).toEqual([last?.kind === 'checkpoint' ? last.id : -1]);
    expect(recovery.toolCalls).toEqual([]);
  });

  it('keeps every acknowledged write when killed mid-tool, and marks the call interrupted', async () => {
    desktop = tempDesktop();
    let startedAt = -1;
    const acks = await runAndKill(desktop.file, (ack, all) => {
      if (ack.kind === 'started' && ack.round === 2) startedAt = all.length;
      return startedAt > 0 && all.length >= startedAt + 5;
    });
    const recovery = await reopenAndRecover(desktop.file, acks);
    expect(recovery.toolCalls.map((c) => [c.callId, c.status])).toEqual([[callIdOf(2), 'interrupted']]);
    expect(recovery.messageIds).toEqual([]);
  });

  it.each([150, 400, 700])(
    'keeps every acknowledged write when killed at an arbitrary moment (%i ms in)',
    async (ms) => {
      desktop = tempDesktop();
      let first = 0;
      const acks = await runAndKill(desktop.file, () => {
        first ||= Date.now();
        return Date.now() - first >= ms;
      });
      // How many writes fit in the window depends on the machine's load (each is an fsync); any is enough.
      expect(acks.length).toBeGreaterThan(1);
      await reopenAndRecover(desktop.file, acks);
    },
  );
});
