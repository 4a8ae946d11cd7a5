// Property-based fuzzing of provider streams (docs/robustness.md): random framing, split points, garbage lines, huge
// events, cuts and stalls. The SSE reader never throws anything but its own cap error, and does not care where the
// bytes were split; a whole round through a real scripted server always ends, as complete or failed, never a throw.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamRound } from '../stream-round';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { Provider } from './provider';
import { ProviderError } from './provider';
import { parseSse, SseEventTooLarge, SseParser } from './sse';
import type { SseMessage } from './sse';
import { anthropicEvents, startAnthropicTestServer } from './testing/anthropic-test-server';
import { openAiEvents, startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedBlock, ScriptedServer } from './testing/scripted-server';
import { formatFrame } from './testing/scripted-server';

const encoder = new TextEncoder();

// Lines as servers and broken proxies send them: fields, comments, junk, odd line ends, non-ASCII.
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
const fieldLine = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => `data: ${s}`),
  fc.string({ maxLength: 40 }).map((s) => `data:${s}`),
  fc.constantFrom('event: message_start', 'event: ping', 'id: 7', 'id: a\0b', 'retry: 10', 'data', 'data:'),
  fc.string({ maxLength: 20 }).map((s) => `: ${s}`),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')),
  fc.constant(''),
);
const body = fc
  .array(fc.tuple(fieldLine, lineEnd), { maxLength: 30 })
  .chain((lines) =>
    fc.tuple(
      fc.constant(lines.map(([line, end]) => line + end).join('')),
      fc.boolean(), // a leading BOM
    ),
  )
  .map(([text, bom]) => encoder.encode((bom ? '\uFEFF' : '') + text));

// Cut points into a byte array, any of them inside a CRLF or a multi-byte character.
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    out.push(bytes.subarray(start, point));
    start = point;
  }
  out.push(bytes.subarray(start));
  return out;
}

async function* source(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

async function parseAll(
  chunks: Uint8Array[],
  maxEventBytes?: number,
): Promise<{ messages: SseMessage[]; error: unknown }> {
  const messages: SseMessage[] = [];
  try {
    for await (const m of parseSse(source(chunks), maxEventBytes ? { maxEventBytes } : {})) messages.push(m);
    return { messages, error: undefined };
  } catch (error) {
    return { messages, error };
  }
}

describe('fuzz: the SSE reader', () => {
  it('gives the same events however the bytes are split, and throws nothing', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(body, fc.array(fc.nat(), { maxLength: 12 }), async (bytes, cuts) => {
        cases++;
        const whole = await parseAll([bytes]);
        const split = await parseAll(chunked(bytes, cuts));
        expect(whole.error).toBeUndefined();
        expect(split.error).toBeUndefined();
        expect(split.messages).toEqual(whole.messages);
      }),
      { seed: 4242, numRuns: 1500 },
    );
    expect(cases).toBe(1500);
  });

  it('with a small cap, fails with SseEventTooLarge exactly when an event passes it, wherever the split', async () => {
    let cases = 0;
    let overflows = 0;
    const big = fc
      .tuple(fc.nat({ max: 600 }), lineEnd)
      .map(([n, end]) => `data: ${'é'.repeat(n)}${end}${end}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(big, fc.constant('data: ok\n\n'), fc.constant(': keep-alive\r\n')), {
          maxLength: 8,
        }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (frames, cuts) => {
          cases++;
          const bytes = encoder.encode(frames.join(''));
          const whole = await parseAll([bytes], 512);
          const split = await parseAll(chunked(bytes, cuts), 512);
          for (const run of [whole, split]) {
            if (run.error !== undefined) expect(run.error).toBeInstanceOf(SseEventTooLarge);
          }
          expect(split.error === undefined).toBe(whole.error === undefined);
          if (whole.error) overflows++;
          // What was handed out before a failure is a prefix of what a whole parse hands out.
          expect(split.messages).toEqual(whole.messages.slice(0, split.messages.length));
          for (const m of split.messages) expect(encoder.encode(m.data).length).toBeLessThanOrEqual(512);
        },
      ),
      { seed: 777, numRuns: 800 },
    );
    expect(cases).toBe(800);
    expect(overflows).toBeGreaterThan(50);
  });

  it('the incremental parser accepts strings and bytes alike', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const a = new SseParser();
        const b = new SseParser();
        expect([...a.push(text), ...a.end()]).toEqual([...b.push(encoder.encode(text)), ...b.end()]);
      }),
      { seed: 9, numRuns: 500 },
    );
  });
});

// --- Whole rounds through real scripted servers -------------------------------------------------------------

let openai: ScriptedServer;
let anthropic: ScriptedServer;
beforeAll(async () => {
  openai = await startOpenAiTestServer();
  anthropic = await startAnthropicTestServer();
});
afterAll(async () => {
  await openai.close();
  await anthropic.close();
});

const limits = { eventBytes: 4096, firstByteMs: 150, idleMs: 150, toolCallBytes: 2048 };
const retry = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 };
const blocks: fc.Arbitrary<ScriptedBlock[]> = fc.array(
  fc.oneof(
    fc.string({ maxLength: 60 }).map((text) => ({ text })),
    fc
      .tuple(
        fc.constantFrom('write_todo', 'find_tools', ''),
        fc.oneof(
          fc.json(),
          fc.string({ maxLength: 100 }),
          fc.integer({ min: 1000, max: 6000 }).map((n) => JSON.stringify({ t: 'a'.repeat(n) })),
        ),
      )
      .map(([name, args]) => ({ toolCall: { id: `c_${name}`, name, args } })),
  ),
  { maxLength: 4 },
);
// A well-formed stream, then broken as servers and proxies break them. Each kind of damage in about one case of four, so whole streams come through too.
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
const damage = fc.record({
  garbage: fc.oneof(
    { arbitrary: fc.constant([] as Array<[number, string]>), weight: 2 },
    {
      arbitrary: fc.array(fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 50 })), { maxLength: 3 }),
      weight: 1,
    },
  ),
  huge: sometimes(fc.tuple(fc.nat(), fc.integer({ min: 4000, max: 20_000 }))),
  dropAt: sometimes(fc.nat()),
  cutAt: sometimes(fc.nat()),
  hang: fc.boolean(),
  split: fc.integer({ min: 1, max: 300 }),
});

function damaged(frames: string[], d: DamageValue): string[] {
  const out = [...frames];
  for (const [at, junk] of d.garbage) out.splice(at % (out.length + 1), 0, `${junk}\n`);
  if (d.huge) out.splice(d.huge[0] % (out.length + 1), 0, `data: ${'h'.repeat(d.huge[1])}\n\n`);
  if (d.dropAt !== undefined && out.length > 0) out.splice(d.dropAt % out.length, 1);
  return out;
}
type DamageValue = {
  garbage: Array<[number, string]>;
  huge: [number, number] | undefined;
  dropAt: number | undefined;
  cutAt: number | undefined;
  hang: boolean;
  split: number;
};

async function fuzzRounds(
  server: () => ScriptedServer,
  provider: () => Provider,
  frames: (blocks: ScriptedBlock[]) => string[],
  seed: number,
  numRuns: number,
): Promise<{ cases: number; complete: number; failed: number; oversized: number }> {
  const tally = { cases: 0, complete: 0, failed: 0, oversized: 0 };
  await fc.assert(
    fc.asyncProperty(blocks, damage, async (content, d) => {
      tally.cases++;
      const text = damaged(frames(content), d).join('');
      const pieces = text.match(new RegExp(`[\\s\\S]{1,${d.split}}`, 'g')) ?? [];
      const script = {
        raw: () => pieces,
        hang: d.hang,
        ...(d.cutAt !== undefined ? { cutAfter: d.cutAt % (pieces.length + 1) } : {}),
      };
      server().enqueue(script, script);
      const started = Date.now();
      const result = await streamRound(
        provider(),
        { model: 'm', system: 's', messages: [], tools: [] },
        {
          checkpoint: () => {},
          onText: () => {},
          onReasoning: () => {},
          onToolCall: () => {},
          onNotice: () => {},
        },
        { toolArgumentsBytes: limits.toolCallBytes },
      );
      // Drop what a retry left unused, so the next case starts clean.
      server().clear();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(['complete', 'failed']).toContain(result.kind);
      if (result.kind === 'failed') {
        tally.failed++;
        expect(result.error).toBeInstanceOf(ProviderError);
        expect(result.error.message.length).toBeGreaterThan(0);
      } else if (result.kind === 'complete') {
        tally.complete++;
        for (const call of result.toolCalls) {
          // Nothing past the tool-call cap is ever kept: a marker stands in for it.
          expect(Buffer.byteLength(call.args)).toBeLessThanOrEqual(limits.toolCallBytes);
          if (!call.tooLarge) continue;
          tally.oversized++;
          expect(call.args).toMatch(/^\{"_omitted":"arguments too large: \d+\.\d KiB \(limit 2 KiB\)"\}$/);
        }
      }
    }),
    { seed, numRuns },
  );
  expect(tally.cases).toBe(numRuns);
  return tally;
}

describe('fuzz: whole rounds against scripted servers', () => {
  it('OpenAI-compatible: every damaged stream ends the round as complete or failed', async () => {
    const tally = await fuzzRounds(
      () => openai,
      () => new OpenAiProvider({ baseUrl: openai.baseUrl, retry, limits }),
      (content) => openAiEvents(content, { chunkSize: 500 }).map(formatFrame),
      31337,
      60,
    );
    expect(tally.cases).toBe(60);
    expect(tally.complete).toBeGreaterThan(0);
    expect(tally.failed).toBeGreaterThan(0);
    expect(tally.oversized).toBeGreaterThan(0);
  }, 120_000);

  it('Anthropic: every damaged stream ends the round as complete or failed', async () => {
    const tally = await fuzzRounds(
      () => anthropic,
      () => new AnthropicProvider({ baseUrl: anthropic.baseUrl, apiKey: 'k', retry, limits }),
      (content) => anthropicEvents(content, { chunkSize: 500 }).map(formatFrame),
      8086,
      60,
    );
    expect(tally.cases).toBe(60);
    expect(tally.complete).toBeGreaterThan(0);
    expect(tally.failed).toBeGreaterThan(0);
    expect(tally.oversized).toBeGreaterThan(0);
  }, 120_000);
});
