// Credential auto-heal end to end on a real keychain: the real core (createCore), BatchExecutor, store_secret,
// PromptingHealer and SecretStore; only the user's typing is scripted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../tools/sdk/types';
import { CredentialError, defineTool, ToolError } from '../../tools/sdk/types';
import type { Core } from '../app';
import { createCore } from '../app';
import { policyGate } from '../core/gate-port';
import { HealBudget, MAX_HEAL_ROUNDS } from '../core/heal-budget';
import { Redactor } from '../core/redactor';
import { loadKeytar } from './keychain';
import { SECRET_SERVICE } from './secret-tool';
import { SecretStore } from './secret-store';
import type { PrivateBus } from './testing/private-bus';
import { startKeyringSession } from './testing/keyring-session';
import { ScriptedSecretPrompt } from './testing/scripted-prompt';

let session: PrivateBus;
const cores: Core[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  session = await startKeyringSession();
});

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

afterAll(async () => {
  await session?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const noArgs = { type: 'object', properties: {}, additionalProperties: true };

function tool(name: string, handler: ToolSpec['handler']): ToolSpec {
  return defineTool({
    name,
    description: `Call the ${name} test service with the stored credential.\nUse when testing credential auto-heal.`,
    parameters: noArgs,
    flags: { alwaysAllow: true },
    handler,
  });
}

async function core(tools: ToolSpec[], answers: Array<string | null>) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-heal-'));
  dirs.push(home);
  const secrets = new SecretStore({
    secretsFile: path.join(home, '.secrets'),
    redactor: new Redactor(),
    env: {},
  });
  const prompt = new ScriptedSecretPrompt(answers);
  const built = await createCore({
    home,
    workspace: home,
    gate: policyGate('deny'),
    hostTools: tools,
    secrets,
    secretPrompt: prompt,
  });
  cores.push(built);
  expect((await secrets.status()).backend).toBe('keychain');
  const run = (calls: Array<{ name: string; args?: Record<string, unknown> }>, heal: HealBudget) =>
    built.executor.run(
      calls.map((call, i) => ({ id: `call_${i}`, name: call.name, args: call.args ?? {} })),
      { chatId: 'chat_1', workspace: home, heal },
    );
  return { core: built, prompt, secrets, run, home };
}

describe('auto-heal for structured credential errors', () => {
  it('opens the prompt for the named key, stores the answer in the keychain and retries the call', async () => {
    let calls = 0;
    const weather = tool('fetch_weather', async (_args, ctx) => {
      calls++;
      const key = await ctx.getSecret('WEATHER_KEY');
      if (!key) throw new CredentialError('WEATHER_KEY', 'missing');
      return `sunny (key of ${key.length} chars)`;
    });
    const { prompt, run } = await core([weather], ['weather-key-123']);
    const [result] = await run([{ name: 'fetch_weather' }], new HealBudget());
    expect(result?.outcome).toMatchObject({ outcome: 'ok', text: 'sunny (key of 15 chars)' });
    expect(calls).toBe(2);
    expect(prompt.asked).toEqual([
      {
        key: 'WEATHER_KEY',
        forTool: 'fetch_weather',
        question: 'fetch_weather failed: no WEATHER_KEY is stored. Enter a value to store it and retry.',
      },
    ]);
    expect(await loadKeytar().getPassword(SECRET_SERVICE, 'WEATHER_KEY')).toBe('weather-key-123');
  });

  it('stops after two rounds per tool per turn, and store_secret for that tool is then refused without a prompt', async () => {
    const sync = tool('sync_repo', () => {
      throw new CredentialError('REPO_TOKEN', 'rejected');
    });
    const { prompt, run } = await core([sync], ['repo-token-1', 'repo-token-2', 'repo-token-3']);
    const heal = new HealBudget();
    const [result] = await run([{ name: 'sync_repo' }], heal);
    expect(result?.outcome.outcome).toBe('error');
    expect(result?.outcome).toMatchObject({ code: 'credential_rejected' });
    expect((result?.outcome as { message: string }).message).toContain(
      `already asked ${MAX_HEAL_ROUNDS} times for sync_repo`,
    );
    expect(prompt.asked).toHaveLength(MAX_HEAL_ROUNDS);
    // The model then tries the other path in the same turn: the budget is shared.
    const [again] = await run(
      [{ name: 'store_secret', args: { key: 'REPO_TOKEN', question: 'Token?', for_tool: 'sync_repo' } }],
      heal,
    );
    expect(again?.outcome).toMatchObject({ outcome: 'error', code: 'heal_limit_reached' });
    expect((again?.outcome as { message: string }).message).toContain(
      `${MAX_HEAL_ROUNDS} times for sync_repo`,
    );
    expect(prompt.asked).toHaveLength(MAX_HEAL_ROUNDS);
    // A new turn starts with a new budget: two more prompts (the script's third answer, then a decline).
    await run([{ name: 'sync_repo' }], new HealBudget());
    expect(prompt.asked).toHaveLength(2 * MAX_HEAL_ROUNDS);
  });

  it('lets the failure stand when the user declines', async () => {
    const mail = tool('send_mail', async (_args, ctx) => {
      if (!(await ctx.getSecret('MAIL_TOKEN'))) throw new CredentialError('MAIL_TOKEN', 'missing');
      return 'sent';
    });
    const { prompt, run } = await core([mail], [null]);
    const [result] = await run([{ name: 'send_mail' }], new HealBudget());
    expect(result?.outcome).toMatchObject({ outcome: 'error', code: 'credential_missing' });
    expect((result?.outcome as { message: string }).message).toContain(
      'the user declined to store MAIL_TOKEN',
    );
    expect(prompt.asked).toHaveLength(1);
  });
});

describe('store_secret for unstructured errors', () => {
  it('stores through the prompt, the retried tool succeeds, and a third round for the tool is refused', async () => {
    const crm = tool('query_crm', async (_args, ctx) => {
      if ((await ctx.getSecret('CRM_TOKEN')) !== 'good-crm-token') {
        throw new ToolError('upstream_error', 'HTTP 401 from crm.example: check CRM_TOKEN');
      }
      return '3 open deals';
    });
    const { prompt, run } = await core([crm], ['bad-crm-token', 'good-crm-token', 'never-asked']);
    const heal = new HealBudget();
    const ask = {
      name: 'store_secret',
      args: { key: 'CRM_TOKEN', question: 'Your CRM API token', for_tool: 'query_crm' },
    };

    const [first] = await run([{ name: 'query_crm' }], heal);
    expect(first?.outcome).toMatchObject({ outcome: 'error', code: 'upstream_error' });
    expect(prompt.asked).toHaveLength(0);

    const [stored] = await run([ask], heal);
    expect(stored?.outcome).toMatchObject({
      outcome: 'ok',
      text: 'stored CRM_TOKEN; call query_crm again',
      data: { key: 'CRM_TOKEN', stored: true },
    });
    expect((await run([{ name: 'query_crm' }], heal))[0]?.outcome.outcome).toBe('error');

    await run([ask], heal);
    expect((await run([{ name: 'query_crm' }], heal))[0]?.outcome).toMatchObject({
      outcome: 'ok',
      text: '3 open deals',
    });

    const [refused] = await run([ask], heal);
    expect(refused?.outcome).toMatchObject({ outcome: 'error', code: 'heal_limit_reached' });
    expect(prompt.asked.map((r) => r.forTool)).toEqual(['query_crm', 'query_crm']);
    expect(prompt.asked[0]?.question).toBe('Your CRM API token');
  });

  it('tells the model only the key name and that the user declined', async () => {
    const { run } = await core([], [null]);
    const [result] = await run(
      [{ name: 'store_secret', args: { key: 'SOME_TOKEN', question: 'Token?' } }],
      new HealBudget(),
    );
    expect(result?.outcome).toMatchObject({ outcome: 'ok', data: { key: 'SOME_TOKEN', stored: false } });
    expect((result?.outcome as { text: string }).text).toMatch(/^the user declined to store SOME_TOKEN/);
  });
});

describe('a canary secret', () => {
  it('never appears in the app log, errors, dispatcher events or tool output', async () => {
    const canary = 'canary-Zq81x-never-leak';
    const leakyEcho = tool('leaky_echo', async (_args, ctx) => {
      const value = await ctx.getSecret('LEAK_KEY');
      ctx.log.info(`using token ${value}`, { token: value });
      ctx.progress({ message: `authenticating with ${value}`, output: `${value}\n` });
      return { content: [{ type: 'text', text: `the token is ${value}` }], data: { token: value } };
    });
    const leakyFail = tool('leaky_fail', async (_args, ctx) => {
      throw new Error(`upstream rejected ${await ctx.getSecret('LEAK_KEY')}`);
    });
    const leakyToolError = tool('leaky_tool_error', async (_args, ctx) => {
      throw new ToolError('bad_token', `token ${await ctx.getSecret('LEAK_KEY')} is bad`);
    });
    const { core: app, run, prompt } = await core([leakyEcho, leakyFail, leakyToolError], [canary]);
    const events: unknown[] = [];
    app.dispatcher.on((event) => events.push(event));
    const heal = new HealBudget();
    const results = [
      ...(await run(
        [
          {
            name: 'store_secret',
            args: { key: 'LEAK_KEY', question: 'Paste the token', for_tool: 'leaky_echo' },
          },
        ],
        heal,
      )),
      ...(await run([{ name: 'leaky_echo' }, { name: 'leaky_fail' }, { name: 'leaky_tool_error' }], heal)),
    ];
    app.log.error(`a host logging the value by mistake: ${canary}`);
    expect(prompt.asked).toHaveLength(1);
    const log = fs.readFileSync(path.join(app.paths.logs, 'app.log'), 'utf8');
    const everything = JSON.stringify({ results, events }) + log;
    expect(everything).not.toContain(canary);
    expect(everything).toContain('[redacted:LEAK_KEY]');
    expect(results.map((r) => r.outcome.outcome)).toEqual(['ok', 'ok', 'error', 'error']);
    expect(JSON.stringify(results[1])).toContain('the token is [redacted:LEAK_KEY]');
    expect(JSON.stringify(results[2])).toContain('upstream rejected [redacted:LEAK_KEY]');
    expect(log).toContain('using token [redacted:LEAK_KEY]');

    // A value stored by an earlier process is redacted as soon as this process reads it.
    const later = await core([leakyEcho], []);
    const [echo] = await later.run([{ name: 'leaky_echo' }], new HealBudget());
    expect(JSON.stringify(echo)).not.toContain(canary);
    expect(JSON.stringify(echo)).toContain('[redacted:LEAK_KEY]');
  });
});
