import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agenvoyPaths } from '../paths';
import { TRUST_FILE, TrustedFolders, TrustError } from './trusted-folders';

let tmp: string;
let store: TrustedFolders;
let project: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-trust-')));
  store = TrustedFolders.inDesktop(agenvoyPaths(path.join(tmp, 'home')).desktop);
  project = path.join(tmp, 'project');
  fs.mkdirSync(project);
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const PIN = { name: 'script_build', pin: 'a'.repeat(64) };

describe('TrustedFolders', () => {
  it('lives in $AGENVOY_HOME/desktop, which the OS sandbox hides from commands and scripts', () => {
    expect(store.file).toBe(path.join(tmp, 'home', 'desktop', TRUST_FILE));
  });

  it('trusts nothing without a file, and only the exact folder once added', async () => {
    const none = { trusted: false, problem: null, tools: null, trustedAt: null, retrust: null };
    expect(await store.check(project)).toEqual(none);
    const { folder, added } = await store.add(project, [PIN]);
    expect(added).toBe(true);
    expect(folder.path).toBe(project);
    expect(await store.check(project)).toEqual({
      trusted: true,
      problem: null,
      tools: [PIN],
      trustedAt: folder.trustedAt,
      retrust: null,
    });
    // Neither a sub-folder nor the parent inherits it.
    fs.mkdirSync(path.join(project, 'sub'));
    expect((await store.check(path.join(project, 'sub'))).trusted).toBe(false);
    expect((await store.check(tmp)).trusted).toBe(false);
    // Trusting again replaces the tools (and the time): what it holds now is what is trusted.
    const other = { name: 'script_other', pin: 'b'.repeat(64) };
    const again = await store.add(project + '/', [other]);
    expect(again).toMatchObject({
      folder: { path: project, tools: [other] },
      added: false,
      previous: folder,
    });
    expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(store.file, 'utf8'))).toEqual({
      version: 2,
      folders: [{ path: project, trustedAt: again.folder.trustedAt, tools: [other] }],
    });
  });

  it('keys by realpath: a symlink to a trusted folder is trusted, a retargeted symlink is not', async () => {
    const link = path.join(tmp, 'link');
    fs.symlinkSync(project, link);
    const { folder } = await store.add(link, []);
    expect(folder.path).toBe(project);
    expect((await store.check(link)).trusted).toBe(true);
    expect((await store.check(project)).trusted).toBe(true);
    // The link now leads elsewhere: what it leads to was never trusted.
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    fs.rmSync(link);
    fs.symlinkSync(other, link);
    expect((await store.check(link)).trusted).toBe(false);
    // The trusted folder replaced by a symlink to another folder is no longer trusted either.
    fs.rmSync(project, { recursive: true });
    fs.symlinkSync(other, project);
    expect((await store.check(project)).trusted).toBe(false);
  });

  it('a folder trusted before tools were recorded (version 1) trusts none of its tools until trusted again', async () => {
    const trustedAt = '2026-01-01T00:00:00.000Z';
    fs.mkdirSync(path.dirname(store.file), { recursive: true });
    fs.writeFileSync(store.file, JSON.stringify({ version: 1, folders: [{ path: project, trustedAt }] }));
    expect(await store.check(project)).toEqual({
      trusted: false,
      problem: null,
      tools: null,
      trustedAt,
      retrust: expect.stringMatching(/did not record which tools.*trust it again \(agenvoy trust add /),
    });
    // Another change keeps it as one to trust again (version 2, tools null), never as trusted.
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    await store.add(other, [PIN]);
    expect(JSON.parse(fs.readFileSync(store.file, 'utf8'))).toMatchObject({
      version: 2,
      folders: [
        { path: project, trustedAt, tools: null },
        { path: other, tools: [PIN] },
      ],
    });
    expect((await store.check(project)).retrust).toMatch(/trust it again/);
    await store.add(project, [PIN]);
    expect(await store.check(project)).toMatchObject({ trusted: true, tools: [PIN], retrust: null });
  });

  it('refuses to trust what is not a folder', async () => {
    fs.writeFileSync(path.join(tmp, 'file'), 'x');
    await expect(store.add(path.join(tmp, 'file'), [])).rejects.toThrow(TrustError);
    await expect(store.add(path.join(tmp, 'missing'), [])).rejects.toThrow(/is not a folder/);
    expect(fs.existsSync(store.file)).toBe(false);
  });

  it('revokes by the trusted path, through a symlink, or after the folder is gone', async () => {
    await store.add(project, []);
    const link = path.join(tmp, 'link');
    fs.symlinkSync(project, link);
    expect((await store.revoke(link))?.path).toBe(project);
    expect((await store.check(project)).trusted).toBe(false);
    expect(await store.revoke(project)).toBeNull();

    await store.add(project, []);
    fs.rmSync(project, { recursive: true });
    expect((await store.revoke(project))?.path).toBe(project);
    expect((await store.read()).kind === 'ok' && (await store.read())).toMatchObject({
      file: { folders: [] },
    });
  });

  it('sees changes another process made, and keeps concurrent adds of this one', async () => {
    const other = new TrustedFolders(store.file);
    const folders = ['a', 'b', 'c', 'd'].map((name) => path.join(tmp, name));
    folders.forEach((folder) => fs.mkdirSync(folder));
    expect((await store.check(folders[0] as string)).trusted).toBe(false);
    await Promise.all(folders.map((folder) => other.add(folder, [])));
    for (const folder of folders) expect((await store.check(folder)).trusted).toBe(true);
  });

  it('trusts nothing and says why when the file is damaged, and refuses to change it', async () => {
    await store.add(project, []);
    const damaged: Array<[string, RegExp]> = [
      ['garbage \u0000\u0001', /is not valid JSON/],
      ['[]', /must hold a JSON object/],
      ['{"version":3,"folders":[]}', /unknown version 3/],
      ['{"version":2,"folders":[],"extra":1}', /unknown key "extra"/],
      [
        JSON.stringify({ version: 2, folders: [{ path: project, trustedAt: '2026-01-01' }] }),
        /"tools" must be/,
      ],
      [
        JSON.stringify({
          version: 2,
          folders: [{ path: project, trustedAt: '2026-01-01', tools: [], x: 1 }],
        }),
        /unknown key "x"/,
      ],
      [
        JSON.stringify({
          version: 2,
          folders: [{ path: project, trustedAt: '2026-01-01', tools: [{ name: 'deploy', pin: PIN.pin }] }],
        }),
        /needs a "name" like script_<name>/,
      ],
      [
        JSON.stringify({
          version: 2,
          folders: [{ path: project, trustedAt: '2026-01-01', tools: [{ name: 'script_x', pin: 'abc' }] }],
        }),
        /"pin" of 64 hex digits/,
      ],
      [
        JSON.stringify({
          version: 2,
          folders: [{ path: project, trustedAt: '2026-01-01', tools: [{ ...PIN, trusted: true }] }],
        }),
        /tools\[0\] must be/,
      ],
      ['{"version":1}', /"folders" must be an array/],
      [JSON.stringify({ version: 1, folders: [project] }), /folders\[0\] must be an object/],
      [
        JSON.stringify({ version: 1, folders: [{ path: 'project', trustedAt: '2026-01-01' }] }),
        /absolute, normal path/,
      ],
      [
        JSON.stringify({ version: 1, folders: [{ path: `${project}/../project`, trustedAt: '2026-01-01' }] }),
        /absolute, normal path/,
      ],
      [JSON.stringify({ version: 1, folders: [{ path: project }] }), /needs a "trustedAt" time/],
      [JSON.stringify({ version: 1, folders: [{ path: project, trustedAt: 'never' }] }), /"trustedAt"/],
      [JSON.stringify({ version: 1, folders: [{ path: project, trustedAt: 'x' }, 7] }), /folders\[0\]/],
      // Nesting no trust file has is named before anything looks inside it.
      [
        `{"version":1,"folders":[],"later":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
        /nested deeper than 16/,
      ],
    ];
    for (const [text, problem] of damaged) {
      fs.writeFileSync(store.file, text);
      const check = await store.check(project);
      expect(check.trusted, text).toBe(false);
      expect(check.problem, text).toMatch(problem);
      expect(check.problem, text).toMatch(/nothing is trusted$/);
      await expect(store.add(project, []), text).rejects.toThrow(/fix or remove the file/);
      await expect(store.revoke(project), text).rejects.toThrow(TrustError);
      expect(fs.readFileSync(store.file, 'utf8')).toBe(text);
    }
    // A folder where the file should be is damaged too, not a crash.
    fs.rmSync(store.file);
    fs.mkdirSync(store.file);
    expect((await store.check(project)).problem).toMatch(/cannot read/);
  });
});
