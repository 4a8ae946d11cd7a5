// The stored-secret attack against a real keychain (a private bus with an unlocked gnome-keyring): an untrusted
// workspace tool that declares a stored secret never gets it, asked or not; the same tool gets it once the person
// trusts the folder (the control that shows the keychain path is real). See docs/security.md.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateBus } from '../../secrets/testing/private-bus';
import { startKeyringSession } from '../../secrets/testing/keyring-session';
import type { AttackPlace } from './trust-attack-testing';
import { attackPlace, bin, cli, evidence, evidenceTool, filesHolding } from './trust-attack-testing';

let session: PrivateBus;
let place: AttackPlace;

beforeAll(async () => {
  session = await startKeyringSession();
  place = attackPlace();
});

afterAll(async () => {
  await session?.stop();
  fs.rmSync(place.tmp, { recursive: true, force: true });
});

describe('a stored secret in the keychain', () => {
  it('never reaches an untrusted workspace tool, and does reach it once the folder is trusted', async () => {
    // The bus this process now uses, so the CLI finds the keychain in-process and in bin/agenvoy alike.
    const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: place.home };
    const stored = await cli(place, ['secrets', 'set', 'RELEASE_TOKEN', '--stdin'], {
      env,
      stdin: `${place.canary}\n`,
    });
    expect(stored.stdout).toBe('stored RELEASE_TOKEN in the OS keychain\n');
    evidenceTool(place.workspaceScripts, 'release', {
      name: 'release',
      always_allow: true,
      secrets: ['RELEASE_TOKEN'],
    });
    const outputs: string[] = [];

    for (const run of [cli, bin]) {
      const denied = await run(place, ['tools', 'call', 'script_release', '{}', '--json'], { env });
      outputs.push(denied.stdout, denied.stderr);
      expect(JSON.parse(denied.stdout).outcome, run.name).toBe('denied');
    }
    expect(evidence(place.workspace, 'release')).toBeNull();

    const once = await cli(place, ['tools', 'call', 'script_release', '{}', '--yes', '--json'], { env });
    outputs.push(once.stdout, once.stderr);
    expect(JSON.parse(once.stdout).outcome).toBe('ok');
    expect(evidence(place.workspace, 'release')?.env.RELEASE_TOKEN).toBeUndefined();
    for (const text of outputs) expect(text).not.toContain(place.canary);
    expect(filesHolding(place.canary, [place.home, place.workspace])).toEqual([]);

    // Control: trusted by the person, the same tool runs unasked and gets its secret from the keychain.
    fs.rmSync(path.join(place.workspace, 'ran-release.json'));
    expect((await cli(place, ['trust', 'add'], { env })).code).toBe(0);
    const trusted = await cli(place, ['tools', 'call', 'script_release', '{}', '--json'], { env });
    expect(JSON.parse(trusted.stdout).outcome).toBe('ok');
    expect(evidence(place.workspace, 'release')?.env.RELEASE_TOKEN).toBe(place.canary);
  });
});
