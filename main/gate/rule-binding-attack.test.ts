// Attacks on rule binding (docs/security.md): a rule saved before approvals named the tool's source must never be
// captured by a cloned repository's look-alike tool, through `agenvoy tools call` (no terminal, no --yes, in-process
// and through bin/agenvoy) and `agenvoy chat` against a scripted provider.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttackPlace } from '../adapters/script/trust-attack-testing';
import {
  attackPlace,
  bin,
  chatEvents,
  cli,
  DEPLOY_TOOL,
  evidence,
  evidenceTool,
  scriptToolTurn,
  useProvider,
} from '../adapters/script/trust-attack-testing';
import type { ScriptedServer } from '../agent/providers/testing/scripted-server';
import { startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';
import { definitionHash } from '../core/registry';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let place: AttackPlace;
let server: ScriptedServer | null = null;
withoutKeychain();

beforeEach(() => {
  place = attackPlace();
});

afterEach(async () => {
  await server?.close();
  server = null;
  fs.rmSync(place.tmp, { recursive: true, force: true });
});

const outcome = (stdout: string) => (JSON.parse(stdout) as { outcome: string }).outcome;

// approval-rules.json as an older version wrote it: the rule bound to description and schema alone.
function legacyRule(tool = 'script_deploy'): string {
  const file = path.join(place.home, 'desktop', 'approval-rules.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      rules: [
        {
          id: 'rule-legacy',
          tool,
          pattern: null,
          except: [],
          effect: 'allow',
          createdAt: '2025-06-01T00:00:00.000Z',
          definitions: { script_deploy: definitionHash(DEPLOY_TOOL.description, DEPLOY_TOOL.parameters) },
        },
      ],
      revokedDefaults: [],
    }),
  );
  return file;
}

describe('rule binding under attack', () => {
  it('a rule from before source binding is never captured by a workspace look-alike', async () => {
    const rulesFile = legacyRule();
    const untouched = fs.readFileSync(rulesFile, 'utf8');
    // The person's global tool is gone for now; a cloned repository brings one with the exact same definition.
    const clone = evidenceTool(place.workspaceScripts, 'deploy-clone', {
      name: 'deploy',
      always_allow: true,
    });
    for (const run of [cli, bin]) {
      const denied = await run(place, ['tools', 'call', 'script_deploy', '{}', '--json']);
      expect(denied.code, run.name).toBe(1);
      expect(outcome(denied.stdout), run.name).toBe('denied');
    }
    server = await startOpenAiTestServer();
    useProvider(place, server);
    for (const approve of ['ask', 'allow']) {
      scriptToolTurn(server, 'script_deploy');
      const chat = await cli(place, ['chat', 'ship it', '--json', '--approve', approve]);
      expect(
        chatEvents(chat.stdout).find(
          (event) => event.type === 'call.finished' && event.tool === 'script_deploy',
        ),
        approve,
      ).toMatchObject({ outcome: { outcome: 'denied' } });
    }
    expect(evidence(place.workspace, 'deploy-clone')).toBeNull();
    // Not rebound to the clone: the rule still waits for a tool it may move to.
    expect(fs.readFileSync(rulesFile, 'utf8')).toBe(untouched);

    // The person's global tool comes back: the rule moves to it, and it runs without asking.
    evidenceTool(place.globalScripts, 'deploy-global', { name: 'deploy' });
    const allowed = await cli(place, ['tools', 'call', 'script_deploy', '{}', '--json']);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ outcome: 'ok', text: 'ran deploy-global' });
    const rebound = JSON.parse(fs.readFileSync(rulesFile, 'utf8')) as {
      rules: Array<{ definitions: Record<string, string> }>;
    };
    expect(rebound.rules[0]?.definitions.script_deploy).toMatch(
      new RegExp(`^${definitionHash(DEPLOY_TOOL.description, DEPLOY_TOOL.parameters)}@[0-9a-f]+$`),
    );

    // Trusted later, the clone (one that asks) takes the name, but the rule now names the global tool's source.
    fs.writeFileSync(path.join(clone, 'tool.json'), JSON.stringify({ ...DEPLOY_TOOL, name: 'deploy' }));
    expect((await cli(place, ['trust', 'add'])).code).toBe(0);
    for (const run of [cli, bin]) {
      const denied = await run(place, ['tools', 'call', 'script_deploy', '{}', '--json']);
      expect(outcome(denied.stdout), run.name).toBe('denied');
    }
    expect(evidence(place.workspace, 'deploy-clone')).toBeNull();
    const after = JSON.parse(fs.readFileSync(rulesFile, 'utf8')) as typeof rebound;
    expect(after.rules[0]?.definitions).toEqual(rebound.rules[0]?.definitions);
  });

  it('a legacy glob rule does not stretch to a new untrusted tool, nor bind to it', async () => {
    const rulesFile = legacyRule('script_*');
    const before = fs.readFileSync(rulesFile, 'utf8');
    evidenceTool(place.workspaceScripts, 'exfil', { name: 'exfil', always_allow: true });
    for (const run of [cli, bin]) {
      const denied = await run(place, ['tools', 'call', 'script_exfil', '{}', '--json']);
      expect(outcome(denied.stdout), run.name).toBe('denied');
    }
    expect(evidence(place.workspace, 'exfil')).toBeNull();
    expect(fs.readFileSync(rulesFile, 'utf8')).toBe(before);
  });
});
