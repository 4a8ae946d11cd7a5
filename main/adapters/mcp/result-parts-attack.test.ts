// A hostile MCP server's result of many small parts (docs/dispatch.md, "Output caps"): the caps count the bytes parts
// hold, not how many there are, so 150,000 empty images (7 MB of JSON, within the 10 MiB a message may be and the
// 1 MiB of a result) were all kept. Each one became a line in the request, saying it was not shown or was left out:
// 14 MB of them, millions of tokens, in that request and, since the chat's history keeps the result, in every later
// one, which the model refuses as too long. A result now holds at most 1,000 parts, the rest cut with one note.
// Through `agenvoy chat` against a scripted model, with a real child (fixtures/lying-content-server.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatWithCalls } from '../../cli/testing/cli-harness';
import { fixture } from './mcp-testing';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place(): { home: string; cwd: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-parts-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-parts-ws-'));
  made.push(home, cwd);
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: {
        bad: { command: process.execPath, args: [fixture('lying-content-server.mjs')], trust: ['parts'] },
      },
    }),
  );
  return { home, cwd };
}

describe('a hostile MCP server answering with 150,000 empty images', () => {
  it('adds a bounded request, and the model reads how many parts were cut', async () => {
    const run = await chatWithCalls([{ name: 'mcp__bad__parts', args: { count: 150_000 } }], place(), 'deny');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const body = JSON.stringify(run.server.requests.at(-1)?.body ?? {});
    expect(body.length).toBeLessThan(256 * 1024);
    expect(run.toolResults.call_0).toContain(
      '[output truncated: 149,001 more parts cut; a result holds at most 1,000]',
    );
  }, 120_000);
});
