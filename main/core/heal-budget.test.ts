// The store_secret budget through the real batch executor: calls without for_tool share two rounds per turn.
import { describe, expect, it } from 'vitest';
import { storeSecretTool } from '../../tools/builtin/store-secret';
import type { SecretPromptPort } from '../../tools/sdk/types';
import { HealBudget, MAX_HEAL_ROUNDS, NO_TOOL_HEAL_BUDGET } from './heal-budget';
import { testCore } from './testing/test-core';

function scriptedPrompt(): SecretPromptPort & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async ask(request) {
      asked.push(request.key);
      return 'stored';
    },
  };
}

const scope = { chatId: 'c1', workspace: '/tmp' };
const ask = (id: string, key: string, forTool?: string) => ({
  id,
  name: 'store_secret',
  args: { key, question: `${key}?`, ...(forTool ? { for_tool: forTool } : {}) },
});

describe('the store_secret budget without for_tool', () => {
  it('allows two prompts per turn across batches, refuses the third without prompting, and resets per turn', async () => {
    const prompt = scriptedPrompt();
    const core = testCore([storeSecretTool], { services: { secretPrompt: prompt } });
    const heal = new HealBudget();
    const first = await core.executor.run([ask('1', 'KEY_A'), ask('2', 'KEY_B')], { ...scope, heal });
    expect(first.map((r) => r.outcome.outcome)).toEqual(['ok', 'ok']);
    const [third] = await core.executor.run([ask('3', 'KEY_C')], { ...scope, heal });
    expect(third?.outcome).toMatchObject({ outcome: 'error', code: 'heal_limit_reached' });
    expect((third?.outcome as { message: string }).message).toContain(
      `already asked ${MAX_HEAL_ROUNDS} times this turn without for_tool`,
    );
    expect(prompt.asked).toEqual(['KEY_A', 'KEY_B']);
    expect(heal.used(NO_TOOL_HEAL_BUDGET)).toBe(MAX_HEAL_ROUNDS);
    // A call naming its tool has that tool's own budget in the same turn.
    const [named] = await core.executor.run([ask('4', 'KEY_C', 'query_crm')], { ...scope, heal });
    expect(named?.outcome.outcome).toBe('ok');
    // The next turn starts again.
    const [next] = await core.executor.run([ask('5', 'KEY_D')], { ...scope, heal: new HealBudget() });
    expect(next?.outcome.outcome).toBe('ok');
    expect(prompt.asked).toEqual(['KEY_A', 'KEY_B', 'KEY_C', 'KEY_D']);
  });

  it('counts a batch of many calls at once: only the first two prompt', async () => {
    const prompt = scriptedPrompt();
    const core = testCore([storeSecretTool], { services: { secretPrompt: prompt } });
    const calls = ['K1', 'K2', 'K3', 'K4', 'K5'].map((key, i) => ask(String(i), key));
    const results = await core.executor.run(calls, { ...scope, heal: new HealBudget() });
    expect(results.map((r) => r.outcome.outcome)).toEqual(['ok', 'ok', 'error', 'error', 'error']);
    expect(prompt.asked).toEqual(['K1', 'K2']);
  });
});
