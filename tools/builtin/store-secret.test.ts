import { describe, expect, it } from 'vitest';
import { storeSecretTool } from './store-secret';
import { SECRET_KEY_PATTERN } from '../sdk/types';
import type { HealPort, SecretPromptPort, ToolContext, ToolServices } from '../sdk/types';
import { ToolError } from '../sdk/types';

type Request = Parameters<SecretPromptPort['ask']>[0];

// The real port interface, answered from a script as a user would; records what the user was shown.
function scriptedPort(answers: Array<'stored' | 'declined'>): SecretPromptPort & { asked: Request[] } {
  const asked: Request[] = [];
  return {
    asked,
    async ask(request) {
      asked.push(request);
      return answers.shift() ?? 'declined';
    },
  };
}

// Two rounds per tool, like the core's HealBudget (tools/ cannot import main/).
function twoRounds(): HealPort {
  const used = new Map<string, number>();
  return {
    take(tool) {
      const n = used.get(tool) ?? 0;
      if (n >= 2) return false;
      used.set(tool, n + 1);
      return true;
    },
  };
}

function ctx(services: ToolServices): ToolContext {
  return {
    signal: new AbortController().signal,
    progress: () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
    getSecret: () => Promise.resolve(undefined),
    workspace: '/tmp',
    chatId: 'chat',
    callId: 'call',
    deadline: null,
    approval: { by: 'person', ruleId: null, ruleOrigin: null },
    services,
  };
}

const run = (args: Record<string, unknown>, services: ToolServices) =>
  Promise.resolve(storeSecretTool.handler(args, ctx(services)));

describe('store_secret', () => {
  it('is a systemUse, alwaysAllow tool without a time limit', () => {
    expect(storeSecretTool.flags).toMatchObject({ systemUse: true, alwaysAllow: true, background: false });
    expect(storeSecretTool.timeoutMs).toBe(Number.POSITIVE_INFINITY);
  });

  it('puts the lookup order and the printenv note into the key parameter', () => {
    const key =
      (storeSecretTool.parameters.properties as Record<string, { description: string }>).key?.description ??
      '';
    expect(key).toMatch(
      /OS keychain, then \$AGENVOY_HOME\/\.secrets .*then an environment variable of the same name/,
    );
    expect(key).toContain('an empty printenv does not mean a key is missing');
    expect(storeSecretTool.description.split('\n')).toHaveLength(2);
    expect(storeSecretTool.description.split('\n')[1]).toMatch(/^Use when/);
  });

  it('asks through the prompt port and tells the model only the key name and the answer', async () => {
    const port = scriptedPort(['stored']);
    const result = await run(
      {
        key: 'GITHUB_TOKEN',
        question: 'A GitHub token with repo scope',
        for_tool: 'mcp__github__create_issue',
      },
      { secretPrompt: port, heal: twoRounds() },
    );
    expect(port.asked).toEqual([
      {
        key: 'GITHUB_TOKEN',
        question: 'A GitHub token with repo scope',
        forTool: 'mcp__github__create_issue',
      },
    ]);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'stored GITHUB_TOKEN; call mcp__github__create_issue again' }],
      data: { key: 'GITHUB_TOKEN', stored: true },
    });
  });

  it('reports a decline', async () => {
    const result = await run(
      { key: 'API_KEY', question: 'Key?' },
      { secretPrompt: scriptedPort(['declined']) },
    );
    expect(result).toMatchObject({ data: { key: 'API_KEY', stored: false } });
  });

  it('gives a tool at most two rounds per turn and then refuses without prompting', async () => {
    const port = scriptedPort(['stored', 'stored', 'stored']);
    const services = { secretPrompt: port, heal: twoRounds() };
    const args = { key: 'CRM_TOKEN', question: 'CRM token', for_tool: 'query_crm' };
    await run(args, services);
    await run(args, services);
    const refused = run(args, services);
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toMatchObject({ code: 'heal_limit_reached' });
    await expect(refused).rejects.toThrow(/already asked 2 times for query_crm this turn/);
    expect(port.asked).toHaveLength(2);
    // Another tool, and a call not tied to a tool, still get asked.
    await run({ ...args, for_tool: 'other_tool' }, services);
    await run({ key: 'CRM_TOKEN', question: 'CRM token' }, services);
    expect(port.asked).toHaveLength(4);
  });

  it('gives calls without for_tool one shared budget of two rounds per turn, whatever the key', async () => {
    const port = scriptedPort(['declined', 'stored', 'stored']);
    const services = { secretPrompt: port, heal: twoRounds() };
    await run({ key: 'KEY_A', question: 'A?' }, services);
    await run({ key: 'KEY_B', question: 'B?', for_tool: '' }, services);
    const refused = run({ key: 'KEY_C', question: 'C?' }, services);
    await expect(refused).rejects.toMatchObject({ code: 'heal_limit_reached', details: { key: 'KEY_C' } });
    await expect(refused).rejects.toThrow(
      /already asked 2 times this turn without for_tool, the limit; tell the user to run `agenvoy secrets set KEY_C`/,
    );
    expect(port.asked.map((r) => r.key)).toEqual(['KEY_A', 'KEY_B']);
    // A named tool keeps its own budget.
    await run({ key: 'KEY_C', question: 'C?', for_tool: 'query_crm' }, services);
    expect(port.asked).toHaveLength(3);
    // Without a turn (no heal port: `agenvoy tools call store_secret` typed by the person) nothing is counted.
    const free = scriptedPort(['stored', 'stored', 'stored']);
    for (const key of ['K1', 'K2', 'K3']) await run({ key, question: '?' }, { secretPrompt: free });
    expect(free.asked).toHaveLength(3);
  });

  it('explains what to do in a host without a prompt, and rejects bad key names', async () => {
    await expect(run({ key: 'API_KEY', question: 'Key?' }, {})).rejects.toMatchObject({
      code: 'secret_prompt_unavailable',
    });
    await expect(run({ key: 'API_KEY', question: 'Key?' }, {})).rejects.toThrow(
      /agenvoy secrets set API_KEY/,
    );
    await expect(
      run({ key: 'not a key', question: 'Key?' }, { secretPrompt: scriptedPort([]) }),
    ).rejects.toMatchObject({
      code: 'invalid_arguments',
    });
    await expect(
      run({ key: null, question: null }, { secretPrompt: scriptedPort([]) }),
    ).rejects.toMatchObject({ code: 'invalid_arguments' });
    expect(new RegExp(SECRET_KEY_PATTERN).test('_Private_Key9')).toBe(true);
    expect(new RegExp(SECRET_KEY_PATTERN).test('9LIVES')).toBe(false);
  });
});
