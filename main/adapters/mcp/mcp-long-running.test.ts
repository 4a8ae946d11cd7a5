// The one slow test (~70 s): a call with progress runs past the SDK's own 60 s default and succeeds, because
// every request gets the dispatch budget instead (docs/dispatch.md, "MCP requests"). Its short counterpart, a call cut at its limit, is in
// mcp-stdio.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../core/dispatcher';
import { everythingStdio, mcpHarness } from './mcp-testing';

let harness: ReturnType<typeof mcpHarness> | null = null;
afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

describe('a long MCP call', () => {
  it('runs past 60 s with progress and succeeds within its limit', { timeout: 120_000 }, async () => {
    harness = mcpHarness({ servers: { ev: everythingStdio({ timeout: 100 }) } });
    const h = harness;
    await h.manager.start();
    const progress: Array<Extract<CallEvent, { type: 'call.progress' }>> = [];
    h.core.dispatcher.on((event) => {
      if (event.type === 'call.progress') progress.push(event);
    });
    const outcome = await h.dispatch('mcp__ev__trigger-long-running-operation', { duration: 66, steps: 11 });
    expect(outcome).toMatchObject({
      outcome: 'ok',
      text: 'Long running operation completed. Duration: 66 seconds, Steps: 11.',
    });
    expect(outcome.outcome === 'ok' && outcome.durationMs).toBeGreaterThan(65_000);
    // Every step reached the UI as a progress event, with elapsed time for the elapsed/limit display.
    // The last step's notification can race the result and be dropped by the SDK, so 10 or 11 arrive.
    const steps = progress.map((event) => event.update.progress);
    expect(steps.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(steps.length).toBeLessThanOrEqual(11);
    expect(progress.at(-1)?.update.total).toBe(11);
    expect(progress.at(-1)?.elapsedMs).toBeGreaterThan(60_000);
  });
});
