// A stdio MCP server that leaves a helper behind (docs/dispatch.md, "Process-tree kill"): its tool starts a helper in a
// session of its own (setsid), out of the server's process group, which a group kill misses. Through McpManager, a
// real child (fixtures/stubborn-server.mjs): when the server is stopped (quit) or restarted after an ignored cancel,
// the helper must die with it, or it works on unseen after the app is gone.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeText } from '../../core/outcome';
import { fixture, mcpHarness, waitFor } from './mcp-testing';
import { processAlive } from '../../process/testing/process-alive';

type Harness = ReturnType<typeof mcpHarness>;
let harness: Harness | null = null;
const helpers: number[] = [];

afterEach(async () => {
  for (const pid of helpers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  await harness?.dispose();
  harness = null;
});

async function startHelper(): Promise<{ h: Harness; helper: number }> {
  harness = mcpHarness({
    servers: { stub: { command: process.execPath, args: [fixture('stubborn-server.mjs')] } },
  });
  const h = harness;
  await h.manager.start();
  const file = path.join(h.home, 'helper.log');
  const outcome = await h.dispatch('mcp__stub__escape', { file });
  const helper = Number(outcomeText(outcome));
  helpers.push(helper);
  await waitFor(() => fs.existsSync(file));
  expect(processAlive(helper)).toBe(true);
  return { h, helper };
}

describe.skipIf(process.platform !== 'linux')('a server whose helper left its process group', () => {
  it('the helper dies when the app stops the server (quit)', async () => {
    const { h, helper } = await startHelper();
    await h.manager.stop();
    await waitFor(() => !processAlive(helper), 3000);
  });

  it('the helper dies when the server exits by itself', async () => {
    const { h, helper } = await startHelper();
    const pid = h.manager.pid('stub') as number;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !processAlive(helper), 3000);
    // The server itself comes back.
    await waitFor(() => h.state('stub')?.status === 'ready' && h.manager.pid('stub') !== pid, 5000);
  });
});
