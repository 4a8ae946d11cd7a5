// Subagents end to end: a child chat with the child tool set, its calls still gated, its answer returned.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/gate-port';
import { policyGate } from '../core/gate-port';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

describe('subagents', () => {
  it('run a subtask in a child chat without ask_user, subagents or background tools; its tool calls still ask', async () => {
    const asked: ApprovalRequest[] = [];
    fixture = await chatFixture({
      gate: policyGate((request) => {
        asked.push(request);
        return { kind: 'allow', scope: 'once' };
      }),
    });
    const { server, service, store } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const call = (id: string, name: string, args: unknown) => ({
      toolCall: { id, name, args: JSON.stringify(args) },
    });
    server.enqueue(
      { events: openAiEvents([call('p1', 'find_tools', { query: 'select:subagents' })]) },
      {
        events: openAiEvents([
          call('p2', 'subagents', { tasks: [{ title: 'notes', prompt: 'write the notes file' }] }),
        ]),
      },
      {
        events: openAiEvents([
          call('c1', 'run_tool', { name: 'ask_user', args: { questions: [{ prompt: 'which?' }] } }),
          call('c2', 'write_result', { path: 'notes.md', content: 'child notes' }),
        ]),
      },
      { events: openAiEvents([{ text: 'child answer: notes written' }]) },
      { events: openAiEvents([{ text: 'parent done' }]) },
    );
    const result = await service.send(chat.id, 'delegate the notes');
    expect(result).toMatchObject({ status: 'completed', text: 'parent done' });

    const childRequest = server.requests[2]?.body;
    const childTools = (childRequest.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
    expect(childTools).not.toContain('ask_user');
    const runTool = childRequest.tools.find(
      (t: { function: { name: string } }) => t.function.name === 'run_tool',
    );
    for (const hidden of ['subagents', 'background_command', 'background_subagents', 'store_secret']) {
      expect(runTool.function.description).not.toMatch(new RegExp(`\\b${hidden}\\b`));
    }
    const childId = asked.find((r) => r.tool === 'write_result')?.chatId;
    expect(childId).toBeDefined();
    expect(childId).not.toBe(chat.id);
    expect(asked.map((r) => r.tool)).toEqual(['subagents', 'write_result']);
    expect(store.toolCalls.get(childId as string, 'c1')).toMatchObject({
      tool: 'ask_user',
      code: 'not_offered',
    });
    expect(fs.readFileSync(path.join(fixture.workspace, 'notes.md'), 'utf8')).toBe('child notes');
    const parentResult = JSON.stringify(server.requests[4]?.body.messages);
    expect(parentResult).toContain('child answer: notes written');
  });
});
