// The host-neutral app service: one handler per contract channel and one event stream; both bridges call it.
import type { EventChannel, EventPayload, InvokeChannel, Result } from '../../preload/contract';
import type { Emitter } from '../core/emitter';
import { adminHandlers } from './admin-handlers';
import { chatHandlers } from './chat-handlers';
import type { Handler, HostContext } from './host-context';
import { fail, ok, toFailure } from './host-error';
import { updateHandlers } from './update-handlers';

/** One event on one channel, as a bridge forwards it. */
export type HostEvent = { [E in EventChannel]: { channel: E; payload: EventPayload<E> } }[EventChannel];

/** Answers invoke channels with Results and streams events; channel names and requests are untrusted. */
export class AppService {
  private readonly handlers: { [C in InvokeChannel]: Handler<C> };

  constructor(
    private readonly ctx: HostContext,
    private readonly events: Emitter<HostEvent>,
  ) {
    this.handlers = { ...chatHandlers(ctx), ...adminHandlers(ctx), ...updateHandlers(ctx) };
  }

  /** Whether `channel` is an invoke channel of the contract. */
  has(channel: unknown): channel is InvokeChannel {
    return typeof channel === 'string' && Object.hasOwn(this.handlers, channel);
  }

  /** Runs a channel's handler; every failure comes back as `{ ok: false, error }`, redacted. */
  async invoke(channel: unknown, request: unknown): Promise<Result<unknown>> {
    if (!this.has(channel)) return fail('invalid_request', `unknown channel ${JSON.stringify(channel)}`);
    const redact = (text: string) => this.ctx.core.redactor.redact(text);
    try {
      const handler = this.handlers[channel] as (request: unknown) => unknown;
      const value = await handler(request);
      return ok(this.ctx.core.redactor.redactDeep(value));
    } catch (error) {
      return toFailure(error, redact);
    }
  }

  /** Subscribes to every event of every channel; returns the unsubscribe. */
  on(listener: (event: HostEvent) => void): () => void {
    return this.events.on(listener);
  }
}
