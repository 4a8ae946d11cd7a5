import { describe, expect, it } from 'vitest';
import { defineTool } from '../../tools/sdk/types';
import {
  argumentBytes,
  argumentsTooLargeMessage,
  formatBytes,
  omittedArgumentsMarker,
} from './argument-size';
import type { CallEvent } from './dispatcher';
import { testCore } from './testing/test-core';

describe('argument sizes', () => {
  it('reads sizes as people do, limits without a needless .0', () => {
    expect(formatBytes(20 * 1024 * 1024)).toBe('20.0 MiB');
    expect(formatBytes(20_000_000)).toBe('19.1 MiB');
    expect(formatBytes(1024 * 1024, true)).toBe('1 MiB');
    expect(formatBytes(1536 * 1024, true)).toBe('1.5 MiB');
    expect(formatBytes(3000)).toBe('2.9 KiB');
    expect(formatBytes(900)).toBe('900 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(argumentsTooLargeMessage({ bytes: 20 * 1024 * 1024, limit: 1024 * 1024 })).toBe(
      'arguments too large: 20.0 MiB (limit 1 MiB)',
    );
    expect(JSON.parse(omittedArgumentsMarker({ bytes: 5000, limit: 4096 }))).toEqual({
      _omitted: 'arguments too large: 4.9 KiB (limit 4 KiB)',
    });
  });

  it('measures text in UTF-8 bytes and objects as JSON; an object that cannot be JSON is null', () => {
    expect(argumentBytes('é')).toBe(2);
    expect(argumentBytes({ a: 'é' })).toBe(10);
    expect(argumentBytes(undefined)).toBe(0);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(argumentBytes(cycle)).toBeNull();
  });
});

describe('the dispatcher refuses oversized arguments before anything else looks at them', () => {
  const echo = defineTool({
    name: 'echo_args',
    description: 'Echo.\nUse when testing.',
    parameters: { type: 'object', properties: {}, additionalProperties: true },
    flags: { alwaysAllow: true },
    handler: () => 'ran',
  });

  it('as text, as an object, flagged from the stream, and as an object that cannot be JSON', async () => {
    const core = testCore([echo]);
    const events: CallEvent[] = [];
    core.dispatcher.on((e) => events.push(e));
    const scope = { chatId: 'c', workspace: '/tmp' };
    const big = 'SECRETPAYLOAD'.padEnd(2 * 1024 * 1024, 'q');
    const asText = await core.dispatcher.dispatch(
      { id: '1', name: 'echo_args', args: JSON.stringify({ big }) },
      scope,
    );
    expect(asText).toMatchObject({
      outcome: 'error',
      code: 'arguments_too_large',
      message: 'arguments too large: 2.0 MiB (limit 1 MiB)',
    });
    const asObject = await core.dispatcher.dispatch({ id: '2', name: 'echo_args', args: { big } }, scope);
    expect(asObject).toMatchObject({ code: 'arguments_too_large' });
    const flagged = await core.dispatcher.dispatch(
      { id: '3', name: 'echo_args', args: '', tooLarge: { bytes: 30 * 1024 * 1024, limit: 1024 * 1024 } },
      scope,
    );
    expect(flagged).toMatchObject({ message: 'arguments too large: 30.0 MiB (limit 1 MiB)' });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(await core.dispatcher.dispatch({ id: '4', name: 'echo_args', args: cycle }, scope)).toMatchObject({
      code: 'invalid_arguments',
    });
    expect(
      await core.dispatcher.dispatch({ id: '5', name: 'echo_args', args: { small: 1 } }, scope),
    ).toMatchObject({
      outcome: 'ok',
    });
    // Nothing of the big arguments reached an event or the log.
    expect(JSON.stringify(events)).not.toContain('SECRETPAYLOAD');
    expect(core.readLog()).not.toContain('SECRETPAYLOAD');
  });
});
