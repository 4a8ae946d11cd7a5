// The zod schema of one Chat Completions stream chunk (the JSON of one SSE `data:` line). Lenient where servers
// differ: unknown fields are accepted (and dropped), optional fields may be missing or null; a field the decoder
// reads must have the type it reads. Built once at load; each chunk is one safeParse.
import { z } from 'zod';

const toolCallFragment = z.object({
  index: z.int().nullish(),
  id: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const choice = z.object({
  delta: z
    .object({
      content: z.string().nullish(),
      // DeepSeek, Qwen and vLLM stream reasoning as reasoning_content; OpenRouter and Ollama as reasoning.
      reasoning_content: z.string().nullish(),
      reasoning: z.string().nullish(),
      tool_calls: z.array(toolCallFragment).nullish(),
    })
    .nullish(),
  finish_reason: z.string().nullish(),
});

// OpenRouter and others report failures mid-stream as an error chunk, with an HTTP-like code; Ollama as a string.
const streamError = z.union([
  z.string(),
  z.object({
    message: z.string().nullish(),
    code: z.union([z.number(), z.string()]).nullish(),
    type: z.string().nullish(),
  }),
]);

/** One chunk: its first choice's delta, the usage (often in a last chunk with no choices), or an error. */
export const openAiChunkSchema = z.object({
  choices: z.array(choice).nullish(),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      // OpenAI and OpenRouter: the cached part of prompt_tokens (OpenRouter also the part written to a cache).
      prompt_tokens_details: z
        .object({ cached_tokens: z.number().nullish(), cache_write_tokens: z.number().nullish() })
        .nullish(),
      // DeepSeek: prompt_tokens split into cache hits and misses.
      prompt_cache_hit_tokens: z.number().nullish(),
    })
    .nullish(),
  error: streamError.nullish(),
});

/** A chunk as the schema hands it over. */
export type OpenAiChunk = z.infer<typeof openAiChunkSchema>;
/** One tool-call fragment of a delta. */
export type ToolCallFragment = z.infer<typeof toolCallFragment>;
/** An in-stream error. */
export type OpenAiStreamError = z.infer<typeof streamError>;
