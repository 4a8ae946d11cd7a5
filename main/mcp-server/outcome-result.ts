// A dispatcher outcome as an MCP tools/call result: ok content passes on, every other outcome is an error result
// whose text is what our own model would read.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart } from '../../tools/sdk/types';
import type { CallOutcome } from '../core/outcome';

type Block = CallToolResult['content'][number];

/** Maps an outcome to a tools/call result. */
export function outcomeToResult(outcome: CallOutcome): CallToolResult {
  switch (outcome.outcome) {
    case 'ok': {
      const result: CallToolResult = { content: outcome.content.map(toBlock) };
      if (
        outcome.data !== undefined &&
        outcome.data !== null &&
        typeof outcome.data === 'object' &&
        !Array.isArray(outcome.data)
      ) {
        result.structuredContent = outcome.data as Record<string, unknown>;
      }
      return result;
    }
    case 'error':
      return errorResult(`error [${outcome.code}]: ${outcome.message}`);
    case 'timed_out':
    case 'cancelled':
    case 'denied':
      return errorResult(`${outcome.outcome}: ${outcome.message}`);
  }
}

/** An error result carrying `text`. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function toBlock(part: ContentPart): Block {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image', data: part.data, mimeType: part.mimeType };
    case 'resource': {
      const base =
        part.mimeType === undefined ? { uri: part.uri } : { uri: part.uri, mimeType: part.mimeType };
      if (part.blob !== undefined) return { type: 'resource', resource: { ...base, blob: part.blob } };
      return { type: 'resource', resource: { ...base, text: part.text ?? '' } };
    }
  }
}
