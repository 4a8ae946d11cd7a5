// The zod schema of what a page sends over browser mode's WebSocket: which frames close the socket, which get an
// error reply, and what the reply says.
import { describe, expect, it } from 'vitest';
import { readClientMessage, readRequestId } from './client-message-schema';

describe('readRequestId', () => {
  it('refuses a frame that is not an object (1007) or has no whole-number id (1008)', () => {
    for (const frame of [5, 'x', null, [1, 2], true])
      expect(readRequestId(frame)).toEqual({ code: 'invalid', reason: 'a frame must be one JSON object' });
    for (const frame of [{}, { id: '7' }, { id: 1.5 }, { id: 2 ** 60 }, { id: null }])
      expect(readRequestId(frame)).toEqual({
        code: 'policy',
        reason: 'every request needs a whole-number "id"',
      });
    expect(readRequestId({ id: -3, type: 'anything' })).toEqual({ id: -3 });
  });
});

describe('readClientMessage', () => {
  const error = (frame: unknown) => {
    const read = readClientMessage(frame);
    return read.ok ? null : read.error;
  };

  it('accepts every message of the protocol, dropping unknown fields', () => {
    expect(
      readClientMessage({ id: 1, type: 'invoke', channel: 'app.info', request: {}, extra: 'x' }),
    ).toEqual({ ok: true, message: { id: 1, type: 'invoke', channel: 'app.info', request: {} } });
    expect(readClientMessage({ id: 2, type: 'dialog.pending' })).toEqual({
      ok: true,
      message: { id: 2, type: 'dialog.pending' },
    });
    expect(
      readClientMessage({
        id: 3,
        type: 'dialog.approval',
        dialogId: 'd',
        index: 0,
        choice: { kind: 'deny' },
      }),
    ).toMatchObject({ ok: true, message: { index: 0, choice: { kind: 'deny' } } });
    for (const type of ['dialog.secret', 'dialog.question', 'dialog.trust'])
      expect(readClientMessage({ id: 4, type, dialogId: 'd', answer: { kind: 'cancel' } })).toMatchObject({
        ok: true,
        message: { type, dialogId: 'd', answer: { kind: 'cancel' } },
      });
  });

  it('leaves an absent request or answer to its reader (it reads as empty)', () => {
    expect(readClientMessage({ id: 1, type: 'invoke', channel: 'app.info' })).toEqual({
      ok: true,
      message: { id: 1, type: 'invoke', channel: 'app.info' },
    });
  });

  it('names an unknown message type, briefly', () => {
    expect(error({ id: 1, type: 'shutdown' })).toBe('unknown message type "shutdown"');
    expect(error({ id: 1 })).toBe('unknown message type undefined');
    expect(error({ id: 1, type: ['a'] })).toBe('unknown message type an array');
    expect(error({ id: 1, type: 'x'.repeat(5000) })?.length).toBeLessThan(130);
  });

  it('names the field that is wrong, in the words the host uses', () => {
    expect(error({ id: 1, type: 'invoke', channel: 5 })).toBe('"channel" must be a string');
    expect(error({ id: 1, type: 'dialog.trust', answer: { kind: 'trust' } })).toBe(
      '"dialogId" must be a non-empty string',
    );
    expect(error({ id: 1, type: 'dialog.trust', dialogId: '  ' })).toBe(
      '"dialogId" must be a non-empty string',
    );
    expect(error({ id: 1, type: 'dialog.trust', dialogId: 'd'.repeat(201) })).toBe(
      '"dialogId" is longer than 200 characters',
    );
    for (const index of [-1, 1.5, '0', 1e20, undefined])
      expect(error({ id: 1, type: 'dialog.approval', dialogId: 'd', index })).toBe(
        '"index" must be a non-negative integer',
      );
  });

  it('never repeats a secret answer in its error', () => {
    const secret = 'sk-canary-1234567890';
    const message = error({
      id: 1,
      type: 'dialog.secret',
      dialogId: 7,
      answer: { kind: 'value', value: secret },
    });
    expect(message).toBe('"dialogId" must be a non-empty string');
  });

  it('reads own fields only: a "__proto__" key carries nothing in', () => {
    const frame: unknown = JSON.parse('{"id":1,"type":"invoke","__proto__":{"channel":"app.info"}}');
    expect(error(frame)).toBe('"channel" must be a string');
  });
});
