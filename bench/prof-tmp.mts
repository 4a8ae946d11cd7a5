import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EVERYTHING_BIN } from '../main/adapters/mcp/mcp-testing';
const outfile = path.resolve('node_modules/.cache/agenvoy-bench/mcp-our-path.mjs');
await build({ entryPoints: ['bench/mcp-our-path.ts'], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'warning' });
const { ourPath } = await import(pathToFileURL(outfile).href);
const server = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
const ours = await ourPath(server);
const client = new Client({ name: 'raw', version: '1' });
await client.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
const raw = (i: number) => client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
async function cpu(label: string, f: (i: number) => Promise<unknown>, n: number) {
  for (let i = 0; i < 500; i++) await f(i);
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < n; i++) await f(i);
  const c = process.cpuUsage(c0); const t = performance.now() - t0;
  console.log(label, 'cpu µs/call', ((c.user + c.system) / n).toFixed(1), 'wall µs/call', ((t * 1000) / n).toFixed(1));
}
for (let r = 0; r < 3; r++) {
  await cpu('ours', ours.call, 3000);
  await cpu('same', ours.sameSession, 3000);
  await cpu('raw ', raw, 3000);
}
await ours.close(); await client.close();
