// Two processes on one history at once (the app and `agenvoy chat`, two terminals): the one that starts second must
// not run crash recovery over the first's live turn. It marked the first's streaming answer `interrupted`, so the
// first's final save failed and the history kept only what had streamed before the second started.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { runBin } from '../cli/testing/cli-harness';
import type { ScriptedChatPlace } from '../cli/testing/scripted-chat-place';
import { useScriptedChatPlace } from '../cli/testing/scripted-chat-place';
import { openChatStore } from './chat-store';

let place!: ScriptedChatPlace;
useScriptedChatPlace('second-instance', (made) => (place = made));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a second process on the same history', () => {
  it("leaves the first process's streaming answer alone", async () => {
    const head = 'FIRST-HALF-OF-THE-ANSWER ';
    const tail = 'SECOND-HALF-OF-THE-ANSWER';
    const slow = openAiEvents([{ text: head + tail }], { chunkSize: head.length });
    // The tail waits until the second process has started, recovered and ended.
    for (const frame of slow.slice(2, 3)) frame.delayMs = 12_000;
    place.server.enqueue({ events: slow }, { events: openAiEvents([{ text: 'second done' }]) });
    const args = (prompt: string) => [
      'chat',
      prompt,
      '--json',
      '--approve',
      'deny',
      '--workspace',
      place.cwd,
    ];
    const first = runBin(args('first'), { home: place.home, cwd: place.cwd, timeoutMs: 90_000 });
    const db = path.join(place.home, 'desktop', 'agenvoy.db');
    // The first's head is saved (checkpointed) before the second starts.
    for (let i = 0; i < 400 && !headSaved(db, head); i++) await sleep(100);
    expect(headSaved(db, head)).toBe(true);
    const second = await runBin(args('second'), { home: place.home, cwd: place.cwd, timeoutMs: 60_000 });
    expect(second.code, second.stderr).toBe(0);
    const run = await first;
    expect(run.code, run.stderr).toBe(0);
    const store = openChatStore(db);
    try {
      const answers = store.chats
        .list()
        .flatMap((chat) => store.messages.list(chat.id))
        .filter((m) => m.message.role === 'assistant');
      const firstAnswer = answers.find((m) => JSON.stringify(m.message).includes(head));
      expect(firstAnswer?.status).toBe('complete');
      expect(JSON.stringify(firstAnswer?.message)).toContain(tail);
    } finally {
      store.close();
    }
  }, 120_000);
});

function headSaved(db: string, head: string): boolean {
  if (!fs.existsSync(db)) return false;
  try {
    const store = openChatStore(db);
    try {
      return store.chats
        .list()
        .some((chat) => store.messages.list(chat.id).some((m) => JSON.stringify(m.message).includes(head)));
    } finally {
      store.close();
    }
  } catch {
    return false;
  }
}
