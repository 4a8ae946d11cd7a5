// Request features some servers or models refuse (docs/agent-loop.md, "When a server refuses a feature"): prompt
// caching, thinking, reasoning effort, images. The first refusal — a 400 whose message names the feature *and* says it
// is not taken ("not supported", "Extra inputs are not permitted", "Unrecognized request argument") — gets the request
// once more without it, the person is told once in words, and that server (or model) is not sent it again while the
// app runs. A 400 that only mentions the feature (an image too large, an invalid thinking signature) is not a refusal.
// One level above withRetry, which retries transport failures only.
import type { StreamEvent } from './provider';
import { ProviderError } from './provider';

// How servers say a field or a feature is not taken (OpenAI, Anthropic and pydantic-based proxies, vLLM, LM Studio).
const NOT_TAKEN =
  /not (supported|permitted|allowed|recognized|recognised)|unsupported|unrecognized|unrecognised|unknown (field|parameter|argument)|extra (inputs|fields)|(does not|doesn't|do not) support|only supported|unexpected (field|keyword|parameter|argument)/;

/** One optional feature and where it was refused. */
export class OptionalFeature {
  private readonly refusedBy = new Set<string>();

  /**
   * @param label what the person is told was turned off ("prompt caching", "extended thinking")
   * @param names a refusal names one of these (case-insensitive), e.g. the request field
   * @param phrases what else counts as a refusal of it, whole ("image_url is only supported")
   */
  constructor(
    readonly label: string,
    private readonly names: readonly string[],
    private readonly phrases: readonly RegExp[] = [],
  ) {}

  /** Whether `scope` (a server's address, or address and model) has refused it. */
  refused(scope: string): boolean {
    return this.refusedBy.has(scope);
  }

  /** Remembers that `scope` refused it. */
  refuse(scope: string): void {
    this.refusedBy.add(scope);
  }

  /** Whether `error` is a refusal of this feature. */
  refusal(error: unknown): boolean {
    if (!(error instanceof ProviderError) || error.kind !== 'bad_request') return false;
    const message = error.message.toLowerCase();
    if (this.phrases.some((phrase) => phrase.test(message))) return true;
    return this.names.some((name) => message.includes(name.toLowerCase())) && NOT_TAKEN.test(message);
  }
}

/** A feature a request would use, and where a refusal is remembered. */
export interface FeatureUse {
  feature: OptionalFeature;
  /** Whether this request would use it. */
  wanted: boolean;
  /** The server's address, or address and model for what depends on the model (thinking, images). */
  scope: string;
}

/**
 * Streams `open(using)`, with `using` the wanted features not refused before. A refusal of one of them before any
 * event streamed drops it, says so once (a `feature_dropped` event naming the server) and opens again; at most once
 * per feature.
 */
export async function* streamWithFeatures(
  server: string,
  uses: readonly FeatureUse[],
  open: (using: (feature: OptionalFeature) => boolean) => AsyncIterable<StreamEvent>,
): AsyncGenerator<StreamEvent> {
  const using = new Set(uses.filter((u) => u.wanted && !u.feature.refused(u.scope)));
  for (;;) {
    let streamed = false;
    try {
      for await (const event of open((feature) => [...using].some((u) => u.feature === feature))) {
        streamed = true;
        yield event;
      }
      return;
    } catch (error) {
      const refused = streamed ? undefined : [...using].find((u) => u.feature.refusal(error));
      if (!refused) throw error;
      using.delete(refused);
      refused.feature.refuse(refused.scope);
      // Whole: a cut could split a secret the server echoed; the engine scrubs, then shortens (turn-engine.ts).
      const reason = (error as ProviderError).message;
      yield {
        type: 'feature_dropped',
        feature: refused.feature.label,
        message: `${server} refused ${refused.feature.label} (${reason}); the request went again without it, and will go without it while the app runs.`,
      };
    }
  }
}

/** Images, which a text-only model refuses. */
export const IMAGES = new OptionalFeature(
  'images',
  ['image_url', 'image input', 'images', 'vision'],
  [/image_url is only supported/, /not a multimodal model/, /(image|vision)( input)? (is )?not supported/],
);
