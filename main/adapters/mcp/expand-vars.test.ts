import { describe, expect, it } from 'vitest';
import { CredentialError } from '../../../tools/sdk/types';
import { expandEndpoint, expandString } from './expand-vars';

const env = { HOME: '/home/u', PORT: '8080' };
const secrets: Record<string, string> = { GITHUB_TOKEN: 'ghp_secretvalue' };
const getSecret = async (name: string) => secrets[name];

describe('expandString', () => {
  it('expands $VAR and ${VAR} from the environment and keeps $$ as a dollar', async () => {
    const unset: string[] = [];
    const text = await expandString('$HOME/x:${PORT} $$5 $NOPE.', {
      env,
      getSecret,
      onUnsetVar: (n) => unset.push(n),
    });
    expect(text).toBe('/home/u/x:8080 $5 .');
    expect(unset).toEqual(['NOPE']);
  });

  it('expands ${secret:NAME} through the resolver and reports the value for redaction', async () => {
    const seen: Array<[string, string]> = [];
    const text = await expandString('Bearer ${secret:GITHUB_TOKEN}', {
      env,
      getSecret,
      onSecret: (n, v) => seen.push([n, v]),
    });
    expect(text).toBe('Bearer ghp_secretvalue');
    expect(seen).toEqual([['GITHUB_TOKEN', 'ghp_secretvalue']]);
  });

  it('throws CredentialError naming the key when a secret cannot be resolved', async () => {
    const error = await expandString('${secret:JIRA_TOKEN}', { env, getSecret }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialError);
    expect(error).toMatchObject({ key: 'JIRA_TOKEN', reason: 'missing', code: 'credential_missing' });
    expect((error as Error).message).toContain('JIRA_TOKEN');
  });
});

describe('expandEndpoint', () => {
  it('expands command, args, env values, url and header values', async () => {
    expect(
      await expandEndpoint(
        {
          kind: 'stdio',
          command: '$HOME/bin/srv',
          args: ['--port', '${PORT}'],
          env: { T: '${secret:GITHUB_TOKEN}' },
        },
        { env, getSecret },
      ),
    ).toEqual({
      kind: 'stdio',
      command: '/home/u/bin/srv',
      args: ['--port', '8080'],
      env: { T: 'ghp_secretvalue' },
    });
    expect(
      await expandEndpoint(
        {
          kind: 'http',
          url: 'http://127.0.0.1:$PORT/mcp',
          headers: { Authorization: 'Bearer ${secret:GITHUB_TOKEN}' },
          sseOnly: false,
        },
        { env, getSecret },
      ),
    ).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:8080/mcp',
      headers: { Authorization: 'Bearer ghp_secretvalue' },
      sseOnly: false,
    });
  });
});
