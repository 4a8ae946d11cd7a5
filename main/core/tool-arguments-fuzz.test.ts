// Property-based fuzzing of tool arguments (docs/robustness.md): random JSON, malformed text, oversized and
// schema-shaped arguments against the real built-in tools, through the real dispatcher. Every call ends in an
// outcome with a message; none crashes the dispatcher or a handler. Tools that would act are denied by the gate
// after validation; the read-only ones run (the web ones against a resolver that answers loopback, which is refused).
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../tools/sdk/types';
import type { Core } from '../app';
import { createCore } from '../app';
import { policyGate } from './gate-port';
import type { CallOutcome } from './outcome';

let core: Core;
let home: string;
let workspace: string;
let names: string[];
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-args-fuzz-'));
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-args-fuzz-ws-'));
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({ limits: { toolArgumentsBytes: 4096 } }),
  );
  core = await createCore({ home, workspace, gate: policyGate('deny'), sandbox: null, mcp: 'off' });
  names = core.registry.all().map((t) => t.spec.name);
});
afterAll(async () => {
  await core.close();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

// Every host name resolves to loopback, which the web tools refuse: no network, and no waiting on DNS.
const scope = () => ({
  chatId: 'fuzz',
  workspace,
  services: { web: { resolve: async () => [{ address: '127.0.0.1', family: 4 as const }] } },
});

const KINDS = ['ok', 'error', 'denied', 'timed_out', 'cancelled'];

function check(outcome: CallOutcome, tally: Record<string, number>): void {
  expect(KINDS).toContain(outcome.outcome);
  const key = outcome.outcome === 'error' ? `error:${outcome.code}` : outcome.outcome;
  tally[key] = (tally[key] ?? 0) + 1;
  if (outcome.outcome !== 'ok') expect(outcome.message.length).toBeGreaterThan(0);
  // tool_failed is a handler that threw something other than a ToolError: a bug, whatever the input.
  if (outcome.outcome === 'error') expect(outcome.code, outcome.message).not.toBe('tool_failed');
}

// Values shaped by a schema, with a share of wrong types, so many calls pass validation and reach the handler.
function shaped(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const s = (schema ?? {}) as JsonSchema & Record<string, unknown>;
  const wrong = fc.jsonValue({ maxDepth: 2 });
  if (depth > 4) return wrong;
  let right: fc.Arbitrary<unknown>;
  if (Array.isArray(s.enum) && s.enum.length > 0) right = fc.constantFrom(...(s.enum as unknown[]));
  else if (s.type === 'string')
    right = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', '.', '..', '/etc/passwd', 'http://x', 'a b'),
    );
  else if (s.type === 'integer') right = fc.integer({ min: -5, max: 100 });
  else if (s.type === 'number') right = fc.double();
  else if (s.type === 'boolean') right = fc.boolean();
  else if (s.type === 'array') right = fc.array(shaped(s.items, depth + 1), { maxLength: 4 });
  else if (s.type === 'object' || s.properties) {
    const props = Object.entries((s.properties ?? {}) as Record<string, unknown>);
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    right = fc.record(Object.fromEntries(props.map(([k, v]) => [k, shaped(v, depth + 1)])), {
      requiredKeys: props.map(([k]) => k).filter((k) => required.includes(k)),
    });
  } else right = wrong;
  return fc.oneof({ arbitrary: right, weight: 12 }, { arbitrary: wrong, weight: 1 });
}

describe('fuzz: tool arguments through the dispatcher', () => {
  it('random JSON, malformed text and oversized arguments to every built-in end in an outcome', async () => {
    const tally: Record<string, number> = {};
    let cases = 0;
    const args = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.json({ maxDepth: 4 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.constantFrom(null, undefined, '', '{', '[]', 'null', '{"a":', '{"__proto__":{"x":1}}'),
      fc.integer({ min: 4097, max: 50_000 }).map((n) => JSON.stringify({ pad: 'p'.repeat(n) })),
      fc.integer({ min: 10, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(), args, async (pick, raw) => {
        cases++;
        const name = names[pick % names.length] as string;
        check(await core.dispatcher.dispatch({ id: `r${cases}`, name, args: raw }, scope()), tally);
      }),
      { seed: 1234, numRuns: 600 },
    );
    expect(cases).toBe(600);
    expect(tally['error:arguments_too_large']).toBeGreaterThan(0);
    expect(tally['error:invalid_arguments']).toBeGreaterThan(0);
  }, 120_000);

  it('schema-shaped arguments reach the handlers and still end in an outcome', async () => {
    const tally: Record<string, number> = {};
    let cases = 0;
    const call = fc
      .constantFrom(...core.registry.all())
      .chain((tool) => fc.tuple(fc.constant(tool.spec.name), shaped(tool.spec.parameters)));
    await fc.assert(
      fc.asyncProperty(call, fc.boolean(), async ([name, raw], asText) => {
        cases++;
        const args = asText ? JSON.stringify(raw) : raw;
        check(await core.dispatcher.dispatch({ id: `s${cases}`, name, args }, scope()), tally);
      }),
      { seed: 4321, numRuns: 600 },
    );
    expect(cases).toBe(600);
    expect(tally.ok).toBeGreaterThan(20);
    expect(tally.denied).toBeGreaterThan(20);
  }, 120_000);
});
