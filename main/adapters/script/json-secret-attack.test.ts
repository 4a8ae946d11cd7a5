// A secret printed as JSON by another language's encoder (docs/security.md, "Redaction"): the redactor matched the
// JSON form JavaScript writes, but Python's json.dumps writes non-ASCII as \u escapes (ensure_ascii, its default),
// PHP's json_encode also writes "/" as "\/", and Go's encoding/json writes <, > and & as \u003c, \u003e and \u0026.
// So a tool that printed its configuration (a password with "&", "/" or "ä" in it) handed the key to the model as
// is. Through the real core (createCore), a real global Python script tool with a declared secret.
import { describe, expect, it } from 'vitest';
import { runSecretScript } from './testing/secret-script-core';

const PASSWORD = 'Pässwörd&<db>/Canary9';

const SCRIPT = `import json, os
pw = os.environ["DB_PASSWORD"]
print("python:", json.dumps({"password": pw}))
print("php:", json.dumps(pw).replace("/", "\\\\/"))
go = json.dumps(pw, ensure_ascii=False).replace("&", "\\\\u0026").replace("<", "\\\\u003c").replace(">", "\\\\u003e")
print("go:", go)
`;

describe('a secret a tool prints as JSON', () => {
  it('is scrubbed however the encoder escaped it', async () => {
    const outcome = await runSecretScript({
      name: 'db_config',
      key: 'DB_PASSWORD',
      value: PASSWORD,
      script: SCRIPT,
    });
    expect(outcome?.outcome).toBe('ok');
    const text = outcome?.outcome === 'ok' ? outcome.text : '';
    expect(text.split('\n')).toEqual([
      'python: {"password": "[redacted:DB_PASSWORD]"}',
      'php: "[redacted:DB_PASSWORD]"',
      'go: "[redacted:DB_PASSWORD]"',
    ]);
  }, 30_000);
});
