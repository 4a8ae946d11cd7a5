// approval-rules.json in every shape (fast-check, fixed seeds): random bytes, random JSON, valid files with one
// field broken, and valid files. A file that is not fully understood is reported, naming the file and the field,
// allows nothing (every call asks, and with nobody to ask is denied) and is never overwritten by a change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/gate-port';
import { ConfirmGate } from './confirm-gate';
import { RuleBook } from './rule-book';
import { RuleFileError, RuleStore } from './rule-store';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-rules-fuzz-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let homes = 0;

/** A fresh desktop folder holding `content` as approval-rules.json (no cache can carry over). */
function setup(content: string | Buffer) {
  const desktop = path.join(root, `home-${++homes}`, 'desktop');
  fs.mkdirSync(desktop, { recursive: true });
  const store = RuleStore.inDesktop(desktop);
  fs.writeFileSync(store.file, content);
  const book = new RuleBook(store, []);
  const gate = new ConfirmGate({
    rules: book,
    sensitive: { homes: ['/home/ann'], agenvoyHome: path.dirname(desktop) },
    policy: 'ask',
    prompter: null,
  });
  return { store, book, gate, file: store.file };
}

// A call that an allow-everything rule in the file would allow.
const REQUEST: ApprovalRequest = {
  callId: 'c1',
  chatId: 'fuzz',
  tool: 'http_request',
  source: { kind: 'builtin' },
  flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
  timeoutMs: 60_000,
  definitionHash: 'h1',
  args: { url: 'https://example.com/' },
  workspace: '/tmp',
  sandbox: 'none',
};

const ALLOW_ALL = {
  id: 'rule-allow-all',
  tool: '*',
  pattern: null,
  except: [],
  effect: 'allow',
  createdAt: '2024-01-01T00:00:00.000Z',
  definitions: {},
};

const validRule = fc.record({
  id: fc.string({ minLength: 1, maxLength: 12 }),
  tool: fc.constantFrom('run_command', 'script_*', 'mcp__github__*', 'http_request'),
  pattern: fc.oneof(
    fc.constant(null),
    fc.string({ maxLength: 20 }).map((s) => s.replace(/\*/g, '')),
  ),
  except: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
  effect: fc.constantFrom('allow', 'deny'),
  createdAt: fc.constant('2024-01-01T00:00:00.000Z'),
  definitions: fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
});
const validFile = fc.record({
  version: fc.constant(1),
  rules: fc.array(validRule, { maxLength: 5 }),
  revokedDefaults: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
});

// One field of a rule and a value of the wrong shape for it, with what the problem must name.
const RULE_FIELDS = ['id', 'tool', 'pattern', 'except', 'effect', 'createdAt', 'definitions'] as const;
const wrongValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(42),
  fc.constant(true),
  fc.constant(''),
  fc.constant([1]),
  fc.constant({ a: 1 }),
  fc.constant('maybe'),
);

async function expectAllowsNothing(gate: ConfirmGate): Promise<void> {
  const [decision] = await gate.decide([REQUEST], { signal: new AbortController().signal });
  expect(decision?.kind).toBe('deny');
}

describe('approval-rules.json fuzz', () => {
  it('random bytes and random JSON: ok with well-typed rules, or damaged naming the file (300 cases)', async () => {
    let cases = 0;
    const content = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc
        .jsonValue({ maxDepth: 3 })
        .map((value) => JSON.stringify({ version: 1, rules: value, revokedDefaults: [] })),
      fc
        .jsonValue({ maxDepth: 3 })
        .map((value) => JSON.stringify({ version: 1, rules: [value], revokedDefaults: [] })),
    );
    await fc.assert(
      fc.asyncProperty(content, async (text) => {
        cases++;
        const { book, file } = setup(text);
        const set = await book.current();
        if (set.kind === 'damaged') {
          expect(set.problem).toContain(file);
          await expect(book.list()).rejects.toThrow(file);
          return;
        }
        for (const rule of set.rules) {
          expect(typeof rule.id === 'string' && rule.id !== '').toBe(true);
          expect(typeof rule.tool === 'string' && rule.tool !== '').toBe(true);
          expect(rule.pattern === null || typeof rule.pattern === 'string').toBe(true);
          expect(rule.except.every((glob) => typeof glob === 'string')).toBe(true);
          expect(['allow', 'deny']).toContain(rule.effect);
        }
      }),
      { numRuns: 300, seed: 1212 },
    );
    expect(cases).toBe(300);
  });

  it('a valid file with one rule field broken: damaged, names rules[i] and the field, allows nothing (300 cases)', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        validFile,
        fc.nat(),
        fc.constantFrom(...RULE_FIELDS),
        wrongValue,
        async (file, at, field, value) => {
          cases++;
          const rules = [...file.rules, ALLOW_ALL].map((rule) => ({ ...rule }));
          const index = at % rules.length;
          const broken = rules[index] as Record<string, unknown>;
          // A value that happens to fit the field is not a broken field (a string pattern, a string id…).
          const fits =
            (field === 'pattern' && (value === '' || value === 'maybe')) ||
            (['id', 'tool'].includes(field) && value === 'maybe') ||
            (field === 'createdAt' && typeof value === 'string') ||
            (field === 'definitions' &&
              value !== null &&
              typeof value === 'object' &&
              !Array.isArray(value) &&
              Object.values(value).every((v) => typeof v === 'string'));
          if (value === undefined) delete broken[field];
          else broken[field] = value;
          const text = JSON.stringify({ ...file, rules }, null, 2);
          const { book, gate, file: where } = setup(text);
          const set = await book.current();
          if (fits) return;
          expect(set.kind).toBe('damaged');
          const problem = set.kind === 'damaged' ? set.problem : '';
          expect(problem).toContain(where);
          expect(problem).toContain(`rules[${index}]`);
          expect(problem).toContain(`"${field}"`);
          // The allow-everything rule in the same file does not apply, and no change overwrites the file.
          await expectAllowsNothing(gate);
          await expect(book.add({ tool: 'x', pattern: null, effect: 'deny' })).rejects.toBeInstanceOf(
            RuleFileError,
          );
          expect(fs.readFileSync(where, 'utf8')).toBe(text);
        },
      ),
      { numRuns: 300, seed: 2121 },
    );
    expect(cases).toBe(300);
  });

  it('broken top-level shapes name their field; a valid file with a BOM reads (every case listed)', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /must hold a JSON object/],
      [[], /must hold a JSON object/],
      ['rules', /must hold a JSON object/],
      [{ rules: [], revokedDefaults: [] }, /unknown version undefined/],
      [{ version: 2, rules: [], revokedDefaults: [] }, /unknown version 2/],
      [{ version: '1', rules: [], revokedDefaults: [] }, /unknown version "1"/],
      [{ version: 1, rules: {}, revokedDefaults: [] }, /"rules" must be an array/],
      [{ version: 1, rules: [ALLOW_ALL] }, /"revokedDefaults" must be an array/],
      [{ version: 1, rules: [ALLOW_ALL], revokedDefaults: [1] }, /"revokedDefaults" must be an array/],
      [{ version: 1, rules: [ALLOW_ALL, 'x'], revokedDefaults: [] }, /rules\[1\] must be an object/],
    ];
    for (const [content, problem] of cases) {
      const { book, gate } = setup(JSON.stringify(content));
      const set = await book.current();
      expect(set.kind).toBe('damaged');
      expect(set.kind === 'damaged' ? set.problem : '').toMatch(problem);
      await expectAllowsNothing(gate);
    }
    const truncated = setup(
      JSON.stringify({ version: 1, rules: [ALLOW_ALL], revokedDefaults: [] }).slice(0, -3),
    );
    expect(await truncated.book.current()).toMatchObject({
      kind: 'damaged',
      problem: expect.stringMatching(/is not valid JSON/),
    });
    await expectAllowsNothing(truncated.gate);
    const bom = setup(`\uFEFF${JSON.stringify({ version: 1, rules: [ALLOW_ALL], revokedDefaults: [] })}`);
    expect(await bom.book.current()).toMatchObject({ kind: 'ok', rules: [{ id: 'rule-allow-all' }] });
    // A value nested 100,000 deep, even under a key the file may carry, is named; nothing walks it.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const nested = setup(
      JSON.stringify({ version: 1, rules: [{ ...ALLOW_ALL, later: 'DEEP' }], revokedDefaults: [] }).replace(
        '"DEEP"',
        deep,
      ),
    );
    expect(await nested.book.current()).toMatchObject({
      kind: 'damaged',
      problem: expect.stringMatching(/: nested deeper than 16 levels \(at rules\.0\.later/),
    });
    await expectAllowsNothing(nested.gate);
    const huge = setup(Buffer.alloc(9 * 1024 * 1024, 0x20));
    expect(await huge.book.current()).toMatchObject({
      kind: 'damaged',
      problem: expect.stringMatching(/more than a rules file can be/),
    });
  });
});
