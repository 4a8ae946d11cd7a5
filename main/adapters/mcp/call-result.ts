// An MCP tools/call result as a tool result: text joined, images and resources kept as parts, isError an error,
// everything capped at 1 MiB with a note of how much was cut (SPEC §10).
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, ToolResult } from '../../../tools/types';
import { ToolError } from '../../../tools/types';
import { capText, MAX_RESULT_BYTES } from '../../core/outcome';

/** Turns a result into content parts; throws ToolError('mcp_tool_error') for `isError` results. */
export function toToolResult(result: CallToolResult, maxBytes: number = MAX_RESULT_BYTES): ToolResult {
  const content = result.content ?? [];
  let parts = content.map(toPart);
  // Servers on the 2024-10-07 protocol answer with `toolResult` instead of content.
  const legacy = (result as { toolResult?: unknown }).toolResult;
  const structured = result.structuredContent ?? legacy;
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

/** Keeps parts in order until `maxBytes`; the text part that crosses it is cut with a note, later parts dropped. */
export function capContent(parts: ContentPart[], maxBytes: number = MAX_RESULT_BYTES): ContentPart[] {
  const sizes = parts.map(partBytes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxBytes) return parts;
  const kept: ContentPart[] = [];
  let used = 0;
  let index = 0;
  for (; index < parts.length; index++) {
    const part = parts[index] as ContentPart;
    const size = sizes[index] as number;
    if (used + size <= maxBytes) {
      kept.push(part);
      used += size;
      continue;
    }
    if (part.type === 'text' && maxBytes - used > 0) {
      // capText adds its own note for the bytes it cuts from this part.
      kept.push({ type: 'text', text: capText(part.text, maxBytes - used) });
      used = maxBytes;
      index++;
    }
    break;
  }
  const dropped = sizes.slice(index).reduce((sum, size) => sum + size, 0);
  if (dropped > 0) {
    const count = parts.length - index;
    kept.push({
      type: 'text',
      text: `[output truncated: ${count} more part${count === 1 ? '' : 's'} (${dropped.toLocaleString('en-US')} bytes) cut]`,
    });
  }
  return kept;
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
