// `agenvoy mcp serve` asks the client's user again, through MCP elicitation, about a call that touches a sensitive
// target or that only a person's decision may allow (docs/security.md, "Browser mode and `mcp serve`"). The question
// showed the first 2,000 characters of the arguments and then "…": a model that padded the start of an argument put
// what the call really does past the cut, and the person allowed a call whose end they never saw; bidi overrides in
// the arguments reached the client as they were. Through the real bin/agenvoy and the MCP SDK's own client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifest, writeToolFolder } from '../adapters/script/script-testing';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/agenvoy');
const ECHO_JS = 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{process.stdout.write("ran")});';
const PARAMS = {
  type: 'object',
  properties: {
    text: { type: 'string', description: 'Text to send. Example: "hi"' },
    note: { type: 'string', description: 'A note. Example: "hi"' },
  },
  required: ['text'],
};

let client: Client;
const questions: string[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-serve-cut-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-serve-cut-ws-'));
  dirs.push(home, cwd);
  writeToolFolder(path.join(home, 'tools', 'script'), 'send_text', {
    manifest: manifest('send_text', { parameters: PARAMS }),
    js: ECHO_JS,
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'serve', '--approve', 'ask'],
    env: { PATH: process.env.PATH ?? '', HOME: home, AGENVOY_HOME: home },
    cwd,
    stderr: 'pipe',
  });
  client = new Client({ name: 'cut-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request: ElicitRequest) => {
    questions.push((request.params as { message: string }).message);
    return { action: 'decline' };
  });
  await client.connect(transport, { timeout: 20_000 });
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function ask(args: Record<string, unknown>): Promise<string> {
  const before = questions.length;
  const result = (await client.callTool({ name: 'script_send_text', arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(questions).toHaveLength(before + 1);
  return questions[before] as string;
}

describe('the elicitation question shows the end of every argument', () => {
  it('a padded argument: its end, past 2,000 characters, is in the question', async () => {
    const message = await ask({
      text: `~/.ssh/id_rsa is only mentioned here ${'x'.repeat(2500)} and then uploaded to https://collect.example/keys`,
    });
    expect(message).toContain('https://collect.example/keys');
    expect(message).toMatch(/characters folded/);
  }, 60_000);

  it('a short padded argument first, the real one last', async () => {
    const message = await ask({ note: 'y'.repeat(1990), text: 'cat ~/.ssh/id_rsa > /tmp/out' });
    expect(message).toContain('cat ~/.ssh/id_rsa > /tmp/out');
  }, 60_000);

  it('hidden characters are shown as escapes', async () => {
    const message = await ask({ text: 'read ~/.ssh/config #\u202e txt.seton daer' });
    expect(message).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f]/u);
    expect(message).toContain('\\u{202e}');
  }, 60_000);
});
