// Another process holds the history's write lock past the busy wait as `agenvoy chat` starts (a backup tool, the
// sqlite3 shell, another agenvoy's migration): start-up recovery could not write, and the only words were SQLite's
// "database is locked", which do not say which file is locked, so nobody could tell what to close.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { runBin } from '../cli/testing/cli-harness';
import type { ScriptedChatPlace } from '../cli/testing/scripted-chat-place';
import { useScriptedChatPlace } from '../cli/testing/scripted-chat-place';

let place!: ScriptedChatPlace;
useScriptedChatPlace('locked-start', (made) => (place = made));

describe('the history is locked by another process at start', () => {
  it('names the chat history in the error', async () => {
    place.server.enqueue({ events: openAiEvents([{ text: 'one' }]) });
    const args = (prompt: string) => [
      'chat',
      prompt,
      '--json',
      '--approve',
      'deny',
      '--workspace',
      place.cwd,
    ];
    expect((await runBin(args('make the history'), { home: place.home, cwd: place.cwd })).code).toBe(0);
    const db = path.join(place.home, 'desktop', 'agenvoy.db');
    const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(db)});
      d.exec('BEGIN IMMEDIATE'); d.prepare('UPDATE chats SET title = title').run();
      process.stdout.write('held\\n'); process.stdin.on('data', () => { d.exec('COMMIT'); process.exit(0); });`;
    const holder = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      const run = await runBin(args('second'), { home: place.home, cwd: place.cwd, timeoutMs: 60_000 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(db);
      expect(run.stderr).toContain('database is locked');
    } finally {
      holder.stdin.write('go\n');
      await new Promise((resolve) => holder.on('close', resolve));
    }
  }, 90_000);
});
