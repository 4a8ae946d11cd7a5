// A request field some servers refuse (docs/agent-loop.md, "Prompt caching"): the first refusal — a 400 whose message
// names the field — gets the request once more without it, and that endpoint is not sent it again while the app runs.
// One level above withRetry, which retries transport failures only.
import { ProviderError } from './provider';

/** One optional request field and the endpoints that refused it. */
export class OptionalFeature {
  private readonly refusedBy = new Set<string>();

  constructor(private readonly field: string) {}

  /** Streams `open(true)` when `wanted` and `url` has not refused the field, falling back to `open(false)` once. */
  async *stream<T>(
    url: string,
    wanted: boolean,
    open: (withField: boolean) => AsyncIterable<T>,
  ): AsyncGenerator<T> {
    const using = wanted && !this.refusedBy.has(url);
    try {
      yield* open(using);
    } catch (error) {
      if (!using || !this.refuses(error)) throw error;
      this.refusedBy.add(url);
      yield* open(false);
    }
  }

  private refuses(error: unknown): boolean {
    return (
      error instanceof ProviderError &&
      error.kind === 'bad_request' &&
      error.message.toLowerCase().includes(this.field.toLowerCase())
    );
  }
}
