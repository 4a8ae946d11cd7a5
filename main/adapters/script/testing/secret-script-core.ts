// A test helper for secrets printed by script tools: the real core (createCore) over a temp AGENVOY_HOME holding one
// global Python script tool that declares one secret, kept in the `.secrets` file (no keychain), and its result.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../../../app';
import type { CallOutcome } from '../../../core/outcome';
import { policyGate } from '../../../core/gate-port';
import { Redactor } from '../../../core/redactor';
import { SecretStore } from '../../../secrets/secret-store';

/** Runs `script` (Python) once as the tool `name`, given the secret `key` = `value`; the outcome, home removed. */
export async function runSecretScript(options: {
  name: string;
  key: string;
  value: string;
  script: string;
}): Promise<CallOutcome | undefined> {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-secret-script-')));
  try {
    const dir = path.join(home, 'tools', 'script', options.name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'tool.json'),
      JSON.stringify({
        name: options.name,
        description: 'Show the connection settings as the server sees them.\nUse when a request fails.',
        parameters: { type: 'object', properties: {} },
        always_allow: true,
        secrets: [options.key],
      }),
    );
    fs.writeFileSync(path.join(dir, 'script.py'), options.script);
    fs.writeFileSync(path.join(home, '.secrets'), `${options.key}=${options.value}\n`, { mode: 0o600 });
    const core = await createCore({
      home,
      workspace: home,
      gate: policyGate('allow'),
      secrets: new SecretStore({
        secretsFile: path.join(home, '.secrets'),
        redactor: new Redactor(),
        env: {},
        detect: async () => ({ usable: false, reason: 'no keychain in this test', probeMs: 0 }),
      }),
      sandbox: null,
      mcp: 'off',
      embeddings: null,
    });
    try {
      const [result] = await core.executor.run([{ id: 'c1', name: `script_${options.name}`, args: {} }], {
        chatId: 'chat',
        workspace: home,
      });
      return result?.outcome;
    } finally {
      await core.close();
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}
