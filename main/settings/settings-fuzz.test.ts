// Property-based fuzzing of settings.json (docs/robustness.md): every shape — not JSON, wrong types, huge strings,
// deep nesting, unknown keys. Provider fields get a SettingsError naming the file and the field; `limits` and unknown
// keys get warnings and their defaults; nothing else throws, and the app's core and chat runtime still start.
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../app';
import { policyGate } from '../core/gate-port';
import { openChatRuntime } from '../agent/chat-runtime';
import { DEFAULT_LIMITS, readLimits } from './limits';
import {
  KNOWN_SETTINGS_KEYS,
  loadSettings,
  PROVIDER_KINDS,
  SettingsError,
  settingsPath,
  settingsWarnings,
} from './settings';
import { readWebSettings } from './web-settings-file';

let home: string;
let file: string;
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-settings-fuzz-'));
  file = settingsPath(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

// Nesting written as text: a value 1,000s of levels deep that JSON.parse reads but a recursive walk would not.
const deep = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.constantFrom('[', '{"a":'))
  .map(([depth, open]) => ({
    deep: depth,
    text: open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth),
  }));
// Huge strings now and then (one in ten values): enough to show nothing is echoed back whole, cheap enough to run.
const hugeString = fc.integer({ min: 10_000, max: 400_000 }).map((n) => 'z'.repeat(n));
const value = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
  { arbitrary: hugeString, weight: 1 },
  { arbitrary: deep, weight: 1 },
  {
    arbitrary: fc.constantFrom(
      'anthropic',
      'openai',
      'http://127.0.0.1:1/v1',
      'https://x',
      'MY_KEY',
      null,
      0,
      -1,
      1e308,
    ),
    weight: 4,
  },
);
const limitValue = fc.oneof(
  value,
  fc.integer({ min: -10, max: 2 ** 31 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(1024, 1048576, 0.2, 300, 86_401, 1023.5),
);
const limitsBlock = fc.oneof(
  value,
  fc.dictionary(
    fc.oneof(fc.constantFrom(...Object.keys(DEFAULT_LIMITS)), fc.string({ maxLength: 100 })),
    limitValue,
    { maxKeys: 6 },
  ),
);
const key = fc.oneof(
  { arbitrary: fc.constantFrom(...KNOWN_SETTINGS_KEYS), weight: 4 },
  { arbitrary: fc.string({ maxLength: 80 }), weight: 2 },
  { arbitrary: fc.integer({ min: 100, max: 5000 }).map((n) => 'k'.repeat(n)), weight: 1 },
);
const settingsObject = fc
  .dictionary(key, value, { maxKeys: 8 })
  .chain((object) =>
    fc
      .option(limitsBlock, { nil: undefined })
      .map((limits) => (limits === undefined ? object : { ...object, limits })),
  );

// File text: JSON of the shapes above (deep values spliced in as raw text), any JSON, or not JSON at all.
function render(object: unknown): string {
  const holes: string[] = [];
  const text = JSON.stringify(object, (_k, v: unknown) => {
    if (v && typeof v === 'object' && 'deep' in v && 'text' in v) {
      holes.push((v as { text: string }).text);
      return `__DEEP_${holes.length - 1}__`;
    }
    return v;
  });
  return text.replace(/"__DEEP_(\d+)__"/g, (_m, i: string) => holes[Number(i)] ?? 'null');
}
const fileText = fc.oneof(
  { arbitrary: settingsObject.map(render), weight: 6 },
  { arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
  { arbitrary: deep.map((d) => d.text), weight: 1 },
);

const FIELDS = ['provider', 'baseUrl', 'model', 'apiKeyName'];

describe('fuzz: settings.json', () => {
  it('loads, or fails with a short error naming the file and the field; limits and unknown keys only warn', () => {
    let cases = 0;
    let errors = 0;
    let warned = 0;
    fc.assert(
      fc.property(fileText, (text) => {
        cases++;
        fs.writeFileSync(file, text);
        try {
          const settings = loadSettings({ home, env: {} });
          expect(PROVIDER_KINDS).toContain(settings.provider);
          expect(settings.baseUrl).toMatch(/^https?:\/\//);
          expect(settings.model.trim()).not.toBe('');
          if (settings.apiKeyName !== null) expect(settings.apiKeyName).toMatch(/^[A-Za-z_]\w*$/);
        } catch (error) {
          errors++;
          expect(error).toBeInstanceOf(SettingsError);
          const message = (error as Error).message;
          expect(message.startsWith(`${file}: `)).toBe(true);
          expect(message.length).toBeLessThan(400);
          const named = FIELDS.some((field) => message.includes(`"${field}"`));
          expect(named || /not valid JSON|must hold a JSON object/.test(message)).toBe(true);
        }
        const { limits, warnings } = readLimits(file);
        for (const [field, fallback] of Object.entries(DEFAULT_LIMITS)) {
          const got = limits[field as keyof typeof limits];
          expect(Number.isFinite(got) && got > 0).toBe(true);
          expect(typeof fallback).toBe('number');
        }
        const all = [...warnings, ...settingsWarnings(file)];
        if (all.length > 0) warned++;
        for (const warning of all) {
          expect(warning.startsWith(`${file}: `)).toBe(true);
          expect(warning.length).toBeLessThan(600);
        }
        for (const warning of warnings) expect(warning).toMatch(/"limits(\.[^"]*)?"/);
        // The web block is read the same way and never throws either.
        expect(() => readWebSettings(file)).not.toThrow();
      }),
      { seed: 20260, numRuns: 400 },
    );
    expect(cases).toBe(400);
    expect(errors).toBeGreaterThan(20);
    expect(warned).toBeGreaterThan(20);
  });

  it('a limit that is usable is taken as is, anything else falls back to its default with a warning', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(DEFAULT_LIMITS)), limitValue, (field, raw) => {
        fs.writeFileSync(file, render({ limits: { [field]: raw } }));
        const { limits, warnings } = readLimits(file);
        const got = limits[field as keyof typeof limits];
        if (warnings.length === 0) expect(got).toBe(raw);
        else {
          expect(got).toBe(DEFAULT_LIMITS[field as keyof typeof DEFAULT_LIMITS]);
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toContain(`"limits.${field}"`);
        }
      }),
      { seed: 5150, numRuns: 300 },
    );
  });

  it('the core and the chat runtime start over a broken settings.json, and tools still run', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(fileText, async (text) => {
        cases++;
        fs.writeFileSync(file, text);
        const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-settings-fuzz-ws-'));
        const core = await createCore({
          home,
          workspace,
          gate: policyGate('deny'),
          sandbox: null,
          mcp: 'off',
        });
        try {
          const runtime = await openChatRuntime(core, {
            settings: () => loadSettings({ home, env: {} }),
            offered: () => true,
            background: false,
          });
          const outcome = await core.dispatcher.dispatch(
            { id: `c${cases}`, name: 'find_tools', args: { mode: 'list' } },
            { chatId: 'fuzz', workspace },
          );
          expect(outcome.outcome).toBe('ok');
          runtime.close();
        } finally {
          await core.close();
          fs.rmSync(workspace, { recursive: true, force: true });
        }
      }),
      { seed: 404, numRuns: 6 },
    );
    expect(cases).toBe(6);
  }, 120_000);
});
