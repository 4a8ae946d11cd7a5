// Bounds on one model response (docs/robustness.md): the size of one event and of one tool call's arguments, the wait
// for the first byte of an event and between them. A stalled or runaway server ends the round with an error that names the
// setting, instead of hanging a turn or filling memory.
import { DEFAULT_TOOL_ARGUMENTS_BYTES } from '../../core/argument-size';
import { ProviderError } from './provider';
import { DEFAULT_MAX_EVENT_BYTES } from './sse';

/** The most parts (text runs, reasoning blocks, tool calls) one round may have (docs/robustness.md). */
export const MAX_ROUND_PARTS = 1000;

/**
 * The most characters of text, reasoning and tool-call arguments one round may stream (docs/robustness.md): about
 * 4,000 times a long answer, so only a server that ignores max_tokens and streams without end reaches it.
 */
export const MAX_ROUND_TEXT_CHARS = 16 * 1024 * 1024;

/**
 * Throws `too_large` once a response's open tool calls pass the round's bounds. They are held by the decoder until they
 * complete, before the round can count them: a server opening calls without end must not fill memory meanwhile.
 */
export function checkOpenCalls(count: number, chars: number): void {
  if (count > MAX_ROUND_PARTS) {
    throw new ProviderError(
      'too_large',
      `the model's answer has more than ${MAX_ROUND_PARTS} parts (text runs, reasoning blocks and tool calls); it was stopped there`,
    );
  }
  if (chars > MAX_ROUND_TEXT_CHARS) {
    throw new ProviderError(
      'too_large',
      `the model's answer has more than ${MAX_ROUND_TEXT_CHARS.toLocaleString('en-US')} characters of text, ` +
        'reasoning and tool-call arguments; it was stopped there',
    );
  }
}

/** The bounds a provider applies to each response. */
export interface StreamLimits {
  /** The most UTF-8 bytes one server-sent event may hold. */
  eventBytes: number;
  /** The longest wait from the request to the first byte of an event (comments do not count). */
  firstByteMs: number;
  /** The longest wait between two bytes once the answer has started. */
  idleMs: number;
  /** The most bytes of one tool call's arguments kept while they stream; past it they are dropped and counted. */
  toolCallBytes: number;
}

/** The defaults: 8 MiB per event, 300 s to the first event byte and between them, 1 MiB of tool-call arguments. */
export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = {
  eventBytes: DEFAULT_MAX_EVENT_BYTES,
  firstByteMs: 300_000,
  idleMs: 300_000,
  toolCallBytes: DEFAULT_TOOL_ARGUMENTS_BYTES,
};

/** The limits with a default for each one not given (or not a positive number). */
export function resolveStreamLimits(given: Partial<StreamLimits> = {}): StreamLimits {
  const pick = (key: keyof StreamLimits) => {
    const value = given[key];
    return typeof value === 'number' && Number.isFinite(value) && value > 0
      ? value
      : DEFAULT_STREAM_LIMITS[key];
  };
  return {
    eventBytes: pick('eventBytes'),
    firstByteMs: pick('firstByteMs'),
    idleMs: pick('idleMs'),
    toolCallBytes: pick('toolCallBytes'),
  };
}

/**
 * Aborts a request that waits too long for bytes of events (not comments): first for the first, then between them. It is paused while
 * the caller is busy with what arrived, so only the server's silence is timed. Events that carry none of the answer
 * (empty deltas, pings) are silence too: the server's time since the last one that did is summed, and checked as each
 * empty one ends (`quietTooLong`).
 */
export class StallTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private armedAt = 0;
  /** The server's time since the request or the last event that carried part of the answer. */
  private quietMs = 0;
  private answered = false;
  /** Which wait ran out, once one has. */
  fired: 'first_byte' | 'idle' | null = null;
  /** The wait ran out on events that carried nothing, not on silence. */
  private onlyEmpty = false;

  constructor(private readonly limits: Pick<StreamLimits, 'firstByteMs' | 'idleMs'>) {}

  /** Aborts when a wait runs out. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Starts the wait for the first byte (call before sending the request). */
  waitFirstByte(): void {
    this.arm('first_byte', this.limits.firstByteMs);
  }

  /** Starts the wait for the next byte (call when asking the body for more). */
  waitNext(): void {
    this.arm('idle', this.limits.idleMs);
  }

  /** Bytes arrived: no wait runs while the caller handles them. */
  pause(): void {
    this.clear();
  }

  /** An event carried part of the answer: the quiet time starts again. */
  answer(): void {
    this.answered = true;
    this.quietMs = 0;
  }

  /** After an event that carried nothing: true (and the wait counts as run out) once the quiet time passed its limit. */
  quietTooLong(): boolean {
    const limit = this.answered ? this.limits.idleMs : this.limits.firstByteMs;
    if (this.quietMs < limit) return false;
    this.fired = this.answered ? 'idle' : 'first_byte';
    this.onlyEmpty = true;
    return true;
  }

  /** Ends every wait (the response ended or failed). */
  stop(): void {
    this.clear();
  }

  /** The error for the wait that ran out, naming the setting. */
  error(label: string): ProviderError {
    const empty = this.onlyEmpty ? ' (only events without any of the answer)' : '';
    if (this.fired === 'first_byte') {
      return new ProviderError(
        'timeout',
        `${label}: no answer within ${seconds(this.limits.firstByteMs)} of the request${empty} ` +
          '(settings.json limits.providerFirstByteSeconds)',
      );
    }
    return new ProviderError(
      'timeout',
      `${label}: the stream stalled: nothing arrived for ${seconds(this.limits.idleMs)}${empty} ` +
        '(settings.json limits.providerIdleSeconds)',
    );
  }

  private arm(phase: 'first_byte' | 'idle', ms: number): void {
    this.clear();
    this.armedAt = Date.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.fired = phase;
      this.controller.abort(
        new Error(`stalled waiting for ${phase === 'first_byte' ? 'the first byte' : 'data'}`),
      );
    }, ms);
  }

  private clear(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.quietMs += Date.now() - this.armedAt;
    }
    this.timer = null;
  }
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(2))} s`;
}
