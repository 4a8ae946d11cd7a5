// A hostile MCP server's content types (docs/security.md, "A hostile MCP server"): the byte caps of a result count
// an image's data, not its type, which the SDK takes at any length. An image the request leaves out is named by its
// type, and the chat's history keeps it: five empty images typed 1.5 MB long each, behind twenty real ones, put 7.5
// MB of "left out" lines in every later request of the chat, which the model refuses as too long. A part's type
// is now at most 255 characters; a longer one is not kept. Through `agenvoy chat` against a scripted model, with a
// real child (fixtures/lying-content-server.mjs).
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
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-type-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-type-ws-'));
  made.push(home, cwd);
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: {
        pics: { command: process.execPath, args: [fixture('lying-content-server.mjs')], trust: ['picture'] },
      },
    }),
  );
  return { home, cwd };
}

describe('images typed megabytes long in a hostile MCP server result', () => {
  it('add no more than their note to the request; the real images still go', async () => {
    const run = await chatWithCalls(
      [{ name: 'mcp__pics__picture', args: { kind: 'long_type' } }],
      place(),
      'deny',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const body = JSON.stringify(run.server.requests.at(-1)?.body ?? {});
    expect(body.length).toBeLessThan(256 * 1024);
    expect(body.match(/data:image\/png;base64,/g)).toHaveLength(20);
    expect(run.toolResults.call_0).toContain('type is 1,500,010 characters long');
  }, 60_000);
});
