// Scripted model answers in OpenAI's streaming wire format: text, tool calls, and loading a tool's schema first.
import type { ScriptedResponse } from '../../main/agent/providers/testing/scripted-server';
import { openAiEvents } from '../../main/agent/providers/testing/openai-test-server';

let callCounter = 0;

/** An answer that streams `text`, `chunkSize` characters every `delayMs`. */
export function say(text: string, options: { delayMs?: number; chunkSize?: number } = {}): ScriptedResponse {
  return {
    events: openAiEvents([{ text }], { chunkSize: options.chunkSize ?? 8 }),
    delayMs: options.delayMs ?? 5,
  };
}

/** An answer with one or more tool calls (after optional text). */
export function callTools(
  calls: Array<{ name: string; args: Record<string, unknown> }>,
  text?: string,
): ScriptedResponse {
  const blocks = [
    ...(text ? [{ text }] : []),
    ...calls.map((c) => ({
      toolCall: { id: `call_${++callCounter}`, name: c.name, args: JSON.stringify(c.args) },
    })),
  ];
  return { events: openAiEvents(blocks), delayMs: 2 };
}

/** One tool call. */
export function callTool(name: string, args: Record<string, unknown>, text?: string): ScriptedResponse {
  return callTools([{ name, args }], text);
}

/** find_tools(select:…): loads the schemas so the model may call those tools directly (docs/tools.md, "Tool discovery"). */
export function loadTools(...names: string[]): ScriptedResponse {
  return callTool('find_tools', { mode: 'search', query: `select:${names.join(',')}` });
}

/** The tool results a recorded request sent back to the model (OpenAI `role: tool` messages). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- recorded wire bodies are walked freely
export function toolMessages(body: any): string[] {
  const messages: Array<{ role: string; content: unknown }> = body?.messages ?? [];
  return messages
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}
