// `agenvoy mcp serve` driven by the MCP SDK's own client over stdio, as an external agent would use it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { TOOL_GENERATE_GUIDE } from '../../tools/builtin/guides/tool-generate-guide';
import { manifest, TEST_DESCRIPTION, writeToolFolder } from '../adapters/script/script-testing';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/agenvoy');
const ECHO_JS =
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const a=JSON.parse(s);process.stdout.write("got "+a.text)});';
const TEXT_PARAMS = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to send back unchanged. Example: "hi"' } },
  required: ['text'],
};

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
});

async function serve(
  approve: 'ask' | 'deny' = 'ask',
): Promise<{ client: Client; home: string; scripts: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-serve-'));
  const scripts = path.join(home, 'tools', 'script');
  writeToolFolder(scripts, 'echo_args', {
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
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(transport, { timeout: 20_000 });
  return { client, home, scripts };
}

function text(result: unknown): string {
  return (result as CallToolResult).content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

describe('agenvoy mcp serve', () => {
  it('lists the script tools and the helpers, calls a script tool, and serves the guide', async () => {
    const { client } = await serve();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'create_script_tool',
      'list_script_tools',
      'patch_script_tool',
      'script_echo_args',
      'test_script_tool',
      'tool_generate_guide',
    ]);
    const echo = tools.find((tool) => tool.name === 'script_echo_args');
    expect(echo).toMatchObject({
      description: TEST_DESCRIPTION,
      inputSchema: TEXT_PARAMS,
      annotations: { readOnlyHint: false },
    });

    const called = await client.callTool({ name: 'script_echo_args', arguments: { text: 'hello' } });
    expect(called.isError).toBeFalsy();
    expect(text(called)).toBe('got hello');
    const invalid = await client.callTool({ name: 'script_echo_args', arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^error \[invalid_arguments\]: /);
    expect(text(await client.callTool({ name: 'tool_generate_guide', arguments: {} }))).toBe(
      TOOL_GENERATE_GUIDE,
    );
  });

  it('sends tools/list_changed when a tool folder is added', async () => {
    const { client, scripts } = await serve();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    writeToolFolder(scripts, 'second_tool', {
      manifest: manifest('second_tool'),
      js: 'process.stdout.write("two")',
    });
    const until = Date.now() + 10_000;
    while (changed === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changed).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('script_second_tool');
    expect(text(await client.callTool({ name: 'script_second_tool', arguments: {} }))).toBe('two');
  });

  it('creates, lints, patches, test-runs and lists a script tool for the client', async () => {
    const { client, scripts } = await serve();
    const created = JSON.parse(
      text(
        await client.callTool({
          name: 'create_script_tool',
          arguments: {
            name: 'shout_text',
            description: 'Shout.',
            parameters: TEXT_PARAMS,
            script: ECHO_JS.replace('"got "+a.text', 'a.text.toUpperCase()'),
          },
        }),
      ),
    ) as { tool: string; loaded: boolean; lint: Array<{ code: string }>; dir: string };
    expect(created).toMatchObject({
      tool: 'script_shout_text',
      loaded: true,
      dir: path.join(scripts, 'shout_text'),
    });
    expect(created.lint.map((finding) => finding.code)).toContain('R2_LINE_COUNT');
    expect(fs.existsSync(path.join(scripts, 'shout_text', 'script.js'))).toBe(true);

    const patched = JSON.parse(
      text(
        await client.callTool({
          name: 'patch_script_tool',
          arguments: { name: 'shout_text', description: TEST_DESCRIPTION },
        }),
      ),
    ) as { loaded: boolean; lint: Array<{ level: string }> };
    expect(patched.loaded).toBe(true);
    expect(patched.lint.filter((finding) => finding.level === 'error')).toEqual([]);

    const run = JSON.parse(
      text(
        await client.callTool({
          name: 'test_script_tool',
          arguments: { name: 'shout_text', args: { text: 'hey' } },
        }),
      ),
    );
    expect(run).toMatchObject({ tool: 'script_shout_text', outcome: 'ok', text: 'HEY' });

    const listed = JSON.parse(text(await client.callTool({ name: 'list_script_tools', arguments: {} }))) as {
      tools: Array<{ tool: string }>;
    };
    expect(listed.tools.map((tool) => tool.tool)).toEqual(['script_echo_args', 'script_shout_text']);
  });

  it('with --approve deny runs only alwaysAllow tools', async () => {
    const { client } = await serve('deny');
    const denied = await client.callTool({ name: 'script_echo_args', arguments: { text: 'x' } });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toBe('denied: denied: this host runs without approvals (--approve deny)');
    expect(text(await client.callTool({ name: 'tool_generate_guide', arguments: {} }))).toBe(
      TOOL_GENERATE_GUIDE,
    );
  });
});
