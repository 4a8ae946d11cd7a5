// Text a model, a subagent, a tool or a server wrote, made safe to write to the person's terminal. What a terminal acts on instead of showing: C0 controls but tab and line feed, DEL, and the C1 controls (8-bit CSI,
// OSC…) become visible escapes. Carriage returns are dropped first, so a CRLF is one line break and a lone CR cannot
// overwrite a line.
import { escapeControls } from '../../preload/contract/hidden-characters';

/** `text` safe to write to a terminal: each control character becomes a visible `\u{001b}` escape. */
export function terminalText(text: string): string {
  return escapeControls(text.replace(/\r/g, ''));
}
