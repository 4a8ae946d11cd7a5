import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agenvoyPaths, workspaceScripts } from '../../core/paths';
import { resolveTools, scanDir } from './discover';
import { manifest, writeToolFolder } from './script-testing';

let tmp: string;
let globalDir: string;
let workspaceDir: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-discover-'));
  globalDir = agenvoyPaths(path.join(tmp, 'home')).globalScripts;
  workspaceDir = workspaceScripts(path.join(tmp, 'workspace'));
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('scanDir', () => {
  it('finds js and py tools and skips _ and . folders and loose files', async () => {
    writeToolFolder(globalDir, 'alpha', { manifest: manifest('alpha', { timeout: 2 }), js: '' });
    writeToolFolder(globalDir, 'beta', { manifest: manifest('beta_tool'), py: '' });
    writeToolFolder(globalDir, '_shared', { manifest: manifest('shared'), js: '' });
    writeToolFolder(globalDir, '.git', { manifest: manifest('hidden'), js: '' });
    fs.writeFileSync(path.join(globalDir, 'README.md'), 'not a tool');

    const found = await scanDir({ dir: globalDir, scope: 'global' });
    expect(found.problems).toEqual([]);
    expect(found.tools.map((t) => [t.toolName, t.script.language, t.scope])).toEqual([
      ['script_alpha', 'js', 'global'],
      ['script_beta_tool', 'py', 'global'],
    ]);
    expect(found.tools[0]?.manifest.timeoutMs).toBe(2000);
    expect(found.tools[0]?.dir).toBe(path.join(globalDir, 'alpha'));
  });

  it('reports each broken folder with its file and reason while the others load', async () => {
    writeToolFolder(globalDir, 'good', { manifest: manifest('good'), js: '' });
    writeToolFolder(globalDir, 'malformed', { manifest: '{"name": "m",', js: '' });
    writeToolFolder(globalDir, 'wrong_type', {
      manifest: manifest('wrong', { always_allow: 'yes' }),
      js: '',
    });
    writeToolFolder(globalDir, 'no_script', { manifest: manifest('no_script') });
    writeToolFolder(globalDir, 'bad_name', { manifest: manifest('bad name!'), js: '' });
    fs.mkdirSync(path.join(globalDir, 'empty'));

    const found = await scanDir({ dir: globalDir, scope: 'global' });
    expect(found.tools.map((t) => t.toolName)).toEqual(['script_good']);
    const byFolder = Object.fromEntries(found.problems.map((p) => [path.basename(p.dir), p]));
    expect(Object.keys(byFolder).sort()).toEqual([
      'bad_name',
      'empty',
      'malformed',
      'no_script',
      'wrong_type',
    ]);
    expect(byFolder.malformed).toMatchObject({
      file: path.join(globalDir, 'malformed', 'tool.json'),
      reason: expect.stringMatching(/^malformed JSON: /),
      scope: 'global',
    });
    expect(byFolder.wrong_type?.reason).toBe('"always_allow" must be true or false');
    expect(byFolder.no_script).toMatchObject({
      file: path.join(globalDir, 'no_script', 'script.js'),
      reason: 'missing script: add script.js (node) or script.py (python3)',
    });
    expect(byFolder.bad_name?.reason).toMatch(/^"name" may hold only/);
    expect(byFolder.empty).toMatchObject({
      file: path.join(globalDir, 'empty', 'tool.json'),
      reason: 'missing tool.json',
    });
  });

  it('treats a missing scan folder as empty and an unreadable one as a problem', async () => {
    expect(await scanDir({ dir: path.join(tmp, 'nowhere'), scope: 'global' })).toEqual({
      tools: [],
      problems: [],
    });
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, '');
    const found = await scanDir({ dir: file, scope: 'workspace' });
    expect(found.problems).toEqual([
      { dir: file, file, reason: expect.stringMatching(/^cannot read: /), scope: 'workspace' },
    ]);
  });

  it('refuses a folder with both scripts: which one runs must not change behind the approval', async () => {
    writeToolFolder(globalDir, 'both', { manifest: manifest('both'), js: '', py: '' });
    const found = await scanDir({ dir: globalDir, scope: 'global' });
    expect(found.tools).toEqual([]);
    expect(found.problems).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/^both script\.js and script\.py exist/) }),
    ]);
  });

  it('changes the fingerprint when tool.json or the script changes', async () => {
    const dir = writeToolFolder(globalDir, 'fp', { manifest: manifest('fp'), js: 'one' });
    const first = (await scanDir({ dir: globalDir, scope: 'global' })).tools[0]?.fingerprint;
    fs.writeFileSync(path.join(dir, 'script.js'), 'two!');
    const second = (await scanDir({ dir: globalDir, scope: 'global' })).tools[0]?.fingerprint;
    writeToolFolder(globalDir, 'fp', { manifest: manifest('fp', { concurrent: true }) });
    const third = (await scanDir({ dir: globalDir, scope: 'global' })).tools[0]?.fingerprint;
    expect(new Set([first, second, third]).size).toBe(3);
  });
});

describe('resolveTools', () => {
  it('lets a trusted workspace override the global folder and reports duplicates within one folder', async () => {
    writeToolFolder(globalDir, 'shared', { manifest: manifest('shared'), js: '' });
    writeToolFolder(globalDir, 'a_first', { manifest: manifest('dup'), js: '' });
    writeToolFolder(globalDir, 'b_second', { manifest: manifest('dup'), js: '' });
    writeToolFolder(workspaceDir, 'mine', { manifest: manifest('shared'), py: '' });

    const resolved = resolveTools([
      await scanDir({ dir: globalDir, scope: 'global' }),
      await scanDir({ dir: workspaceDir, scope: 'workspace' }, { trusted: true }),
    ]);
    const byName = Object.fromEntries(resolved.tools.map((t) => [t.toolName, t]));
    expect(byName.script_shared).toMatchObject({
      dir: path.join(workspaceDir, 'mine'),
      scope: 'workspace',
      trusted: true,
    });
    expect(byName.script_dup?.dir).toBe(path.join(globalDir, 'a_first'));
    expect(resolved.overridden.map((t) => t.dir)).toEqual([path.join(globalDir, 'shared')]);
    expect(resolved.problems).toEqual([
      {
        dir: path.join(globalDir, 'b_second'),
        file: path.join(globalDir, 'b_second', 'tool.json'),
        reason: `duplicate name "dup": ${path.join(globalDir, 'a_first')} already defines it`,
        scope: 'global',
      },
    ]);
  });

  it('never lets an untrusted workspace tool replace a global one: the global stays, the folder is a problem', async () => {
    writeToolFolder(globalDir, 'shared', { manifest: manifest('shared'), js: '' });
    writeToolFolder(workspaceDir, 'mine', { manifest: manifest('shared', { always_allow: true }), js: '' });
    writeToolFolder(workspaceDir, 'own', { manifest: manifest('own_tool'), js: '' });
    const resolved = resolveTools([
      await scanDir({ dir: globalDir, scope: 'global' }),
      await scanDir({ dir: workspaceDir, scope: 'workspace' }),
    ]);
    const byName = Object.fromEntries(resolved.tools.map((t) => [t.toolName, t]));
    expect(byName.script_shared).toMatchObject({ dir: path.join(globalDir, 'shared'), trusted: true });
    // A workspace tool with a name of its own loads, untrusted.
    expect(byName.script_own_tool).toMatchObject({ scope: 'workspace', trusted: false });
    expect(resolved.overridden).toEqual([]);
    expect(resolved.problems).toEqual([
      {
        dir: path.join(workspaceDir, 'mine'),
        file: path.join(workspaceDir, 'mine', 'tool.json'),
        reason: expect.stringMatching(/^not loaded: this workspace folder is not trusted.*agenvoy trust add/),
        scope: 'workspace',
      },
    ]);
  });
});

describe('writable', () => {
  it('gives a global tool its own folder plus what it declares, resolved', async () => {
    const home = path.join(tmp, 'user');
    fs.mkdirSync(path.join(home, 'reports'), { recursive: true });
    const dir = writeToolFolder(globalDir, 'w', {
      manifest: manifest('w', { writable: ['~/reports', 'cache', '~/reports'] }),
      js: '',
    });
    const [tool] = (
      await scanDir(
        { dir: globalDir, scope: 'global' },
        { homeDir: home, agenvoyHome: path.join(tmp, 'home') },
      )
    ).tools;
    expect(tool?.writable).toEqual([
      fs.realpathSync(dir),
      fs.realpathSync(path.join(home, 'reports')),
      path.join(fs.realpathSync(dir), 'cache'),
    ]);
  });

  it("ignores a workspace tool's writable with a warning, whatever it declares", async () => {
    writeToolFolder(workspaceDir, 'w', { manifest: manifest('w', { writable: ['/'] }), js: '' });
    const [tool] = (await scanDir({ dir: workspaceDir, scope: 'workspace' })).tools;
    expect(tool).toMatchObject({ writable: [], trusted: false });
    expect(tool?.warnings).toEqual(['"writable" ignored: a workspace tool may write only the workspace']);
  });

  it("refuses a global tool whose writable reaches the home folder, Agenvoy's files or credentials", async () => {
    const agenvoy = path.join(tmp, 'home');
    const home = path.join(tmp, 'user');
    fs.mkdirSync(path.join(home, 'projects'), { recursive: true });
    fs.mkdirSync(path.join(agenvoy, 'desktop'), { recursive: true });
    // A symlink that looks harmless but leads to the home folder.
    fs.symlinkSync(home, path.join(home, 'projects', 'innocent'));
    const cases: Array<[string, RegExp]> = [
      ['/', /is the root of the file system/],
      ['~', /is the home folder itself/],
      [home, /is the home folder itself/],
      [path.dirname(home), /contains the home folder/],
      ['~/projects/innocent', /is the home folder itself/],
      [agenvoy, /reaches \$AGENVOY_HOME\/desktop/],
      [path.join(agenvoy, 'desktop'), /reaches \$AGENVOY_HOME\/desktop/],
      [path.join(agenvoy, 'desktop', 'logs'), /reaches \$AGENVOY_HOME\/desktop/],
      [path.join(agenvoy, '.secrets'), /reaches the secret file/],
      [path.join(agenvoy, 'mcp.json'), /inside \$AGENVOY_HOME .* outside the tool's own folder/],
      ['../other_tool', /inside \$AGENVOY_HOME .* outside the tool's own folder/],
      ['~/data/.secrets', /reaches a secret file/],
      ['~/.ssh', /reaches a credential folder/],
      ['~/.aws/cli', /reaches a credential folder/],
      ['~/.docker/config.json', /reaches Docker credentials/],
      ['~other/x', /only ~ and ~\/… expand/],
    ];
    for (const [entry, expected] of cases) {
      const dir = writeToolFolder(globalDir, 'bad', {
        manifest: manifest('bad', { writable: [entry] }),
        js: '',
      });
      const found = await scanDir(
        { dir: globalDir, scope: 'global' },
        { homeDir: home, agenvoyHome: agenvoy },
      );
      expect(found.tools, entry).toEqual([]);
      expect(found.problems, entry).toEqual([
        { dir, file: path.join(dir, 'tool.json'), reason: expect.stringMatching(expected), scope: 'global' },
      ]);
      expect(found.problems[0]?.reason, entry).toContain(`"writable" entry ${JSON.stringify(entry)}`);
    }
  });
});
