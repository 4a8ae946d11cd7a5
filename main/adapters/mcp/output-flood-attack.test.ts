// A hostile stdio MCP server floods its stderr, or its stdout with lines that are not JSON-RPC (docs/security.md, "A
// hostile MCP server"). Each such line became a line of the app log, written synchronously on the main thread: a
// server writing as fast as the pipe takes it stalled the app and filled the disk. A real child
// (fixtures/hostile-server.mjs) through McpManager and the real dispatcher.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeText } from '../../core/outcome';
import { fixture, mcpHarness, waitFor } from './mcp-testing';

let harness: ReturnType<typeof mcpHarness> | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

const LINES = 400_000;

// The hostile server started, and how many bytes the app log has grown by since.
async function hostile() {
  harness = mcpHarness({
    servers: { bad: { command: process.execPath, args: [fixture('hostile-server.mjs')], timeout: 60 } },
  });
  const h = harness;
  await h.manager.start();
  const logFile = path.join(h.core.dir, 'app.log');
  const size = () => (fs.existsSync(logFile) ? fs.statSync(logFile).size : 0);
  const before = size();
  return { h, logged: () => size() - before };
}

describe.each([
  ['stderr', false],
  ['stdout (lines that are not JSON-RPC)', true],
])('a server floods its %s', (_, stdout) => {
  it('the app log stays small and says how much was left out; the server still answers', async () => {
    const { h, logged } = await hostile();
    // 400,000 lines of 100 bytes: 40 MB through the pipe.
    const outcome = await h.dispatch('mcp__bad__flood_output', { lines: LINES, line_bytes: 100, stdout });
    expect(outcome).toMatchObject({ outcome: 'ok' });
    expect(outcomeText(await h.dispatch('mcp__bad__echo', { text: 'still here' }))).toBe('still here');
    const grown = logged();
    // Without a bound every line is a log line: ~60 MB. A bounded log keeps a burst and says what it left out.
    expect(grown).toBeLessThan(1024 * 1024);
    // What was left out is said (within a second of the flood).
    await waitFor(() => /lines? of the server's output .*not logged/.test(h.core.readLog()), 3000);
  });
});

describe('a server floods notifications the client cannot place (progress for an unknown token)', () => {
  it('each was logged whole, up to 10 MiB a line: now within the budget, clipped, and said', async () => {
    const { h, logged } = await hostile();
    // 20,000 notifications of 2 kB: 40 MB through the pipe.
    const outcome = await h.dispatch('mcp__bad__flood_progress', {
      count: 20_000,
      message_bytes: 2000,
      unknown_token: true,
    });
    expect(outcome).toMatchObject({ outcome: 'ok' });
    expect(logged()).toBeLessThan(1024 * 1024);
    await waitFor(() => /messages? of the server's output .*not logged/.test(h.core.readLog()), 3000);
  });
});

describe('a server answers the tools/list after its announcement with an error of megabytes', () => {
  it('the log line keeps 500 characters of it', async () => {
    const { h, logged } = await hostile();
    const outcome = await h.dispatch('mcp__bad__announce', { count: 1, list_error_bytes: 5_000_000 });
    expect(outcome).toMatchObject({ outcome: 'ok' });
    await waitFor(() => /tools\/list after list_changed failed/.test(h.core.readLog()), 5000);
    expect(logged()).toBeLessThan(64 * 1024);
    expect(h.core.readLog()).toMatch(/\[output truncated: \d+ characters cut\]/);
  });
});
