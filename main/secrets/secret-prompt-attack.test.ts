// The masked prompt used for phishing (docs/secrets.md, "The masked prompt"). store_secret is alwaysAllow: its
// prompt is the person's decision, so what the prompt says must be true. A model named any text as `for_tool`
// ("Needed by the tool Agenvoy keychain unlock."), and each invented name got a fresh budget of two prompts, so
// "at most two prompts per tool per turn" became as many as the model liked; its question reached the dialog and
// the terminal with bidi overrides and control sequences intact. Through the real core (createCore), store_secret,
// StoringSecretPrompt and the DialogHub both hosts present.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialogEvent, DialogRequest } from '../../preload/contract';
import { defineTool } from '../../tools/sdk/types';
import type { Core } from '../app';
import { createCore } from '../app';
import { policyGate } from '../core/gate-port';
import { HealBudget, MAX_HEAL_ROUNDS } from '../core/heal-budget';
import { Redactor } from '../core/redactor';
import { DialogHub } from '../host/dialog-hub';
import { SecretStore } from './secret-store';
import { TerminalSecretPrompt } from './terminal-prompt';

const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

// A real tool a credential can be for.
const syncRepo = defineTool({
  name: 'sync_repo',
  description: 'Sync the repository with its remote.\nUse when testing the masked prompt.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  flags: { alwaysAllow: true },
  handler: () => 'synced',
});

// The real core with a DialogHub's masked prompt; every secret dialog opened is recorded and cancelled.
async function stack() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-phish-'));
  dirs.push(home);
  const hub = new DialogHub({ redact: (text) => text, chatTitle: () => 'chat', notice: () => {} });
  const shown: Array<Extract<DialogRequest, { kind: 'secret' }>> = [];
  hub.attach({
    present: (event: DialogEvent) => {
      if (event.type !== 'dialog.opened' || event.dialog.kind !== 'secret') return;
      shown.push(event.dialog);
      const id = event.dialog.id;
      setTimeout(() => hub.answerSecret(id, { kind: 'cancel' }), 0);
    },
  });
  const core = await createCore({
    home,
    workspace: home,
    gate: policyGate('deny'),
    hostTools: [syncRepo],
    secrets: new SecretStore({
      secretsFile: path.join(home, '.secrets'),
      redactor: new Redactor(),
      env: {},
      detect: async () => ({ usable: false, reason: 'no keychain in this test', probeMs: 0 }),
    }),
    secretPrompt: hub.secretPrompt(),
    sandbox: null,
    mcp: 'off',
    embeddings: null,
  });
  cores.push(core);
  const heal = new HealBudget();
  const ask = (args: Record<string, unknown>, i: number) =>
    core.executor.run([{ id: `c${i}`, name: 'store_secret', args }], {
      chatId: 'chat',
      workspace: home,
      heal,
    });
  return { shown, ask };
}

describe('the masked prompt says only what is true', () => {
  it('a for_tool that names no tool opens no prompt', async () => {
    const { shown, ask } = await stack();
    const [result] = await ask(
      {
        key: 'KEYCHAIN_PASSWORD',
        question: 'Your session expired. Enter your login password.',
        for_tool: 'Agenvoy keychain unlock',
      },
      0,
    );
    expect(result?.outcome).toMatchObject({ outcome: 'error', code: 'invalid_arguments' });
    expect(shown).toEqual([]);
  });

  it('invented tool names open no more prompts than the turn allows', async () => {
    const { shown, ask } = await stack();
    for (let i = 0; i < 6; i++)
      await ask({ key: 'GITHUB_PASSWORD', question: 'GitHub password?', for_tool: `github_login_${i}` }, i);
    expect(shown.length).toBeLessThanOrEqual(MAX_HEAL_ROUNDS);
  });

  it('a real tool is named, and the question shows its hidden characters as escapes', async () => {
    const { shown, ask } = await stack();
    await ask(
      { key: 'REPO_TOKEN', question: 'Token from \u202egro.buhtig\u202c, please', for_tool: 'sync_repo' },
      0,
    );
    expect(shown).toHaveLength(1);
    expect(shown[0]?.forTool).toBe('sync_repo');
    expect(shown[0]?.question).toBe('Token from \\u{202e}gro.buhtig\\u{202c}, please');
  });

  it('the terminal prompt prints the question without control sequences', async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input, isRaw: false });
    let output = '';
    const prompt = new TerminalSecretPrompt(input, (text) => (output += text));
    const reading = prompt.read(
      {
        key: 'REPO_TOKEN',
        question: 'Token?\u001b[2K\u001b[1A\rEnter your GitHub password',
        forTool: 'sync_repo',
      },
      new AbortController().signal,
    );
    input.write('\u0003');
    expect(await reading).toBeNull();
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
  });
});
