// MCP inside the real core: createCore starts mcp.json's servers, secrets resolve through the real SecretStore,
// tools are linted by the real linter (findings kept, never blocking), and close() stops the servers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../app';
import { createCore } from '../../app';
import { policyGate } from '../../core/gate-port';
import { groupAlive } from '../../process/process-group';
import { Redactor } from '../../core/redactor';
import { SecretStore } from '../../secrets/secret-store';
import { everythingStdio, waitFor } from './mcp-testing';

const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function coreWith(
  mcpJson: unknown,
  mode?: 'wait' | 'off',
): Promise<{ core: Core; secrets: SecretStore }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-mcp-core-'));
  fs.writeFileSync(path.join(home, 'mcp.json'), JSON.stringify(mcpJson));
  // No keychain here: the store uses its file, which is what a desktop without a Secret Service does.
  const secrets = new SecretStore({
    secretsFile: path.join(home, '.secrets'),
    redactor: new Redactor(),
    env: {},
    detect: async () => ({ usable: false, reason: 'no keychain in this test', probeMs: 0 }),
  });
  await secrets.set('MCP_TOKEN', 'tok-abcdef123456');
  const core = await createCore({
    home,
    workspace: home,
    gate: policyGate('deny'),
    secrets,
    ...(mode ? { mcp: mode } : {}),
  });
  cores.push(core);
  return { core, secrets };
}

describe('MCP in createCore', () => {
  it('registers the servers of mcp.json, linted, with ${secret:NAME} from the secret store', async () => {
    const { core } = await coreWith({
      servers: { ev: everythingStdio({ trust: true, env: { MCP_TOKEN: '${secret:MCP_TOKEN}' } }) },
    });
    expect(core.mcp.states()).toMatchObject([{ name: 'ev', state: { status: 'ready' } }]);
    const sum = core.registry.get('mcp__ev__get-sum');
    // The author's name is linted (R1 wants snake_case); the tool still loads.
    expect(sum?.lint.map((finding) => finding.code)).toContain('R1_NOT_SNAKE_CASE');
    const outcome = await core.dispatcher.dispatch(
      { id: '1', name: 'mcp__ev__get-env', args: {} },
      { chatId: 'c', workspace: core.workspace },
    );
    expect(outcome.outcome).toBe('ok');
    const text = outcome.outcome === 'ok' ? outcome.text : '';
    expect(text).toContain('"MCP_TOKEN": "[redacted:MCP_TOKEN]"');
    expect(text).not.toContain('tok-abcdef123456');
  });

  it('close() stops the servers; mcp: off starts none', async () => {
    const { core } = await coreWith({ servers: { ev: everythingStdio() } });
    const pid = core.mcp.pid('ev') as number;
    expect(groupAlive(pid)).toBe(true);
    await core.close();
    cores.splice(cores.indexOf(core), 1);
    await waitFor(() => !groupAlive(pid), 3000);

    const { core: off } = await coreWith({ servers: { ev: everythingStdio() } }, 'off');
    expect(off.mcp.states()).toEqual([]);
    expect(off.registry.all().some((tool) => tool.spec.source.kind === 'mcp')).toBe(false);
  });
});
