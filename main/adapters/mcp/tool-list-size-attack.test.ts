// A hostile MCP server lists tools whose definitions are each within the limits (a schema under 512 KiB) but huge
// together (docs/robustness.md, "Limits on untrusted structures"): 2,000 tools of 512 KiB is a gigabyte held, parsed,
// compiled and indexed when the server connects, page by page within the 10 MiB message limit. The definitions of one
// server are bounded together. A real child (fixtures/hostile-server.mjs) through McpManager.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LISTING_BYTES } from './list-tools';
import { fixture, mcpHarness } from './mcp-testing';

let harness: ReturnType<typeof mcpHarness> | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

const BIG = 300_000;

describe('a server lists many tools of large schemas', () => {
  it('registers them up to the bound of one server, and says what it left out', async () => {
    harness = mcpHarness({
      servers: {
        bad: {
          command: process.execPath,
          args: [fixture('hostile-server.mjs')],
          env: { HOSTILE_BIG_TOOLS: '200', HOSTILE_BIG_BYTES: String(BIG) },
          connectTimeout: 60,
        },
      },
    });
    const h = harness;
    await h.manager.start();
    expect(h.state('bad')).toMatchObject({ status: 'ready' });
    const view = h.manager.states().find((entry) => entry.name === 'bad');
    const big = (view?.tools ?? []).filter((name) => name.startsWith('mcp__bad__big_'));
    // 200 tools of 300 kB is 60 MB: only what fits in the bound is registered, the first ones, in order.
    expect(big.length).toBeGreaterThan(0);
    expect(big.length * BIG).toBeLessThanOrEqual(MAX_LISTING_BYTES);
    expect(view?.warnings.join('\n')).toMatch(/tool definitions are more than 16 MiB together/);
    // The small tools listed first still work.
    expect(view?.tools).toContain('mcp__bad__echo');
  }, 120_000);
});
