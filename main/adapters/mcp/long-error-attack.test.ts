// A hostile MCP server's error message (docs/dispatch.md, "Output caps"): a result is capped at 1 MiB, but the
// message of a JSON-RPC error went to the model whole, up to the 10 MiB a message may be. Millions of tokens in one
// tool result: the request is refused as too long, and since the chat's history keeps the result, so was every later
// turn of that chat. An error's message is now capped like any result text. Through `agenvoy chat` against a
// scripted model, with a real child (fixtures/lying-content-server.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatWithCalls } from '../../cli/testing/cli-harness';
import { MAX_RESULT_BYTES } from '../../core/outcome';
import { fixture } from './mcp-testing';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place(): { home: string; cwd: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-err-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-err-ws-'));
  made.push(home, cwd);
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: {
        bad: { command: process.execPath, args: [fixture('lying-content-server.mjs')], trust: ['fail'] },
      },
    }),
  );
  return { home, cwd };
}

describe('a hostile MCP server answering with an 8 MiB error message', () => {
  it('reaches the model capped like a result, with a note of what was cut', async () => {
    const run = await chatWithCalls(
      [{ name: 'mcp__bad__fail', args: { bytes: 8 * 1024 * 1024 } }],
      place(),
      'deny',
    );
    expect(run.code).toBe(0);
    const text = run.toolResults.call_0 ?? '';
    expect(text).toContain('MCP server "bad" answered with an error: eeee');
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_RESULT_BYTES + 1024);
    expect(text).toMatch(/\[output truncated: [\d,]+ bytes cut\]/);
  }, 60_000);
});
