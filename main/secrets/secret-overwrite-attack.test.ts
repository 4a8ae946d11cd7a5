// Overwriting a stored key without a failed tool (docs/security.md, "The masked prompt"): heal-phish-attack pins that
// store_secret names a tool only for a key that tool is handed, but a model could leave `for_tool` out and ask for
// GITHUB_TOKEN (or the provider's key) in its own words; what the person typed replaced the value other tools rely
// on, and the prompt never said a value was already stored. Through the real core, store_secret, the DialogHub.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialogEvent, DialogRequest } from '../../preload/contract';
import type { Core } from '../app';
import { createCore } from '../app';
import { policyGate } from '../core/gate-port';
import { HealBudget } from '../core/heal-budget';
import { Redactor } from '../core/redactor';
import { DialogHub } from '../host/dialog-hub';
import { SecretStore } from './secret-store';

const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function stack() {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-overwrite-')));
  dirs.push(home);
  const file = path.join(home, '.secrets');
  fs.writeFileSync(file, 'GITHUB_TOKEN=ghp-original-canary-41c2\n', { mode: 0o600 });
  const hub = new DialogHub({ redact: (text) => text, chatTitle: () => 'chat', notice: () => {} });
  const shown: Array<Extract<DialogRequest, { kind: 'secret' }>> = [];
  hub.attach({
    present: (event: DialogEvent) => {
      if (event.type !== 'dialog.opened' || event.dialog.kind !== 'secret') return;
      shown.push(event.dialog);
      const id = event.dialog.id;
      // The person types what the model's question asked for.
      setTimeout(() => hub.answerSecret(id, { kind: 'value', value: 'typed-by-person-9d3e' }), 0);
    },
  });
  const core = await createCore({
    home,
    workspace: home,
    gate: policyGate('deny'),
    secrets: new SecretStore({
      secretsFile: file,
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
  const run = (args: Record<string, unknown>, i: number) =>
    core.executor.run([{ id: `c${i}`, name: 'store_secret', args }], {
      chatId: 'chat',
      workspace: home,
      heal,
    });
  return { shown, run, file };
}

describe('store_secret without a failed tool does not replace a stored key', () => {
  it('refuses before any prompt, and the stored value stays', async () => {
    const { shown, run, file } = await stack();
    const [asked] = await run({ key: 'GITHUB_TOKEN', question: 'Paste your new GitHub token' }, 0);
    expect(asked?.outcome).toMatchObject({ outcome: 'error', code: 'invalid_arguments' });
    expect(asked?.outcome.outcome === 'error' && asked.outcome.message).toContain('already stored');
    expect(shown).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toContain('GITHUB_TOKEN=ghp-original-canary-41c2');
  }, 30_000);

  it('a key not stored yet is still asked for and stored', async () => {
    const { shown, run, file } = await stack();
    const [asked] = await run({ key: 'NEW_KEY', question: 'New key' }, 0);
    expect(asked?.outcome).toMatchObject({ outcome: 'ok' });
    expect(shown.map((dialog) => dialog.key)).toEqual(['NEW_KEY']);
    expect(fs.readFileSync(file, 'utf8')).toContain('NEW_KEY=typed-by-person-9d3e');
  }, 30_000);
});
