// The plain text of a message that search indexes and snippets quote: what was said, not images or raw arguments.
import type { TranscriptMessage } from './transcript';

/** The searchable text of a transcript message: its text parts, tool result texts, one per line. */
export function messageText(message: TranscriptMessage): string {
  switch (message.role) {
    case 'user':
      return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    case 'assistant':
      return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    case 'tool_results':
      return message.results
        .flatMap((result) => result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
        .join('\n');
  }
}
