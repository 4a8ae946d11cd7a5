// The browser-mode bridge's own behaviour with a scripted socket: queueing, replies, reconnects, and a secret
// answer that is sent at once or not at all.
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from './contract';
import type { SocketLike } from './web-bridge';
import { connectWebBridge, socketUrl } from './web-bridge';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  private listeners = new Map<string, Array<(event: never) => void>>();
  addEventListener(type: string, listener: (event: never) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code = 1000): void {
    this.drop(code);
  }
  open(): void {
    this.readyState = 1;
    this.fire('open', {});
  }
  drop(code = 1006): void {
    this.readyState = 3;
    this.fire('close', { code });
  }
  reply(id: number, result: unknown): void {
    this.fire('message', { data: JSON.stringify({ type: 'reply', id, result }) });
  }
  push(message: unknown): void {
    this.fire('message', { data: JSON.stringify(message) });
  }
  private fire(type: string, event: unknown): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event as never);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const bridge = connectWebBridge({
    url: 'ws://127.0.0.1:1/ws?token=t',
    retryDelaysMs: [1],
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
  });
  const states: ConnectionState[] = [];
  bridge.api.on('connection', (state) => states.push(state));
  return { bridge, sockets, states };
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('web bridge', () => {
  it('queues requests until open, then matches replies by id', async () => {
    const { bridge, sockets, states } = setup();
    const pending = bridge.api.invoke('chats.list', {});
    expect(sockets[0]?.sent).toEqual([]);
    sockets[0]?.open();
    expect(states).toEqual([{ state: 'connected' }]);
    const sent = JSON.parse(sockets[0]?.sent[0] ?? '{}');
    expect(sent).toMatchObject({ type: 'invoke', channel: 'chats.list', request: {} });
    sockets[0]?.reply(sent.id, { ok: true, value: [] });
    await expect(pending).resolves.toEqual({ ok: true, value: [] });
    bridge.close();
  });

  it('delivers events and dialog events to their listeners', () => {
    const { bridge, sockets } = setup();
    sockets[0]?.open();
    const chat: unknown[] = [];
    const dialogs: unknown[] = [];
    const off = bridge.api.on('chat.event', (event) => chat.push(event));
    bridge.dialogs.onEvent((event) => dialogs.push(event));
    sockets[0]?.push({
      type: 'event',
      channel: 'chat.event',
      payload: { type: 'turn.started', chatId: 'c', turnId: 't' },
    });
    sockets[0]?.push({ type: 'dialog', event: { type: 'dialog.closed', id: 'd', reason: 'answered' } });
    off();
    sockets[0]?.push({
      type: 'event',
      channel: 'chat.event',
      payload: { type: 'turn.started', chatId: 'c', turnId: 'u' },
    });
    expect(chat).toEqual([{ type: 'turn.started', chatId: 'c', turnId: 't' }]);
    expect(dialogs).toEqual([{ type: 'dialog.closed', id: 'd', reason: 'answered' }]);
    bridge.close();
  });

  it('fails waiting requests as disconnected, reconnects, and says so', async () => {
    const { bridge, sockets, states } = setup();
    sockets[0]?.open();
    const lost = bridge.api.invoke('tools.list', {});
    sockets[0]?.drop();
    await expect(lost).resolves.toMatchObject({ ok: false, error: { code: 'disconnected' } });
    expect(states.at(-1)).toEqual({ state: 'reconnecting', attempt: 1 });
    await tick();
    expect(sockets).toHaveLength(2);
    sockets[1]?.open();
    expect(states.at(-1)).toEqual({ state: 'connected' });
    bridge.close();
  });

  it('never queues a secret: with no open socket it fails at once and nothing is sent later', async () => {
    const { bridge, sockets } = setup();
    const answer = await bridge.dialogs.answerSecret({
      id: 'd',
      answer: { kind: 'value', value: 'never-queued-123' },
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'disconnected' } });
    sockets[0]?.open();
    expect(sockets[0]?.sent.join('')).not.toContain('never-queued-123');
    const sentNow = bridge.dialogs.answerSecret({
      id: 'd',
      answer: { kind: 'value', value: 'sent-now-456' },
    });
    const message = JSON.parse(sockets[0]?.sent.at(-1) ?? '{}');
    expect(message).toMatchObject({
      type: 'dialog.secret',
      dialogId: 'd',
      answer: { kind: 'value', value: 'sent-now-456' },
    });
    sockets[0]?.reply(message.id, { ok: true, value: { accepted: true } });
    await expect(sentNow).resolves.toEqual({ ok: true, value: { accepted: true } });
    bridge.close();
  });

  it('stops for good when the host shuts down', async () => {
    const { bridge, sockets, states } = setup();
    sockets[0]?.open();
    sockets[0]?.drop(4000);
    await tick();
    expect(sockets).toHaveLength(1);
    expect(states.at(-1)).toEqual({ state: 'closed', reason: 'the app was stopped' });
    await expect(bridge.api.invoke('chats.list', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'disconnected' },
    });
  });

  // The token is no longer in the socket URL: the bridge opens it with a key derived from it (web-handshake.ts).
  it('builds the socket URL from the page URL, and hands the token over apart', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:4321', search: '?token=abc' })).toEqual({
      url: 'ws://127.0.0.1:4321/ws',
      token: 'abc',
    });
  });
});
