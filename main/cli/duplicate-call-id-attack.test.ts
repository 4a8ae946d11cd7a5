// Two tool calls of one answer under one id (a local server or a steered model sends them): both ran, but the chat
// recorded one row for the two and answered the model "interrupted: … it may or may not have run" for each, so neither
// the record nor the model knew what had been done. Each call now gets an id of its own before it is recorded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiEvents, startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import type { CliPlace } from './testing/cli-harness';
import { runCli } from './testing/cli-harness';

let place: CliPlace;
beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-dup-id-'));
  place = { home: path.join(root, 'home'), cwd: path.join(root, 'ws') };
  fs.mkdirSync(path.join(place.home, 'desktop'), { recursive: true });
  fs.mkdirSync(place.cwd, { recursive: true });
});
afterEach(() => fs.rmSync(path.dirname(place.home), { recursive: true, force: true }));

describe('two calls of one answer under one id', () => {
  it('both are recorded and answered, each under its own id', async () => {
    const server = await startOpenAiTestServer();
    try {
      fs.writeFileSync(
        path.join(place.home, 'desktop', 'settings.json'),
        JSON.stringify({ provider: 'openai', baseUrl: server.baseUrl, model: 'scripted', apiKeyName: null }),
      );
      server.enqueue(
        {
          events: openAiEvents([
            {
              toolCall: {
                id: 'load',
                name: 'find_tools',
                args: JSON.stringify({ mode: 'search', query: 'select:write_result' }),
              },
            },
          ]),
        },
        {
          events: openAiEvents([
            {
              toolCall: {
                id: 'dup',
                name: 'write_result',
                args: JSON.stringify({ path: 'a.txt', content: 'one' }),
              },
            },
            {
              toolCall: {
                id: 'dup',
                name: 'write_result',
                args: JSON.stringify({ path: 'b.txt', content: 'two' }),
              },
            },
          ]),
        },
        { events: openAiEvents([{ text: 'done' }]) },
      );
      const run = await runCli(
        ['chat', 'go', '--json', '--approve', 'allow', '--workspace', place.cwd],
        place,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(fs.readFileSync(path.join(place.cwd, 'a.txt'), 'utf8')).toBe('one');
      expect(fs.readFileSync(path.join(place.cwd, 'b.txt'), 'utf8')).toBe('two');
      // The model is answered once per call, each under its own id, with what that call did.
      const messages = (server.requests.at(-1)?.body?.messages ?? []) as Array<Record<string, unknown>>;
      const assistant = messages.filter((m) => Array.isArray(m.tool_calls)).at(-1) as
        { tool_calls: Array<{ id: string; function: { arguments: string } }> } | undefined;
      const ids = assistant?.tool_calls.map((call) => call.id) ?? [];
      expect(ids).toEqual(['dup', 'dup_2']);
      const results = messages.filter((m) => m.role === 'tool' && m.tool_call_id !== 'load');
      expect(results.map((m) => m.tool_call_id)).toEqual(['dup', 'dup_2']);
      expect(String(results[0]?.content)).toContain('a.txt');
      expect(String(results[1]?.content)).toContain('b.txt');
      for (const result of results) expect(String(result.content)).not.toMatch(/interrupted/);
    } finally {
      await server.close();
    }
  }, 60_000);
});
