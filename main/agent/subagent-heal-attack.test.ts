// Prompt spam through subagents (docs/secrets.md, "Credential auto-heal"): at most two credential prompts per tool per
// turn, counted in the turn's HealBudget. A subagent's child chat ran a turn of its own with a fresh budget, so a model
// that handed one failing tool to ten subagents opened up to twenty masked prompts from one `subagents` call, and as
// many again with every further call in the same turn, each declined one followed by the next. Through the real chat
// stack (ChatService, TurnEngine, the core's BatchExecutor), a real global script tool, a scripted model.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_HEAL_ROUNDS } from '../core/heal-budget';
import type { CredentialHealer } from '../core/heal-budget';
import { openAiEvents, openAiErrorBody } from './providers/testing/openai-test-server';
import { startScriptedServer } from './providers/testing/scripted-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture, writeScriptTool } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const LEGS = 4;
const call = (id: string, name: string, args: unknown) => ({
  toolCall: { id, name, args: JSON.stringify(args) },
});

// The parent loads subagents and hands the failing tool to LEGS of them; each child calls it once and answers.
function answer(body: unknown) {
  const messages = (body as { messages: Array<{ role: string }> }).messages;
  const results = messages.filter((message) => message.role === 'tool').length;
  if (JSON.stringify(messages.find((message) => message.role === 'user')).includes('child task')) {
    return results === 0
      ? [call('c1', 'run_tool', { name: 'script_deploy', args: {} })]
      : [{ text: 'child: deploy failed' }];
  }
  if (results === 0) return [call('p1', 'find_tools', { query: 'select:subagents' })];
  if (results === 1) {
    const tasks = Array.from({ length: LEGS }, (_, i) => ({ title: `leg ${i}`, prompt: `child task ${i}` }));
    return [call('p2', 'subagents', { tasks })];
  }
  return [{ text: 'parent done' }];
}

describe('subagents and the credential heal budget', () => {
  it('children share their parent turn’s budget: one tool, at most two prompts', async () => {
    const asked: string[] = [];
    const healer: CredentialHealer = {
      heal: async (request) => {
        asked.push(`${request.tool}:${request.key}`);
        return false;
      },
    };
    fixture = await chatFixture({
      healer,
      prepare: (home) =>
        writeScriptTool(
          home,
          'deploy',
          {
            name: 'deploy',
            description: 'Deploy the site.\nUse when the person asks to deploy.',
            parameters: { type: 'object', properties: {} },
            always_allow: true,
            secrets: ['DEPLOY_KEY'],
          },
          'console.log("deployed")\n',
        ),
      startServer: () =>
        startScriptedServer({
          path: '/v1/chat/completions',
          basePath: '/v1',
          errorBody: openAiErrorBody,
          modelsPath: '/v1/models',
          answerFor: (body) => ({ events: openAiEvents(answer(body)) }),
        }),
    });
    const { server, service } = fixture;
    server.enqueue(...Array.from({ length: 3 + 2 * LEGS }, () => ({})));
    const chat = service.createChat({ workspace: fixture.workspace });
    const result = await service.send(chat.id, 'deploy the site');
    expect(result).toMatchObject({ status: 'completed', text: 'parent done' });
    // Every child did call the tool and fail for DEPLOY_KEY.
    expect(
      server.requests.filter((r) => JSON.stringify(r.body).includes('DEPLOY_KEY')).length,
    ).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThanOrEqual(MAX_HEAL_ROUNDS);
  }, 60_000);
});
