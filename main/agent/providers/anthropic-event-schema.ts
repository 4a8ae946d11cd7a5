// The zod schemas of Anthropic's streaming events (the JSON of one SSE `data:` line), told apart by `type`.
// Lenient where the API grows: unknown fields are accepted (and dropped), optional fields may be missing or null,
// and event types not listed here (ping, newer ones) are skipped by the decoder. Built once at load.
import { z } from 'zod';

const tokens = z.number().nullish();
const usage = z
  .object({
    input_tokens: tokens,
    output_tokens: tokens,
    cache_creation_input_tokens: tokens,
    cache_read_input_tokens: tokens,
  })
  .nullish();
const blockIndex = z.int();

/** The events the decoder reads. */
export const anthropicEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: z.object({ usage }).nullish() }),
  z.object({
    type: z.literal('content_block_start'),
    index: blockIndex,
    // text, tool_use, thinking, server tools…: only the fields read are checked.
    content_block: z.object({
      type: z.string(),
      id: z.string().nullish(),
      name: z.string().nullish(),
      text: z.string().nullish(),
      input: z.unknown().optional(),
      // thinking and redacted_thinking blocks.
      thinking: z.string().nullish(),
      signature: z.string().nullish(),
      data: z.string().nullish(),
    }),
  }),
  z.object({
    type: z.literal('content_block_delta'),
    index: blockIndex,
    // text_delta, input_json_delta, thinking, signature and citation deltas.
    delta: z.object({
      type: z.string(),
      text: z.string().nullish(),
      partial_json: z.string().nullish(),
      thinking: z.string().nullish(),
      signature: z.string().nullish(),
    }),
  }),
  z.object({ type: z.literal('content_block_stop'), index: blockIndex }),
  z.object({
    type: z.literal('message_delta'),
    delta: z.object({ stop_reason: z.string().nullish() }).nullish(),
    usage,
  }),
  z.object({ type: z.literal('message_stop') }),
  z.object({
    type: z.literal('error'),
    error: z.object({ type: z.string().nullish(), message: z.string().nullish() }).nullish(),
  }),
]);

/** Any event's `type`: read first, so an event type this client does not know is skipped, not refused. */
export const anthropicEventTypeSchema = z.object({ type: z.string() });

/** The event types the decoder reads. */
export const ANTHROPIC_EVENT_TYPES: ReadonlySet<string> = new Set(
  anthropicEventSchema.options.map((option) => option.shape.type.value),
);

/** An event as the schema hands it over. */
export type AnthropicEvent = z.infer<typeof anthropicEventSchema>;
/** Usage counts, in message_start and message_delta. */
export type AnthropicUsage = z.infer<typeof usage>;
/** A content block as it starts. */
export type BlockStart = Extract<AnthropicEvent, { type: 'content_block_start' }>['content_block'];
/** A content block's delta. */
export type BlockDelta = Extract<AnthropicEvent, { type: 'content_block_delta' }>['delta'];
