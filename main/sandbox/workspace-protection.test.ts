import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reviewGitChanges, scanWorkspace } from './workspace-protection';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function workspace(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-protect-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('scanWorkspace', () => {
  it('protects the git control files of every repository, at any depth, and existing start-up files', async () => {
    const dir = workspace({
      '.git/config': '',
      '.git/hooks/.keep': '',
      '.git/info/exclude': '',
      '.git/modules/sub/config': '',
      '.git/modules/sub/hooks/.keep': '',
      '.git/worktrees/wt/commondir': '../..',
      'vendor/lib/.git/config': '',
      'a/b/c/d/e/.git/config': '',
      'build/g/.git/config': '',
      'sub/.git': 'gitdir: ../.git/modules/sub',
      '.npmrc': '',
      'pkg/.envrc': '',
      '.vscode/tasks.json': '{}',
      'node_modules/x/.git/config': '',
    });
    const scan = await scanWorkspace(dir);
    expect(scan.readOnly).toEqual(
      expect.arrayContaining(
        [
          '.config/agenvoy',
          '.git/hooks',
          '.git/config',
          '.git/info',
          '.git/modules/sub/config',
          '.git/modules/sub/hooks',
          '.git/worktrees/wt/commondir',
          'vendor/lib/.git/config',
          'a/b/c/d/e/.git/config',
          'build/g/.git/config',
          'sub/.git',
          '.npmrc',
          'pkg/.envrc',
          '.vscode',
        ].map((p) => path.join(dir, p)),
      ),
    );
    expect(scan.repositories).toHaveLength(5);
    // Dependency folders are not walked, and missing start-up files are left alone in a project folder.
    expect(scan.readOnly).not.toContain(path.join(dir, 'node_modules/x/.git/config'));
    expect(scan.readOnly).not.toContain(path.join(dir, '.bashrc'));
  });

  it('finds .env files at any depth, to hide them', async () => {
    const dir = workspace({
      '.env': 'A=1',
      'api/.env.local': 'B=2',
      'deep/x/y/.envrc': 'C=3',
      'env.txt': '',
    });
    expect((await scanWorkspace(dir)).secrets.sort()).toEqual(
      ['.env', 'api/.env.local', 'deep/x/y/.envrc'].map((p) => path.join(dir, p)).sort(),
    );
  });

  it('protects missing start-up files too when the workspace is a home folder', async () => {
    const dir = workspace({});
    expect((await scanWorkspace(dir, [dir])).readOnly).toEqual(
      expect.arrayContaining([path.join(dir, '.bashrc')]),
    );
  });
});

describe('reviewGitChanges', () => {
  it('removes a new commondir or config.worktree, and reports new repositories', async () => {
    const dir = workspace({ '.git/config': '', 'src/a.ts': '' });
    const before = await scanWorkspace(dir);
    fs.writeFileSync(path.join(dir, '.git', 'commondir'), '../build/g');
    fs.mkdirSync(path.join(dir, 'sub', '.git', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', '.git'), 'gitdir: ../evil');
    const notes = await reviewGitChanges(before, dir);
    expect(fs.existsSync(path.join(dir, '.git', 'commondir'))).toBe(false);
    expect(notes).toEqual([
      expect.stringMatching(/^removed .*\.git\/commondir, which the command created/),
      expect.stringMatching(/created a git repository or link at .*\/src\/\.git/),
      expect.stringMatching(/created a git repository or link at .*\/sub\/\.git/),
    ]);
  });
});

describe('scanWorkspace budget', () => {
  it('does not count installed Python packages: a virtualenv of thousands of folders stays within the walk', async () => {
    const dir = workspace({ '.env': 'KEY=1', 'deep/er/.env': 'KEY=2' });
    const packages = path.join(dir, '.venv', 'lib', 'python3.11', 'site-packages');
    for (let i = 0; i < 5100; i++)
      fs.mkdirSync(path.join(packages, `pkg${i}`, '__pycache__'), { recursive: true });
    const scan = await scanWorkspace(dir);
    expect(scan.truncated).toBe(false);
    expect(scan.secrets.sort()).toEqual([path.join(dir, '.env'), path.join(dir, 'deep/er/.env')]);
  });
});
