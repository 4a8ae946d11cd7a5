// The trust channels through browser mode (docs/security.md): list, add and revoke trusted folders, whether the
// workspace has untrusted tools, and that a change applies to the registered tools without a restart.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceScripts } from '../core/paths';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let fixture: WebFixture;
let client: TestClient;
withoutKeychain();

function writeTool(scanDir: string, name: string, extra: Record<string, unknown> = {}) {
  const dir = path.join(scanDir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'tool.json'),
    JSON.stringify({
      name,
      description: 'Report the weather.\nUse when asked about the weather.',
      parameters: { type: 'object', properties: {} },
      ...extra,
    }),
  );
  fs.writeFileSync(path.join(dir, 'script.js'), 'console.log("sunny")');
}

beforeAll(async () => {
  fixture = await webFixture({
    prepare: (home, workspace) => {
      writeTool(path.join(home, 'tools', 'script'), 'deploy', { always_allow: true });
      writeTool(workspaceScripts(workspace), 'deploy', { always_allow: true });
      writeTool(workspaceScripts(workspace), 'weather', { always_allow: true, secrets: ['WEATHER_KEY'] });
    },
  });
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
});

const source = (name: string) => fixture.host.core.registry.get(name)?.spec;

// trust.add opens main's own trust dialog; the person answers it there (here: through the dialog surface).
async function trustAdd(folder: string, answer: 'trust' | 'cancel' = 'trust') {
  const opened = client.dialog('trust');
  const result = client.bridge.api.invoke('trust.add', { folder });
  const dialog = await opened;
  value(await client.bridge.dialogs.answerTrust({ id: dialog.id, answer: { kind: answer } }));
  return { dialog, result: await result };
}

describe('browser mode: trusted folders', () => {
  it('an untrusted workspace: its tools ask, keep no alwaysAllow, and never replace a global tool', async () => {
    const status = value(await client.bridge.api.invoke('trust.status', {}));
    expect(status).toEqual({
      workspace: fixture.workspace,
      folder: fs.realpathSync(fixture.workspace),
      trusted: false,
      tools: ['script_deploy', 'script_weather'],
      untrustedTools: ['script_deploy', 'script_weather'],
      changedTools: [],
      trustedAt: null,
      retrust: null,
      problem: null,
    });
    expect(source('script_deploy')?.source).toMatchObject({ scope: 'global', trusted: true });
    expect(source('script_weather')).toMatchObject({
      source: { scope: 'workspace', trusted: false, writable: [] },
      flags: { alwaysAllow: false },
    });
    expect(fixture.host.core.scripts.problems()).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(/^not loaded: this workspace folder is not trusted/),
      }),
    ]);
    expect(value(await client.bridge.api.invoke('trust.list', {}))).toEqual({ folders: [], problem: null });
  });

  it('trust.add asks in main’s dialog, which names what trusting gives; Cancel trusts nothing', async () => {
    const { dialog, result } = await trustAdd(fixture.workspace, 'cancel');
    expect(dialog).toMatchObject({
      kind: 'trust',
      folder: fs.realpathSync(fixture.workspace),
      tools: [
        { name: 'script_deploy', alwaysAllow: true, secrets: [], change: null },
        { name: 'script_weather', alwaysAllow: true, secrets: ['WEATHER_KEY'], change: null },
      ],
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'declined' } });
    expect(value(await client.bridge.api.invoke('trust.list', {})).folders).toEqual([]);
    expect(source('script_weather')?.source).toMatchObject({ trusted: false });
  });

  it('trust.add applies at once: the workspace tools are trusted and the workspace one takes its name', async () => {
    const item = value((await trustAdd(fixture.workspace)).result);
    expect(item).toMatchObject({ path: fs.realpathSync(fixture.workspace), exists: true });
    expect(source('script_weather')).toMatchObject({
      source: { trusted: true },
      flags: { alwaysAllow: true },
    });
    expect(source('script_deploy')?.source).toMatchObject({ scope: 'workspace', trusted: true });
    expect(value(await client.bridge.api.invoke('trust.status', {}))).toMatchObject({
      trusted: true,
      untrustedTools: [],
    });
    expect(value(await client.bridge.api.invoke('trust.list', {})).folders).toEqual([item]);
  });

  it('a tool that arrives or changes after trust.add is untrusted, shown as such, and trusted only by trusting again', async () => {
    writeTool(workspaceScripts(fixture.workspace), 'release', {
      always_allow: true,
      secrets: ['GITHUB_TOKEN'],
    });
    fs.appendFileSync(path.join(workspaceScripts(fixture.workspace), 'weather', 'script.js'), '\n// pulled');
    await fixture.host.core.scripts.rescan();
    expect(source('script_release')).toMatchObject({
      source: {
        trusted: false,
        untrusted: expect.stringMatching(/^is new in .* since you trusted that folder/),
      },
      flags: { alwaysAllow: false },
    });
    expect(source('script_weather')).toMatchObject({
      source: { trusted: false, untrusted: expect.stringMatching(/^changed since you trusted/) },
      flags: { alwaysAllow: false },
    });
    expect(value(await client.bridge.api.invoke('trust.status', {}))).toMatchObject({
      trusted: true,
      // script_deploy did not change itself, but what lies beside it in the scan folder did, which it may load.
      untrustedTools: ['script_deploy', 'script_release', 'script_weather'],
      changedTools: [
        { name: 'script_deploy', change: 'changed' },
        { name: 'script_release', change: 'new' },
        { name: 'script_weather', change: 'changed' },
      ],
      trustedAt: expect.any(String),
      retrust: null,
    });
    // The dialog says which are new or changed; what it showed is what gets trusted.
    const { dialog, result } = await trustAdd(fixture.workspace);
    expect(dialog).toMatchObject({
      tools: [
        { name: 'script_deploy', change: 'changed' },
        { name: 'script_release', alwaysAllow: true, secrets: ['GITHUB_TOKEN'], change: 'new' },
        { name: 'script_weather', change: 'changed' },
      ],
    });
    expect(value(result)).toMatchObject({ tools: ['script_deploy', 'script_release', 'script_weather'] });
    expect(source('script_release')).toMatchObject({
      source: { trusted: true },
      flags: { alwaysAllow: true },
    });
    expect(value(await client.bridge.api.invoke('trust.status', {}))).toMatchObject({
      untrustedTools: [],
      changedTools: [],
    });
  });

  it('trust.revoke applies at once too; revoking again is not_found', async () => {
    value(await client.bridge.api.invoke('trust.revoke', { folder: fixture.workspace }));
    expect(source('script_weather')).toMatchObject({
      source: { trusted: false },
      flags: { alwaysAllow: false },
    });
    expect(source('script_deploy')?.source).toMatchObject({ scope: 'global' });
    expect(await client.bridge.api.invoke('trust.revoke', { folder: fixture.workspace })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('refuses what is not an absolute existing folder', async () => {
    for (const folder of ['relative/dir', '', path.join(os.tmpdir(), 'no-such-folder-for-trust')]) {
      expect(await client.bridge.api.invoke('trust.add', { folder })).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
    expect(await client.bridge.api.invoke('trust.status', { workspace: 'rel' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });

  it('tells about another folder, and says so when the file is damaged (nothing is trusted)', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-trust-other-'));
    writeTool(workspaceScripts(other), 'lint_all');
    value((await trustAdd(other)).result);
    expect(value(await client.bridge.api.invoke('trust.status', { workspace: other }))).toMatchObject({
      trusted: true,
      tools: ['script_lint_all'],
    });
    fs.writeFileSync(
      path.join(fixture.home, 'desktop', 'trusted-folders.json'),
      '{"version": 1, "folders": [',
    );
    const list = value(await client.bridge.api.invoke('trust.list', {}));
    expect(list.folders).toEqual([]);
    expect(list.problem).toMatch(/not valid JSON.*nothing is trusted/);
    expect(value(await client.bridge.api.invoke('trust.status', { workspace: other }))).toMatchObject({
      trusted: false,
      untrustedTools: ['script_lint_all'],
      problem: expect.stringMatching(/nothing is trusted/),
    });
    expect((await trustAdd(other)).result).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringMatching(/fix or remove the file/) },
    });
    await fixture.host.core.scripts.rescan();
    expect(fixture.host.core.scripts.problems()).toContainEqual(
      expect.objectContaining({
        reason: expect.stringMatching(/nothing is trusted: these workspace tools ask/),
      }),
    );
  });
});
