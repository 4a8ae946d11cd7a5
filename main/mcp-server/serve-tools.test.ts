// serveTools in-process over a linked in-memory transport: exposure, progress, cancellation, list_changed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/sdk/types';
import { testCore } from '../core/testing/test-core';
import { serveTools } from './mcp-serve';

const params = { type: 'object', properties: {} };
const slow = defineTool({
  name: 'slow_steps',
  description: 'Count to three slowly, reporting progress.\nUse when testing progress.',
  parameters: params,
  handler: async (_args, ctx) => {
    for (let step = 1; step <= 3; step++) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (ctx.signal.aborted) throw ctx.signal.reason;
      ctx.progress({ progress: step, total: 3, message: `step ${step}` });
    }
    return 'counted';
  },
});
const hidden = defineTool({
  name: 'hidden_tool',
  description: 'Not served.\nUse never.',
  parameters: params,
  handler: () => 'x',
});

// A tool whose schema nests past the limit: registered as broken (step limits), never offered.
let deep: Record<string, unknown> = { type: 'string' };
for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { d: deep } };
const broken = defineTool({
  name: 'deep_tool',
  description: 'Nest deeply.\nUse when testing broken tools.',
  parameters: { type: 'object', properties: { root: deep } },
  handler: () => 'never',
});

async function connect() {
  const core = testCore([slow, hidden, broken]);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = await serveTools(
    { ...core, workspace: core.dir },
    serverSide,
    (tool) => tool.spec.name !== 'hidden_tool',
  );
  const client = new Client({ name: 'in-memory', version: '1.0.0' });
  await client.connect(clientSide);
  return { core, client, served };
}

describe('serveTools', () => {
  it('offers only the exposed tools and refuses the others by name', async () => {
    const { client, served } = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['slow_steps']);
    const refused = (await client.callTool({ name: 'hidden_tool', arguments: {} })) as CallToolResult;
    expect(refused).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: 'unknown tool "hidden_tool": tools/list shows what this server offers' },
      ],
    });
    await served.close();
  });

  it('a broken tool is not offered, and a call to it says it is broken and why', async () => {
    const { client, served } = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('deep_tool');
    const refused = (await client.callTool({ name: 'deep_tool', arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(
      /tool \\"deep_tool\\" is broken and cannot be called \(step limits: /,
    );
    await served.close();
  });

  it('forwards progress to the client and cancels the call when the client cancels', async () => {
    const { client, core, served } = await connect();
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const done = await client.callTool({ name: 'slow_steps', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'counted' }] });
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);

    const finished: string[] = [];
    core.dispatcher.on((event) => {
      if (event.type === 'call.finished') finished.push(event.outcome.outcome);
    });
    const controller = new AbortController();
    const pending = client.callTool({ name: 'slow_steps', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort('changed my mind'), 200);
    await expect(pending).rejects.toThrow();
    // notifications/cancelled aborted the dispatcher's call on our side.
    await expect.poll(() => finished).toEqual(['cancelled']);
    await served.close();
  });

  it('sends one tools/list_changed for a burst of registry changes', async () => {
    const { client, core, served } = await connect();
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    core.registry.register(defineTool({ ...slow, name: 'second_tool' }));
    core.registry.register(defineTool({ ...slow, name: 'third_tool' }));
    await expect.poll(() => changed).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'second_tool',
      'slow_steps',
      'third_tool',
    ]);
    await served.close();
  });
});
