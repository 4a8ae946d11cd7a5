// The settings parser loads lazily (docs/hosts.md, "Fast start"): a model must not get a call past settings.json's
// bounds because the parser had not loaded yet, whether the file was there at start, appeared after it, or is damaged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../app';
import { policyGate } from '../core/gate-port';

const cores: Array<{ close(): Promise<void> }> = [];
const temps: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function fresh(settings?: unknown) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-settings-attack-'));
  temps.push(home);
  const file = path.join(home, 'desktop', 'settings.json');
  const write = (value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  };
  if (settings !== undefined) write(settings);
  const core = await createCore({
    home,
    workspace: home,
    gate: policyGate('allow'),
    mcp: 'off',
    sandbox: null,
  });
  cores.push(core);
  let n = 0;
  const call = (bytes: number) =>
    core.dispatcher.dispatch(
      { id: `c${++n}`, name: 'find_tools', args: { query: 'x'.repeat(bytes) } },
      { chatId: 'attack', workspace: home },
    );
  return { call, write };
}

describe('settings.json bounds with a lazily loaded parser', () => {
  it('the very first call of a fresh core is held to a lowered argument limit', async () => {
    const { call } = await fresh({ limits: { toolArgumentsBytes: 2048 } });
    const first = await call(10_000);
    expect(first).toMatchObject({ outcome: 'error', code: 'arguments_too_large' });
    expect(await call(100)).toMatchObject({ outcome: 'ok' });
  });

  it('a file that appears after start binds the next call', async () => {
    const { call, write } = await fresh();
    expect(await call(10_000)).toMatchObject({ outcome: 'ok' });
    write({ limits: { toolArgumentsBytes: 2048 } });
    expect(await call(10_000)).toMatchObject({ outcome: 'error', code: 'arguments_too_large' });
  });

  it('a damaged file or a bad value falls back to the default limit, never to none', async () => {
    for (const settings of ['{ not json', { limits: { toolArgumentsBytes: 'unbounded' } }, { limits: 5 }]) {
      const { call } = await fresh(settings);
      expect(await call(2 * 1024 * 1024), JSON.stringify(settings)).toMatchObject({
        outcome: 'error',
        code: 'arguments_too_large',
      });
    }
  });
});
