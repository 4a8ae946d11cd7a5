// Attacks on the files that make a later program run code (docs/security.md, "Files the tools write"): git's config
// and hooks, this app's workspace tools, editor and agent folders, direnv/npm/yarn config, shell start-up files,
// and (when the workspace is the home folder) autostart folders and folders on PATH. Every file-writing tool refuses
// them, whatever the spelling (case, `./`, `a/..`, a symlink inside the workspace that leads there), with or without
// overwrite, and says why and what the person can do instead.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../builtin/download-file';
import { generateAudioTool } from '../builtin/generate-audio';
import { generateImageTool } from '../builtin/generate-image';
import { htmlTemplateTool } from '../builtin/html-template';
import { checkWritable, safeWriteFile } from './safe-write';
import { testContext } from './testing/tool-context';
import type { LocalServer } from '../builtin/web/testing/local-server';
import { startLocalServer } from '../builtin/web/testing/local-server';
import { writeResultTool } from '../builtin/write-result';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const GIT_CONFIG = '[core]\n\trepositoryformatversion = 0\n';

let root: string;
let workspace: string;
let server: LocalServer;
let saved: { home?: string; path?: string };

beforeEach(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-protected-')));
  workspace = path.join(root, 'workspace');
  fs.mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.git', 'config'), GIT_CONFIG);
  fs.mkdirSync(path.join(workspace, '.vscode'));
  fs.writeFileSync(path.join(workspace, '.envrc'), 'export A=1\n');
  saved = { home: process.env.HOME, path: process.env.PATH };
  process.env.HOME = path.join(root, 'home');
  fs.mkdirSync(process.env.HOME);
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
  for (const [key, value] of [
    ['HOME', saved.home],
    ['PATH', saved.path],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file-writing tool, writing `file` (relative to `where`) with overwrite as asked. */
function writers(where: string) {
  const api = { baseUrl: `${server.url}/v1`, model: 'm', keyName: 'KEY' };
  const ctx = testContext({
    workspace: where,
    services: { web: { allowedHosts: ['127.0.0.1'], images: api, audio: { ...api, voice: 'v' } } },
    getSecret: async () => 'sk-test',
  }).ctx;
  return [
    [
      'safe writer',
      (file: string, overwrite: boolean) =>
        safeWriteFile({ workspace: where, path: file, parameter: 'path', overwrite }, 'PWNED'),
    ],
    [
      'checkWritable',
      (file: string, overwrite: boolean) =>
        checkWritable({ workspace: where, path: file, parameter: 'path', overwrite }),
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

/** Every file and link under `dir`, with its content or target. */
function tree(dir: string): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of fs.readdirSync(folder)) {
      const file = path.join(folder, name);
      const stat = fs.lstatSync(file);
      if (stat.isSymbolicLink()) state[file] = `-> ${fs.readlinkSync(file)}`;
      else if (stat.isDirectory()) {
        state[file] = 'dir';
        walk(file);
      } else state[file] = fs.readFileSync(file, 'latin1');
    }
  };
  walk(dir);
  return state;
}

/** Every writer must refuse `file` (in `where`), change nothing under `root`, and say why and what else to do. */
async function refused(file: string, why: RegExp, where = workspace) {
  for (const overwrite of [true, false]) {
    for (const [name, write] of writers(where)) {
      // generate_image names a file without an extension `<name>.png`: another, harmless file.
      if (name === 'generate_image' && path.extname(file) === '') continue;
      const before = tree(root);
      const result = await write(file, overwrite).then(
        () => 'written',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      const label = `${name} ${file} (overwrite ${overwrite})`;
      expect(result, label).toMatch(why);
      expect(result, label).toMatch(/run_command with "sandbox": false/);
      expect(tree(root), `${label} changed something`).toEqual(before);
    }
  }
}

describe('files that make a later program run code', () => {
  it("git's config and hooks, however the path is spelled, are refused by every writer", async () => {
    for (const file of [
      '.git/config',
      '.git/hooks/pre-commit',
      '.git/hooks/new-folder/x',
      './.git/config',
      'src/../.git/config',
      '.GIT/config',
      '.Git/hooks/post-checkout',
      'vendor/lib/.git/config',
      '.git',
      'sub/.git',
      '.gitmodules',
      '.hg/hgrc',
    ])
      await refused(file, /\.git|\.hg|\.gitmodules/i);
    expect(fs.readFileSync(path.join(workspace, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
  });

  it("this app's workspace tools, editor and agent folders, and start-up files are refused", async () => {
    for (const [file, why] of [
      ['.config/agenvoy/tools/script/evil/tool.json', /\.config\/agenvoy/],
      ['.config/Agenvoy/tools/script/evil/script.js', /\.config\/agenvoy/i],
      ['.config/agenvoy/mcp.json', /\.config\/agenvoy/],
      ['.vscode/tasks.json', /\.vscode/],
      ['.vscode/settings.json', /\.vscode/],
      ['.idea/workspace.xml', /\.idea/],
      ['.claude/settings.json', /\.claude/],
      ['.husky/pre-commit', /\.husky/],
      ['.envrc', /\.envrc/],
      ['packages/app/.envrc', /\.envrc/],
      ['.npmrc', /\.npmrc/],
      ['.yarnrc', /\.yarnrc/],
      ['.yarnrc.yml', /\.yarnrc/],
      ['.gitconfig', /\.gitconfig/],
      ['.mcp.json', /\.mcp\.json/],
      ['.bashrc', /\.bashrc/],
      ['.bash_profile', /\.bash_profile/],
      ['.profile', /\.profile/],
      ['.zshrc', /\.zshrc/],
      ['.zshenv', /\.zshenv/],
      ['.ZSHRC', /\.zshrc/i],
    ] as const)
      await refused(file, why);
  });

  it('a symlink inside the workspace that leads to a protected place is refused by where it leads', async () => {
    fs.symlinkSync('.git', path.join(workspace, 'cfg'));
    fs.symlinkSync('.git/hooks', path.join(workspace, 'h'));
    fs.mkdirSync(path.join(workspace, 'docs'));
    fs.symlinkSync('../.vscode', path.join(workspace, 'docs', 'editor'));
    fs.mkdirSync(path.join(workspace, '.config', 'agenvoy', 'tools'), { recursive: true });
    fs.symlinkSync('.config/agenvoy/tools', path.join(workspace, 'tools'));
    for (const [file, why] of [
      ['cfg/config', /\.git/],
      ['h/pre-commit', /\.git/],
      ['docs/editor/tasks.json', /\.vscode/],
      ['tools/script/evil/tool.json', /\.config\/agenvoy/],
    ] as const)
      await refused(file, why);
  });

  it('a workspace that lies inside a repository control folder or an app tool folder writes nothing there', async () => {
    await refused('pre-commit', /\.git/, path.join(workspace, '.git', 'hooks'));
    const toolDir = path.join(workspace, '.config', 'agenvoy', 'tools', 'script', 'x');
    fs.mkdirSync(toolDir, { recursive: true });
    await refused('tool.json', /\.config\/agenvoy/, toolDir);
  });

  it('when the workspace is the home folder: autostart, systemd, git config, PATH folders are refused', async () => {
    const home = process.env.HOME as string;
    const onPath = path.join(home, 'tools-on-path');
    fs.mkdirSync(onPath);
    process.env.PATH = `${onPath}${path.delimiter}${saved.path ?? '/usr/bin'}`;
    for (const [file, why] of [
      ['.config/autostart/evil.desktop', /autostart/],
      ['.config/systemd/user/evil.service', /systemd/],
      ['.config/git/config', /\.config\/git/],
      ['.local/share/applications/evil.desktop', /applications/],
      ['.local/bin/git', /\.local\/bin/],
      ['bin/ls', /bin/],
      ['tools-on-path/git', /PATH/],
      ['Library/LaunchAgents/evil.plist', /LaunchAgents/],
      ['.ssh/authorized_keys', /\.ssh/],
    ] as const)
      await refused(file, why, home);
  });
});

describe('ordinary files stay writable', () => {
  it('look-alike names, dot files that run nothing, and .github are written', async () => {
    for (const file of [
      'reports/summary.md',
      '.gitignore',
      '.github/workflows/ci.yml',
      'git/config',
      'my.git/config',
      '.gitkeep',
      'notes/.bashrc.md',
      'config/agenvoy/x.json',
      '.config/other-app/settings.json',
      'vscode/tasks.json',
    ]) {
      for (const [name, write] of writers(workspace)) {
        const result = await write(file, true).then(
          () => 'written',
          (error: Error) => error.message,
        );
        // generate_image adds .png to a name without an image extension: still written, under another name.
        expect(result, `${name} ${file}`).toBe('written');
      }
    }
  });
});
