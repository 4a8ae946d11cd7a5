// The per-call size limit on tool arguments, end to end: a scripted model sends 20 MiB into write_todo through
// `agenvoy chat`, and a person pipes or points `agenvoy tools call` at 20 MiB. Nothing of it is kept anywhere.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiEvents, startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { runCli } from './testing/cli-harness';

const MIB = 1024 * 1024;
const TOKEN = 'BIGPAYLOAD';

// write_todo arguments of exactly `bytes` bytes, starting with a token the checks look for.
function todoArgs(bytes: number): string {
  const shell = JSON.stringify({ items: [{ text: '', status: 'pending' }] });
  const text = TOKEN + 'x'.repeat(bytes - shell.length - TOKEN.length);
  return JSON.stringify({ items: [{ text, status: 'pending' }] });
}

let home: string;
let cwd: string;
let server: ScriptedServer;
beforeEach(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-args-home-'));
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-args-ws-'));
  server = await startOpenAiTestServer();
});
afterEach(async () => {
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(cwd, { recursive: true, force: true });
});

function writeSettings(extra: Record<string, unknown> = {}) {
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({
      provider: 'openai',
      baseUrl: server.baseUrl,
      model: 'scripted',
      apiKeyName: null,
      ...extra,
    }),
  );
}

// Every text cell of the database, and every log file: the largest, and whether the token is in any.
function keptAnywhere(): { largestCell: number; tokenInDb: boolean; logBytes: number; tokenInLog: boolean } {
  const db = new Database(path.join(home, 'desktop', 'agenvoy.db'), { readonly: true });
  let largestCell = 0;
  let tokenInDb = false;
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
      name: string;
    }>;
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>) {
        for (const value of Object.values(row)) {
          const text =
            typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : '';
          largestCell = Math.max(largestCell, text.length);
          if (text.includes(TOKEN)) tokenInDb = true;
        }
      }
    }
  } finally {
    db.close();
  }
  const logs = path.join(home, 'desktop', 'logs');
  const files = fs.existsSync(logs) ? fs.readdirSync(logs).map((f) => path.join(logs, f)) : [];
  const text = files.map((f) => fs.readFileSync(f, 'utf8')).join('');
  return { largestCell, tokenInDb, logBytes: text.length, tokenInLog: text.includes(TOKEN) };
}

describe('agenvoy chat with 20 MiB of write_todo arguments', () => {
  it('the model reads the error, the next request carries the marker, and nothing big is stored', async () => {
    writeSettings();
    server.enqueue(
      {
        events: openAiEvents([{ toolCall: { id: 'todo_1', name: 'write_todo', args: todoArgs(20 * MIB) } }], {
          chunkSize: 256 * 1024,
        }),
      },
      { events: openAiEvents([{ text: 'I will keep the list shorter.' }]) },
    );
    const run = await runCli(['chat', 'plan the work', '--json', '--approve', 'deny', '--workspace', cwd], {
      home,
      cwd,
    });
    expect(run.code, run.stderr).toBe(0);
    const message = 'arguments too large: 20.0 MiB (limit 1 MiB)';
    const second = server.requests[1]?.body as { messages: Array<Record<string, unknown>> };
    const assistant = second.messages.find((m) => m.role === 'assistant') as {
      tool_calls: Array<{ id: string; function: { name: string; arguments: string } }>;
    };
    expect(assistant.tool_calls).toEqual([
      {
        id: 'todo_1',
        type: 'function',
        function: { name: 'write_todo', arguments: JSON.stringify({ _omitted: message }) },
      },
    ]);
    expect(second.messages.find((m) => m.role === 'tool')).toEqual({
      role: 'tool',
      tool_call_id: 'todo_1',
      content: `Error: ${message}`,
    });
    expect(JSON.stringify(second).length).toBeLessThan(100_000);
    // The events the CLI printed: the call and its error, nothing of the 20 MiB.
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.find((e) => e.type === 'tool.call')).toMatchObject({
      name: 'write_todo',
      args: JSON.stringify({ _omitted: message }),
    });
    expect(events.find((e) => e.type === 'call.finished')).toMatchObject({
      tool: 'write_todo',
      outcome: { outcome: 'error', code: 'arguments_too_large', message },
    });
    expect(run.stdout.length).toBeLessThan(100_000);
    expect(run.stdout).not.toContain(TOKEN);
    const kept = keptAnywhere();
    expect(kept.tokenInDb).toBe(false);
    expect(kept.largestCell).toBeLessThan(100_000);
    expect(kept.tokenInLog).toBe(false);
    expect(kept.logBytes).toBeLessThan(100_000);
  });

  it('a limit from settings.json applies, and a bad one is named and replaced by the default', async () => {
    writeSettings({ limits: { toolArgumentsBytes: 4096 } });
    server.enqueue(
      { events: openAiEvents([{ toolCall: { id: 't1', name: 'write_todo', args: todoArgs(6000) } }]) },
      { events: openAiEvents([{ text: 'ok' }]) },
    );
    const run = await runCli(['chat', 'plan', '--approve', 'deny', '--workspace', cwd], { home, cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('[tool write_todo: error — arguments too large: 5.9 KiB (limit 4 KiB)]');

    writeSettings({ limits: { toolArgumentsBytes: 'a lot' } });
    server.enqueue(
      { events: openAiEvents([{ toolCall: { id: 't2', name: 'write_todo', args: todoArgs(6000) } }]) },
      { events: openAiEvents([{ text: 'ok' }]) },
    );
    const again = await runCli(['chat', 'plan', '--approve', 'deny', '--workspace', cwd], { home, cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `[warn] ${path.join(home, 'desktop', 'settings.json')}: "limits.toolArgumentsBytes" must be a whole number ` +
        'of bytes from 1024 to 1073741824 (got "a lot"); the default 1048576 (1 MiB) applies',
    );
    expect(again.stderr).toContain('[tool write_todo: ok]');
  });
});

describe('agenvoy tools call with arguments from standard input or a file', () => {
  const listArgs = JSON.stringify({ mode: 'list', system: true });

  it('reads `-` from standard input and `@FILE` from a file', async () => {
    const viaStdin = await runCli(['tools', 'call', 'find_tools', '-'], { home, cwd, stdin: listArgs });
    expect(viaStdin.code, viaStdin.stderr).toBe(0);
    expect(viaStdin.stdout).toContain('write_todo');
    fs.writeFileSync(path.join(cwd, 'args.json'), listArgs);
    const viaFile = await runCli(['tools', 'call', 'find_tools', '@args.json'], { home, cwd });
    expect(viaFile.code, viaFile.stderr).toBe(0);
    expect(viaFile.stdout).toBe(viaStdin.stdout);
  });

  it('refuses 20 MiB from either with the message and a non-zero status, without running the tool', async () => {
    const big = todoArgs(20 * MIB);
    const message = 'error [arguments_too_large]: arguments too large: 20.0 MiB (limit 1 MiB)\n';
    const viaStdin = await runCli(['tools', 'call', 'write_todo', '-'], { home, cwd, stdin: big });
    expect(viaStdin.code).toBe(1);
    expect(viaStdin.stderr).toContain(message);
    fs.writeFileSync(path.join(cwd, 'big.json'), big);
    const viaFile = await runCli(
      ['tools', 'call', 'write_todo', `@${path.join(cwd, 'big.json')}`, '--json'],
      {
        home,
        cwd,
      },
    );
    expect(viaFile.code).toBe(1);
    expect(JSON.parse(viaFile.stdout)).toMatchObject({
      outcome: 'error',
      code: 'arguments_too_large',
      message: 'arguments too large: 20.0 MiB (limit 1 MiB)',
    });
    expect(viaStdin.stdout + viaStdin.stderr + viaFile.stdout + viaFile.stderr).not.toContain(TOKEN);
  });

  it('the real bin/agenvoy reads a 20 MiB pipe and refuses it', async () => {
    const child = spawn(
      process.execPath,
      [path.resolve(__dirname, '../../bin/agenvoy'), 'tools', 'call', 'write_todo', '-'],
      {
        cwd,
        env: { ...process.env, AGENVOY_HOME: home, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    // The pipe may close early once the limit is passed; the command still reads to the end to count.
    child.stdin.on('error', () => {});
    child.stdin.end(todoArgs(20 * MIB));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('error [arguments_too_large]: arguments too large: 20.0 MiB (limit 1 MiB)');
  });

  it('names a missing file, and applies the limit of settings.json', async () => {
    const missing = await runCli(['tools', 'call', 'find_tools', '@nope.json'], { home, cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the arguments file ${path.join(cwd, 'nope.json')}: ENOENT`);
    writeSettings({ limits: { toolArgumentsBytes: 2048 } });
    const inline = await runCli(
      ['tools', 'call', 'find_tools', JSON.stringify({ query: 'x'.repeat(3000) })],
      {
        home,
        cwd,
      },
    );
    expect(inline.code).toBe(1);
    expect(inline.stderr).toContain('arguments too large: 2.9 KiB (limit 2 KiB)');
  });
});
