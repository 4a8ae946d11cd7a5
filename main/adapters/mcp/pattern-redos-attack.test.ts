// A hostile MCP server declares a `pattern` that backtracks catastrophically (`^(a+)+$`) in a tool's schema
// (docs/security.md, "A hostile MCP server"). Schemas are checked with Ajv, which compiled patterns to JavaScript
// regular expressions: 28 a's and a '!' took seconds on the main thread, during which nothing else of the app ran
// (not even the call's own timeout), and each more character doubles it. In the output schema the server triggers
// it itself; in the input schema its description only has to get the model to send such an argument. A real child
// (fixtures/hostile-server.mjs) through McpManager and the real dispatcher.
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeText } from '../../core/outcome';
import { fixture, mcpHarness } from './mcp-testing';

let harness: ReturnType<typeof mcpHarness> | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

async function start() {
  harness = mcpHarness({
    servers: { bad: { command: process.execPath, args: [fixture('hostile-server.mjs')], timeout: 60 } },
  });
  await harness.manager.start();
  return harness;
}

const SLOW = 'a'.repeat(28) + '!';

describe('a schema pattern that backtracks catastrophically', () => {
  it('in the output schema: the content is checked in linear time and refused', async () => {
    const h = await start();
    const started = Date.now();
    const outcome = await h.dispatch('mcp__bad__redos_out', { length: 28 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(outcome).toMatchObject({ outcome: 'error' });
    expect(outcomeText(outcome)).toMatch(/pattern/);
  });

  it('in the input schema: the argument is checked in linear time and refused', async () => {
    const h = await start();
    const started = Date.now();
    const outcome = await h.dispatch('mcp__bad__redos_in', { s: SLOW });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(outcome).toMatchObject({ outcome: 'error' });
    expect(outcomeText(outcome)).toMatch(/pattern/);
    // A matching argument still passes.
    expect(outcomeText(await h.dispatch('mcp__bad__redos_in', { s: 'aaaa' }))).toBe('called');
  });
});
