// How the script source applies workspace trust (docs/security.md): untrusted tools register without alwaysAllow,
// secrets or writable folders; a trust change made anywhere (the CLI beside the app) applies without a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppLogger } from '../../core/logger';
import { workspaceScripts } from '../../core/paths';
import { ProcessGroups } from '../../process/process-group';
import { waitFor } from '../../process/process-group-testing';
import { Redactor } from '../../core/redactor';
import { ToolRegistry } from '../../core/registry';
import { TrustedFolders } from '../../core/trust/trusted-folders';
import { trustAsItIs } from './workspace-pins';
import { manifest, testContext, writeToolFolder } from './script-testing';
import type { ScriptToolSourceOptions } from './script-tool-source';
import { ScriptToolSource } from './script-tool-source';

let tmp: string;
let workspace: string;
let trust: TrustedFolders;
let registry: ToolRegistry;
let groups: ProcessGroups;
let lines: string[];
let sources: ScriptToolSource[];

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-trust-')));
  workspace = path.join(tmp, 'repo');
  fs.mkdirSync(workspace);
  trust = TrustedFolders.inDesktop(path.join(tmp, 'home', 'desktop'));
  registry = new ToolRegistry(() => []);
  groups = new ProcessGroups();
  lines = [];
  sources = [];
  writeToolFolder(workspaceScripts(workspace), 'env', {
    manifest: manifest('env_dump', { always_allow: true, secrets: ['API_TOKEN'], writable: ['~'] }),
    js: `console.log(process.env.API_TOKEN ?? 'no token')`,
  });
});

afterEach(async () => {
  for (const source of sources) source.stop();
  await groups.killAll();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function source(options: Partial<ScriptToolSourceOptions> = {}): ScriptToolSource {
  const created = new ScriptToolSource({
    registry,
    dirs: [
      { dir: path.join(tmp, 'home', 'tools', 'script'), scope: 'global' },
      { dir: workspaceScripts(workspace), scope: 'workspace', workspace },
    ],
    log: new AppLogger(null, new Redactor(), {}, (line) => lines.push(line)),
    groups,
    watch: false,
    trust,
    sandbox: null,
    ...options,
  });
  sources.push(created);
  return created;
}

describe('workspace trust in the script source', () => {
  it('an untrusted tool asks, gets no writable folder, and runs without its secrets: none is even looked up', async () => {
    await source().start();
    const spec = registry.get('script_env_dump')?.spec;
    expect(spec).toMatchObject({
      source: { scope: 'workspace', trusted: false, writable: [] },
      flags: { alwaysAllow: false },
    });
    let lookups = 0;
    const { ctx, lines: callLines } = testContext({ workspace, secrets: { API_TOKEN: 'stored-value' } });
    const counted = { ...ctx, getSecret: async (key: string) => (lookups++, ctx.getSecret(key)) };
    // No CredentialError for the declared key: nothing for auto-heal or a secret prompt to answer.
    expect(await spec?.handler({}, counted)).toBe('no token');
    expect(lookups).toBe(0);
    expect(callLines.some((line) => line.includes('secrets withheld from an untrusted workspace tool'))).toBe(
      true,
    );
  });

  it('without a trust port every workspace tool is untrusted, even one whose folder is in the file', async () => {
    await trustAsItIs(trust, workspace);
    await source({ trust: undefined }).start();
    expect(registry.get('script_env_dump')?.spec.source).toMatchObject({ trusted: false });
  });

  it('a trust change made elsewhere applies to the running source without a restart, both ways', async () => {
    const scripts = source({ watch: true, pollMs: 200, debounceMs: 20 });
    await scripts.start();
    const cli = new TrustedFolders(trust.file);
    await trustAsItIs(cli, workspace);
    await waitFor(() => registry.get('script_env_dump')?.spec.flags.alwaysAllow === true, 5000, 'trusted');
    const { ctx } = testContext({ workspace, secrets: { API_TOKEN: 'stored-value' } });
    expect(await registry.get('script_env_dump')?.spec.handler({}, ctx)).toBe('stored-value');
    await cli.revoke(workspace);
    await waitFor(
      () =>
        registry.get('script_env_dump')?.spec.source.kind === 'script' &&
        registry.get('script_env_dump')?.spec.flags.alwaysAllow === false,
      5000,
      'untrusted again',
    );
    expect(await registry.get('script_env_dump')?.spec.handler({}, ctx)).toBe('no token');
  });

  it('a damaged trust file is a problem of the workspace folder that has tools, and trusts nothing', async () => {
    await trustAsItIs(trust, workspace);
    fs.writeFileSync(trust.file, 'not json');
    const scripts = source();
    await scripts.start();
    expect(registry.get('script_env_dump')?.spec.source).toMatchObject({ trusted: false });
    expect(scripts.problems()).toEqual([
      {
        dir: workspaceScripts(workspace),
        file: workspaceScripts(workspace),
        reason: expect.stringMatching(
          /not valid JSON.*nothing is trusted: these workspace tools ask on every call/,
        ),
        scope: 'workspace',
      },
    ]);
  });

  it('a trusted tool that changes between the scan and a call does not run, and is untrusted after the rescan', async () => {
    await trustAsItIs(trust, workspace);
    const scripts = source();
    await scripts.start();
    const spec = registry.get('script_env_dump')?.spec;
    expect(spec).toMatchObject({ source: { trusted: true }, flags: { alwaysAllow: true } });
    const { ctx } = testContext({ workspace, secrets: { API_TOKEN: 'stored-value' } });
    expect(await spec?.handler({}, ctx)).toBe('stored-value');
    // A pull lands after the scan, before the next call.
    fs.writeFileSync(
      path.join(workspaceScripts(workspace), 'env', 'script.js'),
      `console.log('stolen ' + process.env.API_TOKEN)`,
    );
    await expect(spec?.handler({}, ctx)).rejects.toThrow(/changed since it was loaded.*did not run/);
    await scripts.rescan();
    expect(registry.get('script_env_dump')?.spec).toMatchObject({
      source: { trusted: false, untrusted: expect.stringMatching(/^changed since you trusted /) },
      flags: { alwaysAllow: false },
    });
    expect(await registry.get('script_env_dump')?.spec.handler({}, ctx)).toBe('stolen undefined');
  });
});
