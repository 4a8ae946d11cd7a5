// Tool outputs, each within its 1 MiB cap, that fill the model's context (docs/agent-loop.md, "A chat longer than the
// model's context"): through `agenvoy chat`, a command's 300,000 characters of output, then the model server refuses
// the next request as too long for its context, as OpenAI does. Before, that refusal ended the turn, and every later
// turn of the chat the same way, since the history keeps the output; now the request goes again with the output cut
// to fit, the answer comes, and the chat's history keeps the output whole.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { runCli } from './testing/cli-harness';
import { useScriptedChatPlace } from './testing/scripted-chat-place';

let home: string;
let cwd: string;
let server: ScriptedServer;
useScriptedChatPlace('ctx', (place) => ({ home, cwd, server } = place));

const OVERFLOW = {
  status: 400,
  body: {
    error: {
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 75000 tokens.",
      code: 'context_length_exceeded',
    },
  },
};

// The Q characters of the command's output in a text: runs of them, so that a lone Q elsewhere (a temporary
// folder's random name, say) is not counted.
function outputQs(text: string): number {
  return (text.match(/Q{64,}/g) ?? []).reduce((sum, run) => sum + run.length, 0);
}

// The output's Q characters in the tool messages of the server's n-th request.
function qsSent(n: number): number {
  const messages = server.requests[n]?.body.messages as Array<{ role: string; content: unknown }>;
  return messages
    .filter((m) => m.role === 'tool' && typeof m.content === 'string')
    .reduce((sum, m) => sum + outputQs(m.content as string), 0);
}

describe('tool outputs that fill the model context, through agenvoy chat', () => {
  it('the turn ends with the answer, the request sent again with the output cut to fit', async () => {
    const command = "head -c 300000 /dev/zero | tr '\\0' Q";
    server.enqueue(
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'load',
              name: 'find_tools',
              args: JSON.stringify({ mode: 'search', query: 'select:run_command' }),
            },
          },
        ]),
      },
      {
        events: openAiEvents([
          { toolCall: { id: 'call_0', name: 'run_command', args: JSON.stringify({ command }) } },
        ]),
      },
      OVERFLOW,
      { events: openAiEvents([{ text: 'done' }]) },
    );
    const run = await runCli(['chat', 'read it', '--json', '--approve', 'allow', '--workspace', cwd], {
      home,
      cwd,
    });
    expect(run.stderr).not.toContain('maximum context length is 8192');
    expect(run.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    expect(qsSent(2)).toBe(300_000);
    const fitted = qsSent(3);
    expect(fitted).toBeGreaterThan(100_000);
    expect(fitted).toBeLessThan(160_000);
    expect(JSON.stringify(server.requests[3]?.body)).toContain(
      "left out of this request to fit the model's context",
    );
    // Said to the person, with the server's reason.
    expect(run.stdout).toContain('older tool outputs are left out of requests');
    // The chat's history keeps the output whole: only the request left part of it out.
    const db = new Database(path.join(home, 'desktop', 'agenvoy.db'), { readonly: true });
    try {
      const rows = db.prepare("SELECT content FROM messages WHERE role = 'tool_results'").all() as Array<{
        content: string;
      }>;
      expect(rows.some((row) => outputQs(row.content) === 300_000)).toBe(true);
    } finally {
      db.close();
    }
  }, 60_000);
});
