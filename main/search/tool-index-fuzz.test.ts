// Property-based: the search index takes names, descriptions and schemas from tool.json files and MCP servers, and
// queries from the model. Whatever they hold, indexing and searching never throw and give sane rankings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index';

const NASTY = [
  'last-day',
  'last-week',
  '[a-z]',
  '\\',
  '(?<x>a)',
  '*+?{}|^$.',
  'mcp__',
  'mcp____',
  'mcp__srv__',
  'script_',
  '__proto__',
  'constructor',
  '😀',
  'ΑΣ',
  'İstanbul',
  '日本語のツール',
  '\ud800',
  '\u0000',
  '',
  ' ',
  '0',
  '1e309',
  'HTTPServer2FA',
  'sha256',
];

const text = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(...NASTY).map((piece) => `${piece} `.repeat(1000)),
);

const value = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));

const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.record(
      {
        type: fc.oneof(fc.constantFrom('object', 'array', 'string'), text),
        description: fc.oneof(text, fc.integer()),
        enum: fc.array(value, { maxLength: 5 }),
        properties: fc.dictionary(text, tie('node'), { maxKeys: 4 }),
        items: tie('node'),
      },
      { requiredKeys: [] },
    ),
    value,
    fc.array(tie('node'), { maxLength: 2 }),
  ),
})).node;

const name = fc.oneof(
  text,
  fc.tuple(text, text).map(([server, tool]) => `mcp__${server}__${tool}`),
  text.map((own) => `script_${own}`),
);

const tool = fc.record({ name, description: fc.oneof(text, fc.integer() as never), parameters: schema });

describe('ToolIndex on anything a tool or a query can hold (property-based)', () => {
  // One index for the whole run: it must stay consistent through many upserts and removals.
  const index = new ToolIndex();

  it('indexes, searches and removes any tools without throwing; hits are indexed names, ranked (200 cases)', () => {
    fc.assert(
      fc.property(
        fc.array(tool, { minLength: 1, maxLength: 6 }),
        fc.array(text, { maxLength: 4 }),
        fc.integer({ min: -2, max: 60 }),
        (tools, queries, limit) => {
          for (const t of tools) {
            index.upsert(t as { name: string; description: string; parameters: Record<string, unknown> });
          }
          const names = new Set(tools.map((t) => String(t.name)));
          for (const query of [...queries, ...tools.map((t) => String(t.name))]) {
            const hits = index.search(query, limit);
            expect(hits.length).toBeLessThanOrEqual(Math.max(0, limit));
            for (const [i, hit] of hits.entries()) {
              expect(Number.isFinite(hit.score) && hit.score > 0).toBe(true);
              if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]?.score ?? Infinity);
            }
          }
          // A query that is exactly a tool's full name ranks that tool first.
          for (const n of names) {
            if (n.trim() !== n || n === '' || n.length > 2000 || limit < 1) continue;
            expect(index.search(n, limit)[0]?.name).toBe(n);
          }
          for (const n of names) index.remove(n);
          for (const query of [...queries, ...names]) {
            for (const hit of index.search(query, 50)) expect(names.has(hit.name)).toBe(false);
          }
        },
      ),
      { seed: 1215, numRuns: 200 },
    );
    expect(index.size).toBe(0);
  });

  it('answers odd queries with [] rather than a throw', () => {
    index.upsert({ name: 'read_file', description: 'Read a file from the workspace.' });
    for (const query of ['', ' ', '\u0000', '\ud800', '*'.repeat(100_000), 'a'.repeat(1_000_000)]) {
      expect(() => index.search(query, 5)).not.toThrow();
    }
    expect(index.search(42 as unknown as string, 5)).toEqual([]);
    expect(index.search('read', Number.NaN)).toEqual([]);
  });
});
