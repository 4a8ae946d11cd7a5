// A server that announces tools/list_changed while the app is still taking its first list in (a real stdio child
// that changes at once after answering): the announcement used to be dropped, since no session was live yet, and the
// app kept the stale list until the next announcement. Now it is listed again once the session is live.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, mcpHarness } from './mcp-testing';

const open: Array<ReturnType<typeof mcpHarness>> = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.dispose();
});

describe('tools/list_changed during connect', () => {
  it('is not lost: the second list is registered every time', async () => {
    for (let run = 0; run < 6; run++) {
      const h = mcpHarness({
        servers: { flip: { command: process.execPath, args: [fixture('flip-after-list-server.mjs')] } },
      });
      open.push(h);
      await h.manager.start();
      await expect
        .poll(() => h.core.registry.get('mcp__flip__echo_text')?.spec.description, { timeout: 10_000 })
        .toBe('Echo v2.');
      await h.dispose();
      open.pop();
    }
  }, 120_000);
});
