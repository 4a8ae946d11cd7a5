import { describe, expect, it } from 'vitest';
import { escapeGlob, hasWildcards, matchGlob } from './glob';

describe('matchGlob', () => {
  it('lets * match anything but /', () => {
    expect(matchGlob('mcp__github__*', 'mcp__github__create_issue')).toBe(true);
    expect(matchGlob('mcp__github__*', 'mcp__gitlab__create_issue')).toBe(false);
    expect(matchGlob('/tmp/*', '/tmp/a.txt')).toBe(true);
    expect(matchGlob('/tmp/*', '/tmp/a/b.txt')).toBe(false);
  });

  it('lets ** match anything, / included', () => {
    expect(matchGlob('/tmp/**', '/tmp/a/b/c.txt')).toBe(true);
    expect(matchGlob('**', '')).toBe(true);
    expect(matchGlob('https://example.com/**', 'https://example.com.evil.net/x')).toBe(false);
  });

  it('lets ? match exactly one character', () => {
    expect(matchGlob('ls -?', 'ls -l')).toBe(true);
    expect(matchGlob('ls -?', 'ls -la')).toBe(false);
    expect(matchGlob('ls -?', 'ls -')).toBe(false);
  });

  it('matches the whole text, treating regular-expression characters literally', () => {
    expect(matchGlob('git status', 'git status --short')).toBe(false);
    expect(matchGlob('a.b', 'axb')).toBe(false);
    expect(matchGlob('(x)+[y]', '(x)+[y]')).toBe(true);
  });

  it('lets a trailing " **" also match the bare command', () => {
    expect(matchGlob('git log **', 'git log')).toBe(true);
    expect(matchGlob('git log **', 'git log --oneline -n 5 src/a.ts')).toBe(true);
    expect(matchGlob('git log **', 'git logx')).toBe(false);
    expect(matchGlob('git log **', 'git log-tree')).toBe(false);
  });

  it('escapes a command line so that it matches only itself', () => {
    const line = 'echo *.txt ? \\ done';
    const pattern = escapeGlob(line);
    expect(matchGlob(pattern, line)).toBe(true);
    expect(matchGlob(pattern, 'echo a.txt x \\ done')).toBe(false);
    expect(hasWildcards(pattern)).toBe(false);
    expect(hasWildcards('git *')).toBe(true);
  });
});
