import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { protectedPaths } from './workspace-protection';

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

describe('protectedPaths', () => {
  it('protects git hooks and config of the repository and of nested ones, and existing start-up files', async () => {
    const dir = workspace({
      '.git/config': '',
      '.git/hooks/.keep': '',
      'vendor/lib/.git/config': '',
      'sub/.git': 'gitdir: ../.git/modules/sub',
      '.npmrc': '',
      'pkg/.envrc': '',
      '.vscode/tasks.json': '{}',
      'node_modules/x/.git/config': '',
    });
    const found = await protectedPaths(dir);
    expect(found).toEqual(
      expect.arrayContaining([
        path.join(dir, '.config/agenvoy'),
        path.join(dir, '.git/hooks'),
        path.join(dir, '.git/config'),
        path.join(dir, 'vendor/lib/.git/hooks'),
        path.join(dir, 'vendor/lib/.git/config'),
        path.join(dir, 'sub/.git'),
        path.join(dir, '.npmrc'),
        path.join(dir, 'pkg/.envrc'),
        path.join(dir, '.vscode'),
      ]),
    );
    // Dependency folders are not scanned, and missing start-up files are left alone in a project folder.
    expect(found).not.toContain(path.join(dir, 'node_modules/x/.git/config'));
    expect(found).not.toContain(path.join(dir, '.bashrc'));
  });

  it('protects missing start-up files too when the workspace is a home folder', async () => {
    const dir = workspace({});
    expect(await protectedPaths(dir, [dir])).toEqual(expect.arrayContaining([path.join(dir, '.bashrc')]));
  });
});
