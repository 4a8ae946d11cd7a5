// Call outcomes (docs/tools.md, "How a tool is shown"): ok | error | timed_out | cancelled | denied, and how handler results become them.
import type { ContentPart, CredentialReason, ToolResult } from '../../tools/sdk/types';
import { CredentialError, ToolError } from '../../tools/sdk/types';

/** The largest text a result carries before it is cut with a note. */
export const MAX_RESULT_BYTES = 1024 * 1024;

/**
 * The most content parts a result carries; past it the rest is cut with a note. The byte caps count what parts hold,
 * not how many there are: 150,000 empty images of an MCP result are 7 MB of JSON within every cap, and each became a
 * line in every later request of the chat, 14 MB of them (docs/dispatch.md, "Output caps").
 */
export const MAX_RESULT_PARTS = 1000;

/** How one call ended. `message` is what the model reads for everything but ok. */
export type CallOutcome =
  | { outcome: 'ok'; text: string; content: ContentPart[]; data?: unknown; durationMs: number }
  | {
      outcome: 'error';
      code: string;
      message: string;
      durationMs: number;
      credential?: { key: string; reason: CredentialReason };
    }
  | { outcome: 'timed_out'; message: string; limitMs: number; durationMs: number }
  | { outcome: 'cancelled'; message: string; durationMs: number }
  | { outcome: 'denied'; message: string; reason?: string };

/** The outcome kinds, for exhaustive switches and CLI output. */
export type OutcomeKind = CallOutcome['outcome'];

/** An error outcome that never ran (unknown tool, invalid arguments, not loaded). */
export function errorOutcome(code: string, message: string): CallOutcome {
  return { outcome: 'error', code, message, durationMs: 0 };
}

/** Turns whatever a handler returned into an ok outcome, capping text at MAX_RESULT_BYTES. */
export function okOutcome(result: ToolResult, durationMs: number): CallOutcome {
  const content: ContentPart[] =
    typeof result === 'string'
      ? [{ type: 'text', text: result }]
      : Array.isArray(result?.content)
        ? result.content
        : [{ type: 'text', text: JSON.stringify(result) ?? '' }];
  // One pass (every call's result comes through here): text parts copied with their text capped, and joined.
  const parts = limitParts(content);
  const capped: ContentPart[] = [];
  let text = '';
  let texts = 0;
  for (const part of parts) {
    const kept: ContentPart = part.type === 'text' ? { ...part, text: capText(part.text) } : boundType(part);
    capped.push(kept);
    if (kept.type !== 'text') continue;
    text = texts++ === 0 ? kept.text : `${text}\n${kept.text}`;
  }
  const data = typeof result === 'string' ? undefined : result?.data;
  return data === undefined
    ? { outcome: 'ok', text, content: capped, durationMs }
    : { outcome: 'ok', text, content: capped, data, durationMs };
}

/**
 * The longest type (`image/png`) a part may name. The byte caps count an image's data, not its type, which an MCP
 * server may make megabytes long; every request that leaves the image out names it by its type
 * (main/adapters/mcp/content-type-attack.test.ts).
 */
export const MAX_PART_TYPE_CHARS = 255;

// An image or resource with a type past the limit, as a note saying so.
function boundType(part: ContentPart): ContentPart {
  if (part.type === 'text' || part.mimeType === undefined || part.mimeType.length <= MAX_PART_TYPE_CHARS)
    return part;
  const length = part.mimeType.length.toLocaleString('en-US');
  return {
    type: 'text',
    text: `[${part.type} not kept: its type is ${length} characters long; the limit is ${MAX_PART_TYPE_CHARS}]`,
  };
}

// The first MAX_RESULT_PARTS - 1 parts and a note of how many more were cut.
function limitParts(content: ContentPart[]): ContentPart[] {
  if (content.length <= MAX_RESULT_PARTS) return content;
  const kept = content.slice(0, MAX_RESULT_PARTS - 1);
  const cut = content.length - kept.length;
  const note = `[output truncated: ${cut.toLocaleString('en-US')} more parts cut; a result holds at most ${MAX_RESULT_PARTS.toLocaleString('en-US')}]`;
  return [...kept, { type: 'text', text: note }];
}

/**
 * Turns a thrown value into an error outcome with a stable code. Its message is capped like result text: an MCP
 * server's JSON-RPC error may be 10 MiB, and the chat's history kept it for every later request
 * (docs/dispatch.md, "Output caps"; main/adapters/mcp/long-error-attack.test.ts).
 */
export function thrownOutcome(error: unknown, durationMs: number): CallOutcome {
  if (error instanceof CredentialError) {
    return {
      outcome: 'error',
      code: error.code,
      message: capText(error.message),
      durationMs,
      credential: { key: error.key, reason: error.reason },
    };
  }
  if (error instanceof ToolError)
    return { outcome: 'error', code: error.code, message: capText(error.message), durationMs };
  const message = error instanceof Error ? error.message : String(error);
  return { outcome: 'error', code: 'tool_failed', message: capText(`tool failed: ${message}`), durationMs };
}

/** Cuts text past `max` bytes, with a note saying how much was cut. */
export function capText(text: string, max = MAX_RESULT_BYTES): string {
  // A UTF-16 unit is at most 3 bytes of UTF-8: text this short is under the cap without being measured.
  if (text.length * 3 <= max) return text;
  const bytes = Buffer.byteLength(text);
  if (bytes <= max) return text;
  const kept = Buffer.from(text)
    .subarray(0, max)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}\n[output truncated: ${(bytes - Buffer.byteLength(kept)).toLocaleString('en-US')} bytes cut]`;
}

/** The text the model reads for an outcome. */
export function outcomeText(outcome: CallOutcome): string {
  switch (outcome.outcome) {
    case 'ok':
      return outcome.text;
    case 'error':
    case 'timed_out':
    case 'cancelled':
    case 'denied':
      return outcome.message;
  }
}
