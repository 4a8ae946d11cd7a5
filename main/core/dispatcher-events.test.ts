// Events are built only while someone listens, and the tool's logger is made on first use: both must still behave
// as if they were always there.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/sdk/types';
import type { CallEvent } from './dispatcher';
import { testCore } from './testing/test-core';

const scope = { chatId: 'c1', workspace: '/tmp' };

const chatty = defineTool({
  name: 'chatty_tool',
  description: 'Log, report progress and echo.\nUse when testing.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  flags: { alwaysAllow: true },
  handler: (args, ctx) => {
    ctx.progress({ message: `working on ${String(args.text)}` });
    ctx.log.info('chatty ran', { text: args.text });
    return String(args.text);
  },
});

const call = (id: string) => ({ id, name: 'chatty_tool', args: { text: `sk-canary-${id}` } });

describe('Dispatcher events and the tool logger', () => {
  it('delivers every event to each listener while subscribed, and none after', async () => {
    const core = testCore([chatty]);
    core.redactor.add('SECRET', 'sk-canary-2');
    await core.dispatcher.dispatch(call('1'), scope); // nobody listens
    const first: CallEvent[] = [];
    const second: CallEvent[] = [];
    const offFirst = core.dispatcher.on((e) => first.push(e));
    const offSecond = core.dispatcher.on((e) => second.push(e));
    await core.dispatcher.dispatch(call('2'), scope);
    const kinds = ['call.queued', 'call.started', 'call.progress', 'call.finished'];
    expect(first.map((e) => e.type)).toEqual(kinds);
    expect(second.map((e) => e.type)).toEqual(kinds);
    // Arguments, progress and outcome arrive redacted.
    expect(JSON.stringify(first)).not.toContain('sk-canary-2');
    expect(JSON.stringify(first)).toContain('[redacted:SECRET]');
    offFirst();
    offFirst(); // a second undo must not silence the remaining listener
    await core.dispatcher.dispatch(call('3'), scope);
    expect(first).toHaveLength(4);
    expect(second.map((e) => e.callId)).toEqual([...kinds.map(() => '2'), ...kinds.map(() => '3')]);
    offSecond();
    await core.dispatcher.dispatch(call('4'), scope);
    expect(second).toHaveLength(8);
  });

  it('gives the handler a logger whose lines carry the tool and the call, secrets redacted', async () => {
    const core = testCore([chatty]);
    core.redactor.add('SECRET', 'sk-canary-7');
    expect(await core.dispatcher.dispatch(call('7'), scope)).toMatchObject({ outcome: 'ok' });
    const log = core.readLog();
    expect(log).toMatch(/INFO chatty ran text=\[redacted:SECRET\] tool=chatty_tool call=7/);
    expect(log).not.toContain('sk-canary-7');
  });
});
