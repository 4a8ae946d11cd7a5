import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askUserTool } from './ask-user';
import type { ChatPort, Question, ResultFile, TodoItem } from '../sdk/chat-ports';
import { chatHistoryTool } from './chat-history';
import { testContext } from '../sdk/testing/tool-context';
import { NO_TOOL_TIMEOUT, ToolError } from '../sdk/types';
import { writeResultTool } from './write-result';
import { writeTodoTool } from './write-todo';

function memoryChat() {
  const todos = new Map<string, TodoItem[]>();
  const results: ResultFile[] = [];
  const entries = [
    { id: 1, kind: 'user' as const, at: 1, text: 'deploy the app please' },
    { id: 2, kind: 'tool_call' as const, at: 2, text: 'run_command npm run deploy → error: deploy error 42' },
  ];
  const chat: ChatPort = {
    setTodos: (id, items) => todos.set(id, items),
    getTodos: (id) => todos.get(id) ?? [],
    history: (_id, { query, limit, offset }) =>
      entries.filter((e) => !query || e.text.includes(query)).slice(offset, offset + limit),
    entry: (_id, n) => entries.find((e) => e.id === n),
    publishResult: (_id, r) => results.push(r),
  };
  return { chat, todos, results };
}

describe('fixed-set tools', () => {
  it('ask_user has no timeout, is alwaysAllow and systemUse, and returns the answers', async () => {
    expect(askUserTool.timeoutMs).toBe(NO_TOOL_TIMEOUT);
    expect(askUserTool.flags).toMatchObject({ alwaysAllow: true, systemUse: true });
    let asked: Question[] = [];
    const { ctx } = testContext({
      services: {
        askUser: {
          ask: async (_chat, questions) => {
            asked = questions;
            return { answered: true, answers: { q1: 'dev', q2: ['a', 'b'] } };
          },
        },
      },
    });
    const result = await askUserTool.handler(
      {
        questions: [
          { prompt: 'Which branch?', kind: 'single', options: ['main', 'dev'] },
          { prompt: 'Which files?', kind: 'multiple', options: ['a', 'b', 'c'] },
        ],
      },
      ctx,
    );
    expect(asked.map((q) => q.kind)).toEqual(['single', 'multiple']);
    expect(JSON.stringify(result)).toContain('Which branch?\\n→ dev');
    expect(JSON.stringify(result)).toContain('→ a, b');
  });

  it('ask_user returns at once when no one can answer, and rejects a choice without options', async () => {
    const { ctx } = testContext();
    expect(await askUserTool.handler({ questions: [{ prompt: 'Ok?' }] }, ctx)).toMatch(/No one can answer/);
    await expect(
      askUserTool.handler({ questions: [{ prompt: 'Pick', kind: 'single' }] }, ctx),
    ).rejects.toThrow(/questions.0.options/);
  });

  it('write_todo replaces the checklist through the chat port', async () => {
    const { chat, todos } = memoryChat();
    const { ctx } = testContext({ services: { chat } });
    const text = await writeTodoTool.handler(
      {
        items: [
          { text: 'Read logs', status: 'done' },
          { text: 'Fix bug', status: 'in_progress' },
          { text: 'Ship' },
        ],
      },
      ctx,
    );
    expect(text).toContain('(1/3 done)');
    expect(todos.get('test-chat')?.map((t) => t.status)).toEqual(['done', 'in_progress', 'pending']);
    expect(() => writeTodoTool.handler({ items: [{ status: 'done' }] }, ctx)).toThrow(ToolError);
  });

  it('chat_history lists, searches and reads entries', async () => {
    const { chat } = memoryChat();
    const { ctx } = testContext({ services: { chat } });
    expect(await chatHistoryTool.handler({}, ctx)).toContain('#2 tool_call');
    expect(await chatHistoryTool.handler({ mode: 'search', query: 'deploy error' }, ctx)).not.toContain('#1');
    expect(await chatHistoryTool.handler({ mode: 'read', id: 1 }, ctx)).toContain('deploy the app please');
    expect(() => chatHistoryTool.handler({ mode: 'read', id: 9 }, ctx)).toThrow(/no history entry with id 9/);
  });

  it('write_result writes inside the workspace only, atomically, and announces the file', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
    const { chat, results } = memoryChat();
    const { ctx } = testContext({ workspace, services: { chat } });
    await writeResultTool.handler({ path: 'out/report.md', content: '# Hi', title: 'Report' }, ctx);
    expect(fs.readFileSync(path.join(workspace, 'out/report.md'), 'utf8')).toBe('# Hi');
    expect(results).toEqual([{ path: path.join(workspace, 'out/report.md'), title: 'Report', bytes: 4 }]);
    await expect(writeResultTool.handler({ path: '../escape.md', content: 'x' }, ctx)).rejects.toThrow(
      /inside the workspace/,
    );
    await expect(writeResultTool.handler({ path: 'out/report.md', content: 'x' }, ctx)).rejects.toThrow(
      /already exists/,
    );
    await writeResultTool.handler({ path: 'out/report.md', content: 'new', overwrite: true }, ctx);
    expect(fs.readFileSync(path.join(workspace, 'out/report.md'), 'utf8')).toBe('new');
    expect(fs.readdirSync(path.join(workspace, 'out'))).toEqual(['report.md']);
  });
});
