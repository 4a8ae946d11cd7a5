// Drains a provider stream for tests: every event it yielded, and the error it ended with, if any.
import type { StreamEvent } from '../provider';

/** What one stream produced. */
export interface CollectedStream {
  events: StreamEvent[];
  error: unknown;
  /** The text deltas joined. */
  text: string;
}

/** Reads `stream` to its end or its error, never throwing. */
export async function collectStream(stream: AsyncIterable<StreamEvent>): Promise<CollectedStream> {
  const events: StreamEvent[] = [];
  let error: unknown;
  try {
    for await (const event of stream) events.push(event);
  } catch (caught) {
    error = caught;
  }
  const text = events.map((event) => (event.type === 'text' ? event.delta : '')).join('');
  return { events, error, text };
}
