// Reading core.hooksPath from a repository's config (docs/security.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hooksPathAbove, hooksPathOf } from './hooks-path';

let root: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hooks-path-')));
  fs.mkdirSync(path.join(root, '.git'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const config = (text: string, name = 'config') => fs.writeFileSync(path.join(root, '.git', name), text);

describe('hooksPathOf', () => {
  it.each([
    ['[core]\n\thooksPath = .githooks\n', '.githooks'],
    ['[CORE]\nHOOKSPATH=".husky/_" ; husky\n', '.husky/_'],
    ['[core] hookspath = tools/hooks # moved\n', 'tools/hooks'],
    ['[core]\n\thooksPath = a\n[core]\n\thooksPath = b\n', 'b'],
  ])('%j names %s', (text, folder) => {
    config(text);
    expect(hooksPathOf(path.join(root, '.git'), root)).toBe(path.join(root, folder));
  });

  it('reads config.worktree after config, and ignores other sections', () => {
    config('[remote "origin"]\n\thooksPath = nope\n[core]\n\tbare = false\n');
    expect(hooksPathOf(path.join(root, '.git'), root)).toBeNull();
    config('[core]\n\thooksPath = wt-hooks\n', 'config.worktree');
    expect(hooksPathOf(path.join(root, '.git'), root)).toBe(path.join(root, 'wt-hooks'));
  });

  it('finds the repository above a file', () => {
    config('[core]\n\thooksPath = .githooks\n');
    fs.mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
    expect(hooksPathAbove(path.join(root, 'src', 'deep', 'x.ts'))).toBe(path.join(root, '.githooks'));
  });
});
