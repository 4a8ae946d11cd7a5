import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EVERYTHING_BIN, mcpHarness } from '../main/adapters/mcp/mcp-testing';
import { GroupStdioTransport } from '../main/adapters/mcp/group-stdio-transport';
import { callOptions } from '../main/adapters/mcp/request-options';
import { defineTool } from '../tools/types';

const server = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
const raw = new Client({ name: 'a', version: '1' });
await raw.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
const ourT = new Client({ name: 'b', version: '1' });
await ourT.connect(new GroupStdioTransport({ ...server, env: { PATH: process.env.PATH! } }));
const h = mcpHarness({ servers: { ev: { ...server, trust: true } } });
await h.manager.start();
h.core.registry.register(
  defineTool({
    name: 'noop_tool',
    description: 'x',
    parameters: { type: 'object', properties: { message: { type: 'string' } } },
    flags: { alwaysAllow: true },
    handler: () => 'x',
  }),
);
const tool = h.core.registry.get('mcp__ev__echo')!.spec;
const ctx = {
  signal: new AbortController().signal,
  progress: () => {},
  deadline: Date.now() + 900000,
} as any;
const rawPipe = new Client({ name: 'c', version: '1' });
await rawPipe.connect(new StdioClientTransport({ ...server, stderr: 'pipe' }));
const variants: Record<string, (i: number) => Promise<unknown>> = {
  'raw sdk stderr pipe': (i) => rawPipe.callTool({ name: 'echo', arguments: { message: 'm' + i } }),
  'raw sdk + onprogress': (i) =>
    raw.callTool({ name: 'echo', arguments: { message: 'm' + i } }, undefined, { onprogress: () => {} }),
  'raw sdk transport': (i) => raw.callTool({ name: 'echo', arguments: { message: 'm' + i } }),
  'raw our transport': (i) => ourT.callTool({ name: 'echo', arguments: { message: 'm' + i } }),
  'raw sdk + signal+timeout': (i) =>
    raw.callTool({ name: 'echo', arguments: { message: 'm' + i } }, undefined, {
      signal: new AbortController().signal,
      timeout: 900000,
    }),
  'raw sdk + our options': (i) =>
    raw.callTool(
      { name: 'echo', arguments: { message: 'm' + i } },
      undefined,
      callOptions({ ...ctx, signal: new AbortController().signal }),
    ),
  'handler direct': (i) =>
    tool.handler({ message: 'm' + i }, { ...ctx, signal: new AbortController().signal }) as Promise<unknown>,
  dispatch: (i) => h.dispatch('mcp__ev__echo', { message: 'm' + i }),
  'dispatch noop': (i) => h.dispatch('noop_tool', { message: 'm' + i }),
};
const res: Record<string, number[]> = {};
for (const k of Object.keys(variants)) {
  res[k] = [];
  for (let i = 0; i < 300; i++) await variants[k]!(i);
}
for (let r = 0; r < 20; r++)
  for (const [k, f] of Object.entries(variants))
    for (let i = 0; i < 100; i++) {
      const s = process.hrtime.bigint();
      await f(i);
      res[k]!.push(Number(process.hrtime.bigint() - s) / 1e3);
    }
for (const [k, xs] of Object.entries(res)) {
  xs.sort((a, b) => a - b);
  console.log(k.padEnd(28), 'median µs', xs[xs.length >> 1]!.toFixed(1));
}
await raw.close();
await ourT.close();
await h.close();
