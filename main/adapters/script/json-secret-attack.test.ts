// A secret printed as JSON by another language's encoder (docs/security.md, "Redaction"): the redactor matched the
// JSON form JavaScript writes, but Python's json.dumps writes non-ASCII as \u escapes (ensure_ascii, its default),
// PHP's json_encode also writes "/" as "\/", and Go's encoding/json writes <, > and & as \u003c, \u003e and \u0026.
// So a tool that printed its configuration (a password with "&", "/" or "ä" in it) handed the key to the model as
// is. Through the real core (createCore), a real global Python script tool with a declared secret.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../app';
import { createCore } from '../../app';
import { policyGate } from '../../core/gate-port';
import { Redactor } from '../../core/redactor';
import { SecretStore } from '../../secrets/secret-store';

const PASSWORD = 'Pässwörd&<db>/Canary9';

const cores: Core[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const SCRIPT = `import json, os
pw = os.environ["DB_PASSWORD"]
print("python:", json.dumps({"password": pw}))
print("php:", json.dumps(pw).replace("/", "\\\\/"))
go = json.dumps(pw, ensure_ascii=False).replace("&", "\\\\u0026").replace("<", "\\\\u003c").replace(">", "\\\\u003e")
print("go:", go)
`;

describe('a secret a tool prints as JSON', () => {
  it('is scrubbed however the encoder escaped it', async () => {
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-json-secret-')));
    dirs.push(home);
    const dir = path.join(home, 'tools', 'script', 'db_config');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'tool.json'),
      JSON.stringify({
        name: 'db_config',
        description: 'Show the database configuration.\nUse when the person asks how the database is set up.',
        parameters: { type: 'object', properties: {} },
        always_allow: true,
        secrets: ['DB_PASSWORD'],
      }),
    );
    fs.writeFileSync(path.join(dir, 'script.py'), SCRIPT);
    fs.writeFileSync(path.join(home, '.secrets'), `DB_PASSWORD=${PASSWORD}\n`, { mode: 0o600 });
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
    cores.push(core);
    const [result] = await core.executor.run([{ id: 'c1', name: 'script_db_config', args: {} }], {
      chatId: 'chat',
      workspace: home,
    });
    expect(result?.outcome.outcome).toBe('ok');
    const text = result?.outcome.outcome === 'ok' ? result.outcome.text : '';
    expect(text.split('\n')).toEqual([
      'python: {"password": "[redacted:DB_PASSWORD]"}',
      'php: "[redacted:DB_PASSWORD]"',
      'go: "[redacted:DB_PASSWORD]"',
    ]);
  }, 30_000);
});
