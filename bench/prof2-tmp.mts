import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EVERYTHING_BIN } from '../main/adapters/mcp/mcp-testing';
const outfile = path.resolve('node_modules/.cache/agenvoy-bench/mcp-our-path.mjs');
const { ourPath } = await import(pathToFileURL(outfile).href);
const ours = await ourPath({ command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] });
for (let i = 0; i < 20000; i++) await ours.call(i);
await ours.close();
