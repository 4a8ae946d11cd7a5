// A hostile repository's script folders may hold a tool.json that is not a file: a fifo (opening it waits for a writer
// forever, holding one of libuv's four file threads, so five of them stopped every file operation of the app), a
// device, a folder, or a link to one of those. Each is refused as a problem with its reason, at once, and the other
// tools still load; and a folder of more tool folders or entries than a scan reads is cut at its bound, saying so
// A workspace tool.json is never read through a link, and a parse error never quotes the text
// (docs/robustness.md, "Script folders").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedRepositories } from '../../gate/embedded-repositories';
import { scanDir } from './discover';
import { manifest, writeToolFolder } from './script-testing';

let tmp: string;
let scan: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-special-files-'));
  scan = path.join(tmp, 'workspace', '.config', 'agenvoy', 'tools', 'script');
  fs.mkdirSync(scan, { recursive: true });
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

/** A tool folder whose tool.json is made by `make` (the script is an ordinary file). */
function oddFolder(name: string, make: (file: string) => void): void {
  const dir = path.join(scan, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'script.js'), 'console.log("hi")');
  make(path.join(dir, 'tool.json'));
}

/** Fails the test instead of hanging it when `promise` does not settle in time. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('a tool.json that is not a regular file', () => {
  it('is refused at once with its reason, however many there are, and the real tools still load', async () => {
    writeToolFolder(scan, 'good', { manifest: manifest('good_tool'), js: '' });
    // More fifos than libuv has file threads: one blocking open each would stop the whole scan, and every other
    // file operation of the process with it.
    for (let i = 0; i < 6; i++) oddFolder(`fifo${i}`, mkfifo);
    const elsewhere = path.join(tmp, 'outside.fifo');
    mkfifo(elsewhere);
    oddFolder('link-to-fifo', (file) => fs.symlinkSync(elsewhere, file));
    oddFolder('device', (file) => fs.symlinkSync('/dev/zero', file));
    oddFolder('folder', (file) => fs.mkdirSync(file));

    const found = await within(10_000, scanDir({ dir: scan, scope: 'workspace' }), 'the scan');
    expect(found.tools.map((tool) => tool.toolName)).toEqual(['script_good_tool']);
    const reasons = Object.fromEntries(found.problems.map((p) => [path.basename(p.dir), p.reason]));
    expect(Object.keys(reasons).sort()).toEqual(
      ['device', 'fifo0', 'fifo1', 'fifo2', 'fifo3', 'fifo4', 'fifo5', 'folder', 'link-to-fifo'].sort(),
    );
    for (const name of ['fifo0', 'fifo5'])
      expect(reasons[name]).toBe('cannot read tool.json: it is not a regular file');
    // In a workspace a link is refused before it is opened: a fifo or a device behind it is never reached.
    for (const name of ['link-to-fifo', 'device']) {
      expect(reasons[name]).toBe(
        'cannot read tool.json: it is a link (a workspace tool.json must be a file)',
      );
    }
    expect(reasons.folder).toMatch(/^cannot read tool.json: /);

    // No file thread was left waiting on a fifo: the process still reads files.
    const probe = path.join(tmp, 'probe.txt');
    fs.writeFileSync(probe, 'still reading');
    const reads = Array.from({ length: 8 }, () => fs.promises.readFile(probe, 'utf8'));
    expect(await within(5_000, Promise.all(reads), 'reading after the scan')).toEqual(
      Array(8).fill('still reading'),
    );
  });

  it('a fifo named .git does not hold up the workspace check for embedded repositories', async () => {
    const root = path.join(tmp, 'workspace');
    fs.mkdirSync(path.join(root, 'vendor', 'lib'), { recursive: true });
    mkfifo(path.join(root, 'vendor', 'lib', '.git'));
    fs.mkdirSync(path.join(root, 'real', '.git'), { recursive: true });
    fs.writeFileSync(path.join(root, 'real', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const found = await within(10_000, embeddedRepositories(root), 'the check');
    expect(found.map((dir) => path.relative(root, dir))).not.toContain(path.join('vendor', 'lib', '.git'));
  });
});

describe('a scan folder with more than it may load', () => {
  it('loads the first tool folders by name up to the bound and says the rest were not loaded', async () => {
    for (let i = 0; i < 30; i++)
      writeToolFolder(scan, `t${String(i).padStart(2, '0')}`, { manifest: manifest(`t${i}`), js: '' });
    fs.writeFileSync(path.join(scan, 'README.md'), 'loose files do not count');
    const found = await scanDir({ dir: scan, scope: 'workspace' }, {}, { folders: 12, entries: 1000 });
    expect(found.tools.map((tool) => tool.toolName)).toEqual(
      Array.from({ length: 12 }, (_, i) => `script_t${i}`),
    );
    expect(found.problems).toEqual([
      expect.objectContaining({
        dir: scan,
        reason: 'holds 30 tool folders: the first 12 by name are loaded, the rest are not',
      }),
    ]);
  });

  it('reads no more entries than the bound, however many the folder holds', async () => {
    for (let i = 0; i < 300; i++) fs.mkdirSync(path.join(scan, `empty${i}`));
    const found = await scanDir({ dir: scan, scope: 'workspace' }, {}, { folders: 1000, entries: 100 });
    const bound = found.problems.filter((p) => p.dir === scan);
    expect(bound).toEqual([
      expect.objectContaining({
        reason: 'holds more than 100 entries: only the first 100 read are considered',
      }),
    ]);
    // Each folder read is an empty one: a problem of its own, and only 100 of them.
    expect(found.problems.filter((p) => p.dir !== scan)).toHaveLength(100);
  });
});

describe('a tool.json that points at a private file', () => {
  const CANARY = 'AKIACANARY7F3Q';

  it('is not read through a link in a workspace, and a parse error never quotes the text', async () => {
    const secret = path.join(tmp, 'home', '.aws', 'credentials');
    fs.mkdirSync(path.dirname(secret), { recursive: true });
    fs.writeFileSync(secret, `[default]\naws_access_key_id=${CANARY}\n`);
    oddFolder('linked', (file) => fs.symlinkSync(secret, file));
    // The same text as a real file of the repository: refused as JSON, and the reason does not carry it either.
    oddFolder('copied', (file) => fs.writeFileSync(file, `${CANARY}[default]`));
    const found = await scanDir({ dir: scan, scope: 'workspace' });
    const reasons = Object.fromEntries(found.problems.map((p) => [path.basename(p.dir), p.reason]));
    expect(reasons.linked).toBe('cannot read tool.json: it is a link (a workspace tool.json must be a file)');
    expect(reasons.copied).toBe('malformed JSON: the text is not valid JSON');
    expect(JSON.stringify(found)).not.toContain(CANARY.slice(0, 6));
  });

  it('a global tool.json linked to a fifo or a device is refused as not a regular file, at once', async () => {
    const fifo = path.join(tmp, 'global.fifo');
    mkfifo(fifo);
    oddFolder('to-fifo', (file) => fs.symlinkSync(fifo, file));
    oddFolder('to-device', (file) => fs.symlinkSync('/dev/zero', file));
    const found = await within(10_000, scanDir({ dir: scan, scope: 'global' }), 'the scan');
    expect(found.problems.map((p) => p.reason)).toEqual([
      'cannot read tool.json: it is not a regular file',
      'cannot read tool.json: it is not a regular file',
    ]);
  });

  it('a global tool.json may still be a link (the person made it)', async () => {
    const target = path.join(tmp, 'manifests', 'tool.json');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, JSON.stringify(manifest('linked_tool')));
    oddFolder('linked', (file) => fs.symlinkSync(target, file));
    const found = await scanDir({ dir: scan, scope: 'global' });
    expect(found.tools.map((tool) => tool.toolName)).toEqual(['script_linked_tool']);
  });
});
