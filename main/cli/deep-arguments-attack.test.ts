// Tool-call arguments nested without end (docs/robustness.md, "Limits on what the model sends"): 100,000 levels of
// `[` in a free-form object argument are 200 KB, well within limits.toolArgumentsBytes, and JSON.parse reads them.
// Everything after it that writes them back recursed: the `call.queued` event a host prints or shows, the database row
// of the call, the tool itself ("tool failed: Maximum call stack size exceeded"), after seconds of work per call. So a
// call was approved and answered that no card, no `--json` line and no history row showed. Arguments nested past
// MAX_ARGUMENT_DEPTH are now refused before they are parsed, and the call is shown and recorded like any other.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH } from '../core/argument-size';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { runCli } from './testing/cli-harness';
import { useScriptedChatPlace } from './testing/scripted-chat-place';

let home: string;
let cwd: string;
let server: ScriptedServer;
useScriptedChatPlace('deep', (place) => ({ home, cwd, server } = place));

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

async function chatWith(name: string, args: string) {
  server.enqueue(
    { events: openAiEvents([{ toolCall: { id: 'deep', name, args } }]) },
    { events: openAiEvents([{ text: 'done' }]) },
  );
  const run = await runCli(['chat', 'go', '--json', '--approve', 'allow', '--workspace', cwd], { home, cwd });
  const events = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; callId?: string; outcome?: { message?: string } });
  const result = (server.requests[1]?.body?.messages as Array<{ role: string; content: string }>).find(
    (m) => m.role === 'tool',
  )?.content;
  return { run, events, result };
}

describe('tool-call arguments nested without end', () => {
  it('a free-form argument 100,000 levels deep is refused, and the call is still shown', async () => {
    const args = `{"output":"out.html","template":"<p>hi</p>","data":{"a":${nested(100_000)}}}`;
    const { run, events, result } = await chatWith('html_template', args);
    expect(run.code).toBe(0);
    expect(result).toContain(`nested deeper than ${MAX_ARGUMENT_DEPTH} levels`);
    expect(events.some((e) => e.type === 'call.queued' && e.callId === 'deep')).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'out.html'))).toBe(false);
  }, 60_000);

  it('deep arguments to an unknown tool: the call is shown, the answer names the depth', async () => {
    const { events, result } = await chatWith('no_such_tool', `{"a":${nested(100_000)}}`);
    expect(result).toContain(`nested deeper than ${MAX_ARGUMENT_DEPTH} levels`);
    expect(events.some((e) => e.type === 'call.queued' && e.callId === 'deep')).toBe(true);
  }, 60_000);

  it('arguments at the bound still run', async () => {
    // The object itself is one level, data another: the array fills the rest.
    const args = `{"output":"out.html","template":"<p>hi</p>","data":{"a":${nested(MAX_ARGUMENT_DEPTH - 2)}}}`;
    const { result } = await chatWith('html_template', args);
    expect(result).not.toContain('nested deeper');
    expect(fs.existsSync(path.join(cwd, 'out.html'))).toBe(true);
  }, 60_000);
});
