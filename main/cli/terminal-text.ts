// Text a model, a subagent, a tool or a server wrote, made safe to write to the person's terminal. What a terminal acts on instead of showing: C0 controls but tab and line feed, DEL, and the C1 controls (8-bit CSI,
// OSC…) become visible escapes. Carriage returns are dropped first, so a CRLF is one line break and a lone CR cannot
// overwrite a line.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` safe to write to a terminal: each control character becomes a visible `\u{001b}` escape. */
export function terminalText(text: string): string {
  return text
    .replace(/\r/g, '')
    .replace(TERMINAL_CONTROL, (char) => `\\u{${char.charCodeAt(0).toString(16).padStart(4, '0')}}`);
}
