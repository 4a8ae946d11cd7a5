// An MCP tools/call result as a tool result: text joined, images and resources kept as parts, isError an error,
// everything capped at 1 MiB with one note of how much was cut (docs/dispatch.md, "Output caps").
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, ToolResult } from '../../../tools/sdk/types';
import { ToolError } from '../../../tools/sdk/types';
import { capText, MAX_RESULT_BYTES } from '../../core/outcome';
import { MAX_SCHEMA_DEPTH } from '../../core/schema-bounds';

/** Turns a result into content parts; throws ToolError('mcp_tool_error') for `isError` results. */
export function toToolResult(result: CallToolResult, maxBytes: number = MAX_RESULT_BYTES): ToolResult {
  const content = result.content ?? [];
  let parts = content.map(toPart);
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  const legacy = (result as { toolResult?: unknown }).toolResult;
  let structured: unknown = result.structuredContent ?? legacy;
  // docs/security.md, "A hostile MCP server": structure nested past the bound is not kept. JSON.parse reads any depth,
  // but what walks a result later (JSON.stringify of the outcome, structured clone) would overflow the stack.
  if (structured !== undefined && deeperThan(structured, MAX_SCHEMA_DEPTH)) {
    structured = undefined;
    parts.push({
      type: 'text',
      text: `[structured content not kept: nested deeper than ${MAX_SCHEMA_DEPTH} levels; the limit is ${MAX_SCHEMA_DEPTH}]`,
    });
  }
  // A result that carries only structured data still needs something the model can read.
  if (parts.length === 0 && structured !== undefined)
    parts = [{ type: 'text', text: JSON.stringify(structured) }];
  if (result.isError === true) {
    const text = parts
      .filter((p): p is Extract<ContentPart, { type: 'text' }> => p.type === 'text')
      .map((p) => p.text)
      .join('\n');
    throw new ToolError(
      'mcp_tool_error',
      capText(text.trim() || 'the MCP tool reported an error without a message', maxBytes),
    );
  }
  const capped = capContent(parts, maxBytes);
  return structured === undefined ? { content: capped } : { content: capped, data: structured };
}

// Room kept inside the cap for the one note that says what was cut.
const NOTE_ROOM = 128;

/**
 * Keeps parts in order within `maxBytes`, note included: the text part that crosses the cap keeps its head, later
 * parts are dropped, and one note says how much was cut (one note per output, never a second cut later).
 */
export function capContent(parts: ContentPart[], maxBytes: number = MAX_RESULT_BYTES): ContentPart[] {
  // Most results are far under the cap: a bound from string lengths spares measuring every byte of them.
  if (parts.reduce((sum, part) => sum + partBytesAtMost(part), 0) <= maxBytes) return parts;
  const sizes = parts.map(partBytes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return parts;
  const budget = Math.max(0, maxBytes - NOTE_ROOM);
  const kept: ContentPart[] = [];
  let used = 0;
  let index = 0;
  for (; index < parts.length && used + (sizes[index] as number) <= budget; index++) {
    kept.push(parts[index] as ContentPart);
    used += sizes[index] as number;
  }
  const crossing = parts[index];
  if (crossing?.type === 'text' && budget > used) {
    const head = utf8Head(crossing.text, budget - used);
    const headBytes = Buffer.byteLength(head);
    const more = parts.length - index - 1;
    const cut = total - used - headBytes;
    const also = more > 0 ? `, with ${more} more part${more === 1 ? '' : 's'}` : '';
    kept.push({
      type: 'text',
      text: `${head}\n[output truncated: ${cut.toLocaleString('en-US')} bytes cut${also}]`,
    });
    return kept;
  }
  const count = parts.length - index;
  const dropped = total - used;
  kept.push({
    type: 'text',
    text: `[output truncated: ${count} more part${count === 1 ? '' : 's'} (${dropped.toLocaleString('en-US')} bytes) cut]`,
  });
  return kept;
}

// The longest start of `text` within `maxBytes` of UTF-8 that does not split a character.
function utf8Head(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  let end = Math.min(maxBytes, bytes.length);
  // Back over continuation bytes (10xxxxxx) to a character boundary.
  while (end > 0 && end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

function toPart(block: ContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', mimeType: block.mimeType, data: block.data };
    case 'audio':
      // The agent loop has no audio part to pass on: say what was there instead of dropping it silently.
      return {
        type: 'text',
        text: `[audio (${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes) not shown]`,
      };
    case 'resource': {
      const { resource } = block;
      const part: ContentPart = { type: 'resource', uri: resource.uri };
      if (resource.mimeType !== undefined) part.mimeType = resource.mimeType;
      if ('text' in resource && typeof resource.text === 'string') part.text = resource.text;
      if ('blob' in resource && typeof resource.blob === 'string') part.blob = resource.blob;
      return part;
    }
    case 'resource_link': {
      const details = [block.mimeType, block.description].filter(Boolean).join('; ');
      return {
        type: 'text',
        text: `[resource link] ${block.name}: ${block.uri}${details ? ` (${details})` : ''}`,
      };
    }
  }
}

/** Whether `value` nests objects and arrays deeper than `max`; iterative, and it stops at the first too deep. */
export function deeperThan(value: unknown, max: number): boolean {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop() as number;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

function partBytes(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return Buffer.byteLength(part.text);
    case 'image':
      return part.data.length;
    case 'resource':
      return part.uri.length + Buffer.byteLength(part.text ?? '') + (part.blob?.length ?? 0);
  }
}

// An upper bound of partBytes from string lengths alone (a UTF-16 unit is at most 3 bytes of UTF-8).
function partBytesAtMost(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return part.text.length * 3;
    case 'image':
      return part.data.length;
    case 'resource':
      return part.uri.length + (part.text?.length ?? 0) * 3 + (part.blob?.length ?? 0);
  }
}
