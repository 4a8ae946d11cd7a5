// `agenvoy mcp serve` and sensitive targets, through the MCP SDK's own client over stdio: an ordinary call runs on
// the client's approval, a sensitive one is asked again through elicitation (allowed, declined, dismissed) and is
// denied, saying why, when the client cannot ask its user.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { manifest, writeToolFolder } from '../adapters/script/script-testing';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/agenvoy');
const ECHO_JS =
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const a=JSON.parse(s);process.stdout.write("got "+a.text)});';
const TEXT_PARAMS = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to send back unchanged. Example: "hi"' } },
  required: ['text'],
};
const SENSITIVE = '~/.ssh/id_rsa';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
});

/** A served home with one script tool; `answer` makes the client support elicitation and answer with it. */
async function serve(
  approve: 'ask' | 'deny',
  answer?: (request: ElicitRequest) => ElicitResult,
): Promise<{ client: Client; questions: ElicitRequest[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-serve-sensitive-'));
  writeToolFolder(path.join(home, 'tools', 'script'), 'echo_args', {
    manifest: manifest('echo_args', { parameters: TEXT_PARAMS }),
    js: ECHO_JS,
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', 'serve', '--approve', approve],
    env: { PATH: process.env.PATH ?? '', HOME: home, AGENVOY_HOME: home },
    // A project folder of its own, as a client starts it: not the home folder, not inside $AGENVOY_HOME.
    cwd: fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-serve-ws-')),
    stderr: 'pipe',
  });
  const client = new Client(
    { name: 'sensitive-test', version: '1.0.0' },
    answer ? { capabilities: { elicitation: {} } } : {},
  );
  const questions: ElicitRequest[] = [];
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request);
      return answer(request);
    });
  clients.push(client);
  await client.connect(transport, { timeout: 20_000 });
  return { client, questions };
}

async function echo(client: Client, text: string): Promise<{ error: boolean; text: string }> {
  const result = (await client.callTool({ name: 'script_echo_args', arguments: { text } })) as CallToolResult;
  return {
    error: result.isError === true,
    text: result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'),
  };
}

describe('agenvoy mcp serve: sensitive targets ask through the client', () => {
  it('without elicitation: ordinary calls run, a sensitive one is denied and says why', async () => {
    const { client } = await serve('ask');
    expect(await echo(client, 'hello')).toEqual({ error: false, text: 'got hello' });
    const denied = await echo(client, SENSITIVE);
    expect(denied.error).toBe(true);
    expect(denied.text).toMatch(/^denied: /);
    expect(denied.text).toContain('script_echo_args needs a person');
    expect(denied.text).toContain('.ssh');
    expect(denied.text).toContain('cannot ask its user (it does not support elicitation)');
  }, 60_000);

  it('with elicitation: the client is asked about the sensitive call only, and its answer decides', async () => {
    let reply: ElicitResult = { action: 'accept', content: { decision: 'allow' } };
    const { client, questions } = await serve('ask', () => reply);
    expect(await echo(client, 'hello')).toEqual({ error: false, text: 'got hello' });
    expect(questions).toHaveLength(0);

    expect(await echo(client, SENSITIVE)).toEqual({ error: false, text: `got ${SENSITIVE}` });
    expect(questions).toHaveLength(1);
    const params = questions[0]?.params as { message: string; requestedSchema: unknown };
    expect(params.message).toContain('allow script_echo_args once?');
    expect(params.message).toContain('.ssh');
    expect(params.message).toContain(SENSITIVE);
    expect(params.requestedSchema).toMatchObject({ properties: { decision: { enum: ['allow', 'deny'] } } });

    reply = { action: 'accept', content: { decision: 'deny' } };
    expect(await echo(client, SENSITIVE)).toEqual({
      error: true,
      text: 'denied: denied by the user: denied in the MCP client',
    });
    reply = { action: 'decline' };
    expect((await echo(client, SENSITIVE)).text).toContain('declined in the MCP client');
    reply = { action: 'cancel' };
    expect((await echo(client, SENSITIVE)).text).toContain('dismissed');
    expect(questions).toHaveLength(4);
  }, 60_000);

  it('with --approve deny nothing is asked and the sensitive call is denied', async () => {
    const { client, questions } = await serve('deny', () => ({
      action: 'accept',
      content: { decision: 'allow' },
    }));
    const denied = await echo(client, SENSITIVE);
    expect(denied.error).toBe(true);
    expect(questions).toHaveLength(0);
  }, 60_000);
});
