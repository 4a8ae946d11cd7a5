// `agenvoy trust list|add|revoke`, in-process through main() with no terminal (a person typing the command is the
// decision), and how `agenvoy tools list` shows trust and writable folders.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttackPlace } from '../adapters/script/trust-attack-testing';
import { attackPlace, cli, evidenceTool } from '../adapters/script/trust-attack-testing';

let place: AttackPlace;

beforeEach(() => {
  place = attackPlace();
});

afterEach(() => {
  fs.rmSync(place.tmp, { recursive: true, force: true });
});

describe('agenvoy trust', () => {
  it('lists nothing at first, adds the current folder (naming its tools), lists and revokes it', async () => {
    expect(await cli(place, ['trust', 'list'])).toMatchObject({
      code: 0,
      stdout: 'no trusted folders: workspace tools ask on every call and get no secrets\n',
    });
    evidenceTool(place.workspaceScripts, 'one', { name: 'one' });
    evidenceTool(place.workspaceScripts, 'two', { name: 'two' });
    const added = await cli(place, ['trust', 'add']);
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      `trusted ${place.workspace}\n` +
        'its workspace tools now run as their tool.json says and get their secrets: script_one, script_two\n' +
        'tools added or changed later ask on every call and get no secrets until you trust the folder again\n',
    );
    expect((await cli(place, ['trust', 'add'])).stdout).toMatch(/^already trusted /);
    expect((await cli(place, ['trust', 'list'])).stdout).toMatch(
      new RegExp(
        `^${place.workspace} {2}\\(since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\) {2}2 tools trusted\\n$`,
      ),
    );
    const json = JSON.parse((await cli(place, ['trust', 'list', '--json'])).stdout);
    expect(json).toEqual({
      folders: [
        {
          path: place.workspace,
          trustedAt: expect.any(String),
          exists: true,
          tools: ['script_one', 'script_two'],
        },
      ],
      problem: null,
      file: path.join(place.home, 'desktop', 'trusted-folders.json'),
    });

    // A tool that arrives later is named when the person trusts the folder again.
    evidenceTool(place.workspaceScripts, 'three', { name: 'three' });
    fs.appendFileSync(path.join(place.workspaceScripts, 'one', 'script.js'), '\n');
    const again = await cli(place, ['trust', 'add']);
    expect(again.stdout).toBe(
      `trusted again ${place.workspace}\n` +
        'its workspace tools now run as their tool.json says and get their secrets: script_one, script_three, script_two\n' +
        // script_two did not change, but what lies beside it did (a new tool whose files its script could load).
        'trusted now, as they are: script_one (it or a file beside it changed since you last trusted it), script_three (new since you last trusted it), script_two (it or a file beside it changed since you last trusted it)\n' +
        'tools added or changed later ask on every call and get no secrets until you trust the folder again\n',
    );
    expect(JSON.parse((await cli(place, ['trust', 'add', '--json'])).stdout)).toMatchObject({
      added: false,
      tools: ['script_one', 'script_three', 'script_two'],
      changed: [],
      notCovered: [],
    });
    expect(await cli(place, ['trust', 'revoke', '.'])).toMatchObject({
      code: 0,
      stdout: `no longer trusted: ${place.workspace}\n`,
    });
    expect(await cli(place, ['trust', 'revoke', place.workspace])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/is not a trusted folder/),
    });
  });

  it('adds a folder by the realpath a symlink leads to, and marks a folder that is gone', async () => {
    const link = path.join(place.tmp, 'link');
    fs.symlinkSync(place.workspace, link);
    const added = await cli(place, ['trust', 'add', 'link'], { cwd: place.tmp });
    expect(added.stdout).toMatch(
      `trusted ${place.workspace} (${link} leads there)\nit has no workspace tools yet\n` +
        'tools added or changed later ask on every call and get no secrets until you trust the folder again\n',
    );
    fs.rmSync(place.workspace, { recursive: true });
    expect((await cli(place, ['trust', 'list'], { cwd: place.tmp })).stdout).toMatch(/ {2}GONE\n$/);
  });

  it('refuses what is not a folder and wrong usage', async () => {
    expect(await cli(place, ['trust', 'add', 'nope'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/nope is not a folder/),
    });
    expect((await cli(place, ['trust', 'revoke'])).code).toBe(2);
    expect((await cli(place, ['trust', 'add', 'a', 'b'])).code).toBe(2);
    expect((await cli(place, ['trust', 'bless'])).code).toBe(2);
    expect(fs.existsSync(path.join(place.home, 'desktop', 'trusted-folders.json'))).toBe(false);
  });

  it('tools list shows untrusted workspace tools and the folders a global tool may write', async () => {
    const out = path.join(place.tmp, 'reports');
    const global = evidenceTool(place.globalScripts, 'publish', { name: 'publish', writable: [out] });
    evidenceTool(place.workspaceScripts, 'local', { name: 'local' });
    const table = (await cli(place, ['tools', 'list'])).stdout;
    expect(table).toMatch(new RegExp(`script_publish .* writes ${global}, ${out}`));
    expect(table).toMatch(/script_local .* untrusted workspace tool: asks every call, no secrets/);
    const json = JSON.parse((await cli(place, ['tools', 'list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;
    expect(json.find((tool) => tool.name === 'script_publish')).toMatchObject({
      trusted: true,
      writable: [global, out],
    });
    expect(json.find((tool) => tool.name === 'script_local')).toMatchObject({ trusted: false, writable: [] });
    expect(json.find((tool) => tool.name === 'run_command')).not.toHaveProperty('trusted');
  });
});
