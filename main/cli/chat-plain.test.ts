// Plain `agenvoy chat` (no --json) against a scripted model: each round's text on a line of its own, a subagent's
// text on stderr with its label (never in the answer), and a denial said once; --json keeps its event types.
import { describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { runCli } from './testing/cli-harness';
import { useScriptedChatPlace } from './testing/scripted-chat-place';

let home: string;
let cwd: string;
let server: ScriptedServer;
useScriptedChatPlace('plain', (place) => ({ home, cwd, server } = place));

const call = (id: string, name: string, args: unknown) => ({
  toolCall: { id, name, args: JSON.stringify(args) },
});

// Round 1 says something and loads subagents; round 2 delegates; the child answers in two lines; round 3 answers.
function delegatingTurn(): void {
  server.enqueue(
    {
      events: openAiEvents([
        { text: 'Let me delegate.' },
        call('p1', 'find_tools', { query: 'select:subagents' }),
      ]),
    },
    {
      events: openAiEvents([call('p2', 'subagents', { tasks: [{ title: 'notes', prompt: 'take notes' }] })]),
    },
    { events: openAiEvents([{ text: 'child line one\nchild line two' }]) },
    { events: openAiEvents([{ text: 'The answer.' }]) },
  );
}

describe('plain agenvoy chat', () => {
  it("puts each round's text on its own line and labels a subagent's text on stderr, out of the answer", async () => {
    delegatingTurn();
    const run = await runCli(['chat', 'delegate', '--approve', 'allow', '--workspace', cwd], { home, cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Let me delegate.\nThe answer.\n');
    expect(run.stderr).toContain('  [subagent notes] child line one\n  [subagent notes] child line two\n');
    expect(run.stderr).toMatch(/\[tool subagents started, limit 30 min\]/);
  });

  it('says a denial once', async () => {
    server.enqueue(
      { events: openAiEvents([call('p1', 'find_tools', { query: 'select:run_command' })]) },
      { events: openAiEvents([call('p2', 'run_command', { command: 'true' })]) },
      { events: openAiEvents([{ text: 'It was denied.' }]) },
    );
    const run = await runCli(['chat', 'run it', '--approve', 'deny', '--workspace', cwd], { home, cwd });
    expect(run.stderr).toContain(
      '[tool run_command: denied: this host runs without approvals (--approve deny)]\n',
    );
    expect(run.stderr).not.toContain('denied — denied');
    expect(run.stdout).toBe('It was denied.\n');
  });

  it('--json keeps every event type and the final answer in turn.finished', async () => {
    delegatingTurn();
    const run = await runCli(['chat', 'delegate', '--approve', 'allow', '--json', '--workspace', cwd], {
      home,
      cwd,
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; chatId: string; text?: string });
    const types = new Set(events.map((event) => event.type));
    for (const type of ['turn.started', 'message.started', 'text.delta', 'call.finished', 'turn.finished'])
      expect(types.has(type)).toBe(true);
    const top = events[0]?.chatId;
    expect(events.filter((e) => e.type === 'turn.finished' && e.chatId === top)).toMatchObject([
      { text: 'The answer.' },
    ]);
  });
});
