// A chat history database that is damaged (docs/robustness.md, "The app's own files"): garbage in place of
// agenvoy.db, or pages overwritten as a torn write leaves them. Opening it fails, the file is left as it was (it is
// the only copy of the person's chats), and the error names the file, where before `agenvoy chat` said only
// "file is not a database".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openChatStore } from './chat-store';
import { runCli } from '../cli/testing/cli-harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a damaged chat history', () => {
  it('garbage in place of agenvoy.db: the error names the file, which is left untouched', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
    dirs.push(home, cwd);
    const db = path.join(home, 'desktop', 'agenvoy.db');
    fs.mkdirSync(path.dirname(db));
    const garbage = Buffer.from('not a database, the remains of a chat history '.repeat(2000));
    fs.writeFileSync(db, garbage);
    expect(() => openChatStore(db)).toThrow(
      `the chat history ${db} cannot be opened: file is not a database`,
    );
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({ provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKeyName: null }),
    );
    const run = await runCli(['chat', 'hello', '--workspace', cwd], { home, cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(db);
    expect(fs.readFileSync(db).equals(garbage)).toBe(true);
  });
});
