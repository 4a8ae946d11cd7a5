// Attacks on every file-writing tool (write_result, html_template, download_file, generate_image,
// generate_audio) and on the safe writer under them: whatever a hostile model or repository puts in the way
// (symlinks, hard links, fifos, `..`, races), nothing is written outside the workspace and the error says why
// (docs/security.md, "Files the tools write").
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../builtin/download-file';
import { generateAudioTool } from '../builtin/generate-audio';
import { generateImageTool } from '../builtin/generate-image';
import { htmlTemplateTool } from '../builtin/html-template';
import { safeWriteFile } from './safe-write';
import { testContext } from './testing/tool-context';
import type { LocalServer } from '../builtin/web/testing/local-server';
import { startLocalServer } from '../builtin/web/testing/local-server';
import { writeResultTool } from '../builtin/write-result';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const ORIGINAL = 'ssh-ed25519 AAAA-the-real-key user@host\n';

let root: string;
let workspace: string;
let home: string;
let server: LocalServer;
let savedHome: string | undefined;

beforeEach(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-write-attack-'));
  workspace = path.join(root, 'workspace');
  home = path.join(root, 'home');
  fs.mkdirSync(workspace);
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'authorized_keys'), ORIGINAL);
  fs.writeFileSync(path.join(home, '.bashrc'), 'export PS1=safe\n');
  // The tools never read HOME, but the targets below are where ~ points: the attack as it would really be aimed.
  savedHome = process.env.HOME;
  process.env.HOME = home;
  server = await startLocalServer((req, res) => {
    if (req.url === '/payload') return void res.end('PWNED');
    if (req.url === '/v1/images/generations')
      return void res.end(JSON.stringify({ data: [{ b64_json: PNG.toString('base64') }] }));
    if (req.url === '/v1/audio/speech') {
      res.setHeader('content-type', 'audio/mpeg');
      return void res.end('PWNED-AUDIO');
    }
    res.writeHead(404).end();
  });
});
afterEach(async () => {
  if (savedHome === undefined) delete process.env.HOME;
  else process.env.HOME = savedHome;
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file-writing tool, writing `file` (workspace-relative) with overwrite as asked. */
function writers() {
  const api = { baseUrl: `${server.url}/v1`, model: 'm', keyName: 'KEY' };
  const ctx = testContext({
    workspace,
    services: { web: { allowedHosts: ['127.0.0.1'], images: api, audio: { ...api, voice: 'v' } } },
    getSecret: async () => 'sk-test',
  }).ctx;
  return [
    [
      'safe writer',
      (file: string, overwrite: boolean) =>
        safeWriteFile({ workspace, path: file, parameter: 'path', overwrite }, 'PWNED'),
    ],
    [
      'write_result',
      (file: string, overwrite: boolean) =>
        Promise.resolve(writeResultTool.handler({ path: file, content: 'PWNED', overwrite }, ctx)),
    ],
    [
      'html_template',
      (file: string, overwrite: boolean) =>
        Promise.resolve(htmlTemplateTool.handler({ output: file, template: 'PWNED', overwrite }, ctx)),
    ],
    [
      'download_file',
      (file: string, overwrite: boolean) =>
        Promise.resolve(
          downloadFileTool.handler({ url: `${server.url}/payload`, path: file, overwrite }, ctx),
        ),
    ],
    [
      'generate_image',
      (file: string, overwrite: boolean) =>
        Promise.resolve(generateImageTool.handler({ prompt: 'x', path: file, overwrite }, ctx)),
    ],
    [
      'generate_audio',
      (file: string, overwrite: boolean) =>
        Promise.resolve(generateAudioTool.handler({ text: 'x', path: file, overwrite }, ctx)),
    ],
  ] as const;
}

/** Every file and link outside the workspace, with its content or target: must be the same after an attack. */
function outsideState(): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file === workspace) continue;
      const stat = fs.lstatSync(file);
      if (stat.isSymbolicLink()) state[file] = `-> ${fs.readlinkSync(file)}`;
      else if (stat.isDirectory()) walk(file);
      else if (stat.isFile()) state[file] = fs.readFileSync(file, 'latin1');
      else state[file] = 'special';
    }
  };
  walk(root);
  return state;
}

/** Runs every writer on `file`; each must fail with `why`, or (allowed) write inside the workspace only. */
async function attack(file: string, overwrite: boolean, why: RegExp | 'inside') {
  for (const [name, write] of writers()) {
    const before = outsideState();
    const started = Date.now();
    const result = await write(file, overwrite).then(
      () => 'written',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(Date.now() - started, `${name} ${file}: hung`).toBeLessThan(10_000);
    expect(outsideState(), `${name} ${file} (overwrite ${overwrite}) changed something outside`).toEqual(
      before,
    );
    // generate_image adds .png to a name without an extension: another file, inside, which it may write.
    const renamed = name === 'generate_image' && path.extname(file) === '' && result === 'written';
    if (why === 'inside') expect(result, `${name} ${file}`).toBe('written');
    else if (!renamed) expect(result, `${name} ${file} (overwrite ${overwrite})`).toMatch(why);
  }
  expect(fs.readFileSync(path.join(home, '.ssh', 'authorized_keys'), 'utf8')).toBe(ORIGINAL);
}

describe('a symlink at the target', () => {
  it('is never written through: refused without overwrite, replaced itself (inside) with overwrite', async () => {
    const targets: Array<[string, string]> = [
      ['keys.txt', path.join(os.homedir(), '.ssh', 'authorized_keys')],
      ['bashrc.html', path.join(os.homedir(), '.bashrc')],
      ['dir.html', path.join(os.homedir(), '.ssh')],
      ['relative.mp3', '../home/.ssh/authorized_keys'],
      ['chain.png', 'keys.txt'],
    ];
    for (const [name, to] of targets) fs.symlinkSync(to, path.join(workspace, name));
    for (const [name] of targets)
      await attack(name, false, /already exists|is a symlink|never written through/);
    for (const [name] of targets) {
      await attack(name, true, 'inside');
      expect(fs.lstatSync(path.join(workspace, name)).isFile(), name).toBe(true);
      fs.rmSync(path.join(workspace, name));
      fs.symlinkSync(targets.find(([n]) => n === name)?.[1] ?? '', path.join(workspace, name));
    }
  });
});

describe('a symlinked folder on the way', () => {
  it('leading out is refused and named; one that stays inside is followed', async () => {
    fs.symlinkSync(path.join(os.homedir(), '.ssh'), path.join(workspace, 'reports'));
    fs.mkdirSync(path.join(workspace, 'a'));
    fs.symlinkSync(home, path.join(workspace, 'a', 'b'));
    fs.symlinkSync(path.join(workspace, 'l2'), path.join(workspace, 'l1'));
    fs.symlinkSync(home, path.join(workspace, 'l2'));
    fs.symlinkSync('..', path.join(workspace, 'up'));
    fs.symlinkSync('/', path.join(workspace, 'slash'));
    for (const file of [
      'reports/authorized_keys',
      'reports/new-file',
      'a/b/.bashrc',
      'a/b/.ssh/authorized_keys',
      'l1/.ssh/authorized_keys',
      'up/home/.bashrc',
      'up/escaped.txt',
      'slash/tmp/escaped.txt',
    ]) {
      for (const overwrite of [false, true])
        await attack(file, overwrite, /leads out of the workspace through the symlink/);
    }
    fs.mkdirSync(path.join(workspace, 'real'));
    fs.symlinkSync(path.join(workspace, 'real'), path.join(workspace, 'inside-link'));
    await attack('inside-link/ok.png', true, 'inside');
  });
});

describe('paths that leave by text', () => {
  it('`..`, absolute paths and the workspace itself are refused before any file is touched', async () => {
    const outsideAbs = path.join(os.homedir(), '.ssh', 'authorized_keys');
    for (const file of [
      '../home/.ssh/authorized_keys',
      'a/../../home/.bashrc',
      './../../escaped.txt',
      outsideAbs,
      '/etc/passwd',
      `${workspace}/../home/.bashrc`,
      `${workspace}-sibling/x.txt`,
      '.',
      'sub/..',
    ]) {
      await attack(file, true, /must stay inside the workspace|must be a path relative/);
    }
    // Only generate_image wrote, and inside: it names "." and "sub/.." "..png" and "sub/...png".
    expect(fs.readdirSync(workspace).sort()).toEqual(['..png', 'sub']);
  });

  it('names that only look like elsewhere stay inside', async () => {
    for (const file of [
      '~/.ssh/authorized_keys',
      '$HOME/notes.txt',
      '..foo/x.txt',
      'a\\..\\..\\b.txt',
      '%2e%2e/x.txt',
    ])
      await attack(file, true, 'inside');
  });
});

describe('a symlink swapped in between the checks and the write', () => {
  it('a folder that becomes a symlink while the content is written: the file is not placed, nothing outside', async () => {
    fs.mkdirSync(path.join(workspace, 'out'));
    for (const overwrite of [false, true]) {
      const before = outsideState();
      const result = await safeWriteFile(
        { workspace, path: 'out/authorized_keys', parameter: 'path', overwrite },
        async (handle) => {
          await handle.write('PWNED');
          fs.renameSync(path.join(workspace, 'out'), path.join(workspace, 'out-moved'));
          fs.symlinkSync(path.join(home, '.ssh'), path.join(workspace, 'out'));
        },
      ).then(
        () => 'written',
        (error: Error) => error.message,
      );
      expect(result).toMatch(/ENOENT|no such file/);
      expect(outsideState()).toEqual(before);
      expect(fs.readdirSync(path.join(workspace, 'out-moved'))).toEqual([]);
      fs.rmSync(path.join(workspace, 'out'));
      fs.renameSync(path.join(workspace, 'out-moved'), path.join(workspace, 'out'));
    }
  });

  it('a process flipping a folder between a real one and a symlink out never gets a byte written outside', async () => {
    fs.mkdirSync(path.join(workspace, 'd'));
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs'); const end = Date.now() + 4000; let flips = 0;
         while (Date.now() < end) {
           // A writer's mkdir of a missing d can leave both folders: drop the spare, or the flips would stop.
           try { fs.renameSync('d', 'd-real'); } catch { try { fs.rmSync('d-real', { recursive: true }); } catch {} continue; }
           try { fs.symlinkSync(${JSON.stringify(path.join(home, '.ssh'))}, 'd'); flips++; } catch {}
           try { fs.unlinkSync('d'); fs.renameSync('d-real', 'd'); } catch {}
         }
         process.stdout.write(String(flips));`,
      ],
      { cwd: workspace, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let flips = '';
    flipper.stdout.on('data', (chunk: Buffer) => (flips += chunk.toString()));
    const exited = new Promise((resolve) => flipper.on('exit', resolve));
    const before = outsideState();
    const outcomes = new Map<string, number>();
    const ends = Date.now() + 3500;
    for (let i = 0; Date.now() < ends; i++) {
      const result = await safeWriteFile(
        { workspace, path: `d/authorized_keys-${i % 4}`, parameter: 'path', overwrite: i % 2 === 0 },
        'PWNED',
      ).then(
        () => 'written inside',
        (error: Error) =>
          /leads out|broken symlink/.test(error.message)
            ? 'refused: symlink'
            : /moved out of the workspace/.test(error.message)
              ? 'refused: moved while written'
              : /already exists/.test(error.message)
                ? 'exists'
                : /ENOENT|no such file|not a folder|EEXIST/.test(error.message)
                  ? 'failed: folder changed'
                  : `other: ${error.message}`,
      );
      outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
    }
    await exited;
    expect(outsideState()).toEqual(before);
    expect([...outcomes.keys()].filter((k) => k.startsWith('other'))).toEqual([]);
    // The race was really run: the folder was a symlink out many times while the writes went on (how many depends
    // on the machine's load; a loaded 2-core CI still flips dozens of times).
    expect(Number(flips)).toBeGreaterThan(20);
  }, 20_000);
});

describe('a dangling symlink', () => {
  it('at the target or on the way never creates the file it points to', async () => {
    const planted = path.join(os.homedir(), '.ssh', 'authorized_keys2');
    fs.symlinkSync(planted, path.join(workspace, 'new-keys'));
    fs.symlinkSync(path.join(home, 'not-yet', 'dir'), path.join(workspace, 'gone'));
    await attack('new-keys', false, /is a symlink|already exists/);
    await attack('gone/x.txt', true, /broken symlink|leads out/);
    expect(fs.existsSync(planted)).toBe(false);
    await attack('new-keys', true, 'inside');
    expect(fs.existsSync(planted)).toBe(false);
  });
});

describe('a hard link to a file outside', () => {
  it('is replaced as a name with overwrite, never written through', async () => {
    fs.linkSync(path.join(home, '.ssh', 'authorized_keys'), path.join(workspace, 'keys.html'));
    await attack('keys.html', false, /already exists/);
    await attack('keys.html', true, 'inside');
    expect(fs.statSync(path.join(workspace, 'keys.html')).nlink).toBe(1);
  });
});

describe('special files at the target or on the way', () => {
  it.skipIf(process.platform === 'win32')(
    'a fifo, a folder or a file used as a folder never hang or write outside',
    async () => {
      execFileSync('mkfifo', [path.join(workspace, 'pipe.html')]);
      fs.mkdirSync(path.join(workspace, 'folder.html'));
      fs.writeFileSync(path.join(workspace, 'plain'), 'x');
      await attack('pipe.html', false, /already exists/);
      await attack('folder.html', false, /names a folder|already exists/);
      await attack('folder.html', true, /names a folder|EISDIR|ENOTEMPTY|EEXIST/);
      await attack('plain/x.txt', true, /which is not a folder/);
      execFileSync('mkfifo', [path.join(workspace, 'pipe2.html')]);
      await attack('pipe2.html', true, 'inside');
      expect(fs.lstatSync(path.join(workspace, 'pipe2.html')).isFile()).toBe(true);
    },
  );
});

describe('case and look-alike tricks', () => {
  it('another spelling of a symlink out leads out (case-insensitive disks) or stays inside, never writes outside', async () => {
    fs.symlinkSync(path.join(home, '.ssh'), path.join(workspace, 'Link'));
    for (const file of [
      'LINK/authorized_keys',
      'link/authorized_keys',
      'Link/authorized_keys',
      'Link./x',
      'Lınk/x',
    ]) {
      for (const [name, write] of writers()) {
        const before = outsideState();
        const result = await write(file, true).then(
          () => 'written',
          (error: Error) => error.message,
        );
        expect(outsideState(), `${name} ${file}`).toEqual(before);
        if (result !== 'written')
          expect(result, `${name} ${file}`).toMatch(/leads out of the workspace through the symlink/);
        if (file.startsWith('Link/')) expect(result, `${name} ${file}`).not.toBe('written');
      }
    }
  });
});
