// Browser mode's WebSocket under random and malformed frames (fast-check, fixed seed): every frame gets a clear
// error reply or a close with a code and a reason, the server never crashes or hangs, and a good page connected
// alongside keeps working throughout.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { webFixture } from './testing/web-fixture';
import { MAX_FRAME } from './web-server';
import { withoutKeychain } from '../secrets/testing/no-keychain';

// Every invoke channel but secrets.prompt, which rightly waits for a person's answer.
const CHANNELS = [
  'app.info',
  'chats.list',
  'chats.search',
  'chats.create',
  'chats.open',
  'chats.call',
  'chats.message',
  'chats.rename',
  'chats.delete',
  'chats.setWorkspace',
  'chats.setReasoning',
  'chats.setModel',
  'turn.send',
  'turn.cancel',
  'tasks.list',
  'tasks.cancel',
  'tools.list',
  'mcp.list',
  'mcp.reconnect',
  'mcp.accept',
  'rules.list',
  'rules.revoke',
  'trust.list',
  'trust.add',
  'trust.revoke',
  'trust.status',
  'settings.get',
  'sandbox.status',
  'settings.save',
  'secrets.list',
];
const TYPES = [
  'invoke',
  'dialog.pending',
  'dialog.approval',
  'dialog.secret',
  'dialog.question',
  'dialog.trust',
];
const CLOSE_CODES = [1003, 1007, 1008, 1009];
const REPLY_WAIT_MS = 5_000;

let fixture: WebFixture;
let good: TestClient;
withoutKeychain();

beforeAll(async () => {
  fixture = await webFixture();
  good = await fixture.connect();
}, 60_000);

afterAll(async () => {
  await fixture?.close();
});

type Frame = { text: string } | { binary: Uint8Array };

/** What the server did with a batch of frames: the replies by id, and the close (code and reason) if any. */
interface Answer {
  replies: Map<number, unknown>;
  close: { code: number; reason: string } | null;
}

async function exchange(frames: Frame[]): Promise<Answer> {
  const socket = new WebSocket(`ws://127.0.0.1:${fixture.web.port}/ws?token=${fixture.web.token}`, {
    origin: `http://127.0.0.1:${fixture.web.port}`,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const answer: Answer = { replies: new Map(), close: null };
  const wanted = new Set<number>();
  for (const frame of frames) {
    const id = 'text' in frame ? requestId(frame.text) : null;
    if (id !== null) wanted.add(id);
  }
  // A frame that is not a request ends in a close; otherwise every request's reply is awaited.
  const closes = frames.some((f) => !('text' in f) || requestId(f.text) === null);
  const done = new Promise<void>((resolve) => {
    const check = () => {
      if (!closes && [...wanted].every((id) => answer.replies.has(id))) resolve();
    };
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id?: number; result?: unknown };
      if (message.type === 'reply' && typeof message.id === 'number')
        answer.replies.set(message.id, message.result);
      check();
    });
    socket.once('close', (code, reason) => {
      answer.close = { code, reason: String(reason) };
      resolve();
    });
  });
  for (const frame of frames) {
    if (socket.readyState !== socket.OPEN) break;
    if ('text' in frame) socket.send(frame.text);
    else socket.send(frame.binary, { binary: true });
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    done.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), REPLY_WAIT_MS))),
  ]);
  clearTimeout(timer);
  socket.terminate();
  if (timedOut)
    throw new Error(`no reply and no close within ${REPLY_WAIT_MS} ms for ${JSON.stringify(frames)}`);
  return answer;
}

// The id the server will answer to: a JSON object with a whole-number id (duplicates answer once per id).
function requestId(text: string): number | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    const id = (value as { id?: unknown }).id;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

function expectClearAnswer(frames: Frame[], answer: Answer): void {
  if (answer.close) {
    expect(CLOSE_CODES, JSON.stringify(answer.close)).toContain(answer.close.code);
    expect(answer.close.reason.length).toBeGreaterThan(0);
    return;
  }
  for (const [id, result] of answer.replies) {
    const r = result as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
    expect(typeof r.ok, `reply ${id}`).toBe('boolean');
    if (r.ok === false) {
      expect(typeof r.error?.code).toBe('string');
      expect(String(r.error?.message).length).toBeGreaterThan(0);
    }
  }
  // Without a close, every frame was a request and got its reply.
  expect(frames.every((f) => 'text' in f && requestId(f.text) !== null)).toBe(true);
}

async function goodClientWorks(): Promise<void> {
  const info = await good.bridge.api.invoke('app.info', {});
  expect(info).toMatchObject({ ok: true, value: { mode: 'web' } });
}

const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, '', -1, 1e308, 'x'.repeat(300), { chatId: 'nope' }, ['a']),
);
const request = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...TYPES), fc.string({ maxLength: 20 })),
    id: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 5 }), fc.constant(null)),
    channel: fc.oneof(fc.constantFrom(...CHANNELS), fc.string({ maxLength: 30 })),
    request: anyValue,
    dialogId: anyValue,
    index: anyValue,
    choice: fc.oneof(
      anyValue,
      fc.record({ kind: fc.constantFrom('allow_once', 'deny', 'stop', 'allow_always') }),
    ),
    answer: anyValue,
  },
  { requiredKeys: [] },
);
const frame: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 5, arbitrary: request.map((r) => ({ text: JSON.stringify(r) })) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => ({ text: JSON.stringify(v) })) },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((binary) => ({ binary })) },
);

describe('browser mode WebSocket: fuzzed frames', () => {
  it('answers or closes clearly for every batch of random frames (250 cases, seed 1207)', async () => {
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 4 }), async (frames) => {
        cases++;
        expectClearAnswer(frames, await exchange(frames));
        if (cases % 25 === 0) await goodClientWorks();
      }),
      { numRuns: 250, seed: 1207 },
    );
    expect(cases).toBe(250);
    await goodClientWorks();
  }, 180_000);

  it('huge, deep and unknown frames: closed with 1009, or a clear error, and the page alongside keeps working', async () => {
    // Past the 32 MiB frame limit (a message at the attachment limits fits: docs/attachments.md).
    const huge = await exchange([
      {
        text: JSON.stringify({
          id: 1,
          type: 'invoke',
          channel: 'app.info',
          request: 'x'.repeat(MAX_FRAME + 1024),
        }),
      },
    ]);
    expect(huge.close?.code).toBe(1009);
    // Just under it: a long string where a chat id belongs is refused by name.
    const long = await exchange([
      {
        text: JSON.stringify({
          id: 2,
          type: 'invoke',
          channel: 'chats.open',
          request: { chatId: 'x'.repeat(3_000_000) },
        }),
      },
    ]);
    expect(long.replies.get(2)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    // Nesting far deeper than any stack: parsed or refused, never a crash.
    const deep = `{"id":3,"type":"invoke","channel":"chats.open","request":${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
    const nested = await exchange([{ text: deep }]);
    expect(nested.close ?? nested.replies.get(3)).toBeDefined();
    const unknown = await exchange([
      { text: JSON.stringify({ id: 4, type: 'invoke', channel: 'no.such.channel' }) },
    ]);
    expect(unknown.replies.get(4)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const badType = await exchange([{ text: JSON.stringify({ id: 5, type: 'shutdown' }) }]);
    expect(badType.replies.get(5)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: 'unknown message type "shutdown"' },
    });
    for (const [text, code] of [
      ['not json', 1007],
      ['[1,2]', 1007],
      ['"a string"', 1007],
      ['{"type":"invoke"}', 1008],
      ['{"id":"7","type":"invoke"}', 1008],
    ] as const)
      expect((await exchange([{ text }])).close?.code, text).toBe(code);
    expect((await exchange([{ binary: new Uint8Array([1, 2, 3]) }])).close?.code).toBe(1003);
    await goodClientWorks();
    expect(fixture.web.clients()).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
