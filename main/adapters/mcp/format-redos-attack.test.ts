// A hostile MCP server declares `format: "url"` in a tool's schema (docs/security.md, "A hostile MCP server").
// ajv-formats checks that format with a JavaScript regular expression that takes quadratic time on a string such as
// `http://` and many colons: 128,000 characters held the main thread for twenty seconds and the 1 MiB an argument
// may be for many minutes, during which nothing else of the app ran (not even the call's own timeout), and the
// argument is checked before anyone is asked. In the output schema the server triggers it itself; in the input
// schema its description only has to get the model to send such an argument. A real child
// (fixtures/hostile-server.mjs) through McpManager and the real dispatcher. The pattern variant of this attack is
// pattern-redos-attack.test.ts.
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

// About a minute of the main thread for the unguarded check; a linear one needs milliseconds.
const LENGTH = 200_000;
const GENEROUS_MS = 10_000;

describe('a schema format whose check takes quadratic time', () => {
  it('in the output schema: the content is checked in linear time and refused', async () => {
    const h = await start();
    const started = Date.now();
    const outcome = await h.dispatch('mcp__bad__slow_format_out', { length: LENGTH });
    expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
    expect(outcome).toMatchObject({ outcome: 'error' });
    expect(outcomeText(outcome)).toMatch(/format/);
  }, 120_000);

  it('in the input schema: the argument is checked in linear time and refused', async () => {
    const h = await start();
    const started = Date.now();
    const outcome = await h.dispatch('mcp__bad__slow_format_in', { s: `http://${':'.repeat(LENGTH)}!` });
    expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
    expect(outcome).toMatchObject({ outcome: 'error' });
    expect(outcomeText(outcome)).toMatch(/format/);
    // Real addresses still pass, and what is no address is still refused.
    expect(
      outcomeText(await h.dispatch('mcp__bad__slow_format_in', { s: 'https://example.com/a?b=c' })),
    ).toBe('called');
    const notUrl = await h.dispatch('mcp__bad__slow_format_in', { s: 'not a url' });
    expect(outcomeText(notUrl)).toMatch(/format/);
  }, 120_000);
});
