// The hand-checked reading of a server's answer (read-message.ts) against the SDK's own reader: every line, valid or
// built to slip past a check, is accepted or refused by both, and read to the same message.
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { describe, expect, it } from 'vitest';
import { isPlainResult, readMessage } from './read-message';

type Read = { ok: true; message: unknown } | { ok: false };

function read(reader: (line: string) => unknown, line: string): Read {
  try {
    return { ok: true, message: reader(line) };
  } catch {
    return { ok: false };
  }
}

// Both readers agree on `line`; says whether the fast path took it.
function agree(line: string): boolean {
  const ours = read(readMessage, line);
  const sdk = read(deserializeMessage, line);
  expect({ line, ok: ours.ok }).toEqual({ line, ok: sdk.ok });
  if (ours.ok && sdk.ok) expect(ours.message).toStrictEqual(sdk.message);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return false;
  }
  return isPlainResult(parsed);
}

const ANSWER = '{"result":{"content":[{"type":"text","text":"Echo: hi"}]},"jsonrpc":"2.0","id":3}';

describe('reading a stdio server line', () => {
  it('takes a plain answer by hand, read as the SDK reads it', () => {
    expect(agree(ANSWER)).toBe(true);
    expect(agree('{"jsonrpc":"2.0","id":"a-1","result":{}}')).toBe(true);
    expect(agree('{"jsonrpc":"2.0","id":-7,"result":{"isError":true,"content":[]}}')).toBe(true);
    // A key given twice counts once, its last value, for JSON.parse and so for both readers.
    expect(agree('{"jsonrpc":"2.0","id":1,"id":"twice","result":{}}')).toBe(true);
  });

  it('leaves every other message, and every doubtful answer, to the SDK schema', () => {
    const others = [
      // the other JSON-RPC shapes
      '{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no such method"}}',
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error"}}',
      '{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}',
      // answers a check must not let through, or must leave to the schema
      '{"jsonrpc":"2.0","id":1,"result":{},"extra":1}',
      '{"jsonrpc":"2.0","id":1,"result":{},"method":"x"}',
      '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
      '{"jsonrpc":"1.0","id":1,"result":{}}',
      '{"jsonrpc":2,"id":1,"result":{}}',
      '{"id":1,"result":{}}',
      '{"jsonrpc":"2.0","result":{}}',
      '{"jsonrpc":"2.0","id":1.5,"result":{}}',
      '{"jsonrpc":"2.0","id":9007199254740993,"result":{}}',
      '{"jsonrpc":"2.0","id":1e400,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"result":{}}',
      '{"jsonrpc":"2.0","id":true,"result":{}}',
      '{"jsonrpc":"2.0","id":[1],"result":{}}',
      '{"jsonrpc":"2.0","id":{"n":1},"result":{}}',
      '{"jsonrpc":"2.0","id":1,"result":null}',
      '{"jsonrpc":"2.0","id":1,"result":[]}',
      '{"jsonrpc":"2.0","id":1,"result":"ok"}',
      '{"jsonrpc":"2.0","id":1,"result":7}',
      '{"jsonrpc":"2.0","id":1,"result":{"_meta":{"progressToken":1}}}',
      '{"jsonrpc":"2.0","id":1,"result":{"_meta":"not an object"}}',
      '{"jsonrpc":"2.0","id":1,"result":{"_meta":null}}',
      '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"isError":true}}}',
      '{"jsonrpc":"2.0","id":1,"result":{},"__proto__":{"method":"x"}}',
      '{"jsonrpc":"2.0","id":1,"result":{},"result":[]}',
      '[{"jsonrpc":"2.0","id":1,"result":{}}]',
      'null',
      '"text"',
      '{"jsonrpc":"2.0","id":1,"result":{}',
    ];
    for (const line of others) expect({ line, fast: agree(line) }).toEqual({ line, fast: false });
  });

  it('agrees with the SDK on thousands of answers damaged at random', () => {
    // A small seeded generator (mulberry32), so a failure can be replayed.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const values = [
      '2.0',
      '1.0',
      2,
      0,
      -1,
      1.5,
      2 ** 53,
      -(2 ** 53) + 1,
      '',
      'id',
      null,
      true,
      false,
      [],
      [1],
      {},
      { a: 1 },
      { code: 1, message: 'm' },
      { _meta: {} },
      { _meta: 1 },
      { content: [] },
      { content: 'x' },
      { isError: 'yes' },
      { progressToken: 1 },
    ] as const;
    const keys = ['jsonrpc', 'id', 'result', 'error', 'method', 'params', '_meta', 'x', '__proto__'] as const;
    let fast = 0;
    for (let i = 0; i < 5000; i++) {
      const message: Record<string, unknown> = { jsonrpc: '2.0', id: i, result: { content: [] } };
      const changes = Math.floor(random() * 3);
      for (let c = 0; c < changes; c++) {
        const key = pick(keys);
        if (random() < 0.25) delete message[key];
        else
          Object.defineProperty(message, key, {
            value: pick(values),
            enumerable: true,
            configurable: true,
            writable: true,
          });
      }
      if (random() < 0.2 && typeof message.result === 'object' && message.result !== null) {
        message.result = { ...(message.result as object), [pick(keys)]: pick(values) };
      }
      if (agree(JSON.stringify(message))) fast++;
    }
    // Both kinds were met: the fast path was taken, and left.
    expect(fast).toBeGreaterThan(500);
    expect(fast).toBeLessThan(4500);
  });
});
