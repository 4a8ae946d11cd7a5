// A hostile MCP server declares tool schemas that are small as text but costly for Ajv, which checks arguments and
// structured results on the main thread (docs/security.md, "A hostile MCP server"): while it works nothing else of
// the app runs, not even the call's own timeout. Seen before the bounds (schema-cost.ts, linear-unique.ts):
// `uniqueItems` over 100,000 one-element arrays, compared pair by pair, held the thread for about a minute; a 22-link
// chain of `anyOf: [{$ref: next}, {$ref: next}]` took 15 s to check one number; a recursion reached by two branches
// for the same value took 13 s for a value nested 20 deep; 3,000 `patternProperties` on 30,000 keys a minute;
// 1,200 subschemas on each of 200,000 items 35 s.
// A real child (fixtures/costly-schema-server.mjs) through McpManager and the real dispatcher.
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeText } from '../../core/outcome';
import { MAX_LISTING_WORK } from './list-tools';
import { fixture, mcpHarness } from './mcp-testing';

let harness: ReturnType<typeof mcpHarness> | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

async function start(env: Record<string, string> = {}) {
  harness = mcpHarness({
    servers: {
      bad: {
        command: process.execPath,
        args: [fixture('costly-schema-server.mjs')],
        env,
        timeout: 60,
        connectTimeout: 120,
      },
    },
  });
  await harness.manager.start();
  return harness;
}

const GENEROUS_MS = 5_000;
const MANY = 100_000;

describe('tool schemas that are cheap to send and costly to check', () => {
  it('uniqueItems over many items, in the output schema: checked in linear time', async () => {
    const h = await start();
    const started = Date.now();
    const outcome = await h.dispatch('mcp__bad__unique_out', { count: MANY });
    expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
    expect(outcome).toMatchObject({ outcome: 'ok' });
  }, 120_000);

  it('uniqueItems over many items, in the input schema: checked in linear time, duplicates still refused', async () => {
    const h = await start();
    const a = Array.from({ length: MANY }, (_, i) => [i]);
    const started = Date.now();
    expect(outcomeText(await h.dispatch('mcp__bad__unique_in', { a }))).toBe('called');
    expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
    const twice = await h.dispatch('mcp__bad__unique_in', { a: [{ k: 1, j: [2] }, 3, { j: [2], k: 1 }] });
    expect(outcomeText(twice)).toMatch(/duplicate items/);
  }, 120_000);

  it('a doubling $ref chain, a doubling recursion, thousands of patterns: refused at once, naming the limit', async () => {
    const h = await start();
    for (const [name, reason] of [
      ['ref_chain_in', /expands to more than 2500 subschemas/],
      ['recursive_in', /recursive \$ref .* reached twice for the same value/],
      ['patterns_in', /3000 patterns; the limit is 16/],
      ['per_item_in', /more than 64 subschemas apply to each value at \.a\[\*\]/],
    ] as const) {
      const started = Date.now();
      const outcome = await h.dispatch(`mcp__bad__${name}`, {
        x: 1,
        a: Array.from({ length: 200_000 }, () => 0),
      });
      expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
      expect(outcome).toMatchObject({ outcome: 'error' });
      expect(outcomeText(outcome)).toMatch(/the schema costs too much to check/);
      expect(outcomeText(outcome)).toMatch(reason);
    }
    // The chain in an output schema fails that tool's calls with the reason, quickly.
    const started = Date.now();
    const outcome = await h.dispatch('mcp__bad__ref_chain_out', {});
    expect(Date.now() - started).toBeLessThan(GENEROUS_MS);
    expect(outcome).toMatchObject({ outcome: 'error' });
    expect(outcomeText(outcome)).toMatch(/expands to more than 2500 subschemas/);
    // The server's good tool still works.
    expect(outcomeText(await h.dispatch('mcp__bad__echo', { text: 'hi' }))).toBe('hi');
  }, 120_000);

  it('many tools each within the limits, costly to compile together: bounded per server, with a warning', async () => {
    const started = Date.now();
    const h = await start({ COSTLY_WIDE_TOOLS: '100' });
    // Unbounded, 100 tools of 2,400 properties (input and output) were minutes of compiling at connect.
    expect(Date.now() - started).toBeLessThan(20_000);
    const view = h.manager.states().find((entry) => entry.name === 'bad');
    const wide = (view?.tools ?? []).filter((name) => name.startsWith('mcp__bad__wide_'));
    expect(wide.length).toBeGreaterThan(0);
    expect(wide.length * 2 * 2401).toBeLessThanOrEqual(MAX_LISTING_WORK);
    expect(view?.warnings.join('\n')).toMatch(/expand to more than 40000 subschemas together/);
    expect(outcomeText(await h.dispatch('mcp__bad__echo', { text: 'hi' }))).toBe('hi');
  }, 600_000);
});
