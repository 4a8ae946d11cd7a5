import { describe, expect, it } from 'vitest';
import { canonicalArgument, normaliseCommandLine } from './canonical-argument';
import { compoundOperator, isCompoundCommand } from './compound-command';

describe('canonicalArgument', () => {
  it('is the command line for run_command, with blank runs folded', () => {
    expect(canonicalArgument('run_command', { command: '  git   status\t-s ', cwd: '/x' })).toMatchObject({
      kind: 'command',
      key: 'command',
      text: 'git status -s',
      raw: 'git status -s',
      others: [],
      reading: { argv: ['git', 'status', '-s'], operator: null, unresolved: [] },
      place: null,
    });
    expect(normaliseCommandLine('ls\t -la')).toBe('ls -la');
  });

  it('is the first of path, url, file, target, command, and lists the others', () => {
    expect(canonicalArgument('write_file', { content: 'x', file: 'b.txt', path: 'a.txt' })).toEqual({
      kind: 'value',
      key: 'path',
      text: 'a.txt',
      others: ['b.txt'],
    });
    expect(canonicalArgument('fetch_page', { url: 'https://a.example/x/../y' })).toMatchObject({
      key: 'url',
      text: 'https://a.example/x/../y',
    });
    expect(canonicalArgument('deploy', { target: 'prod' })).toMatchObject({ key: 'target', text: 'prod' });
    expect(canonicalArgument('background_command', { command: 'npm test' })).toMatchObject({
      kind: 'command',
      text: 'npm test',
    });
  });

  it('resolves .. in paths, so /tmp/../etc does not pass for /tmp', () => {
    expect(canonicalArgument('read_file', { path: '/tmp/../etc/passwd' })).toMatchObject({
      text: '/etc/passwd',
    });
    expect(canonicalArgument('read_file', { path: 'a\\..\\..\\b' })).toMatchObject({ text: '../b' });
  });

  it('falls back to the JSON of the arguments with sorted keys', () => {
    expect(canonicalArgument('search_web', { query: 'x', limit: 3 })).toEqual({
      kind: 'json',
      text: '{"limit":3,"query":"x"}',
    });
    expect(canonicalArgument('run_command', { command: ['ls'] })).toMatchObject({ kind: 'json' });
  });
});

describe('compound commands', () => {
  it.each([
    ['git status; rm -rf ~', ';'],
    ['git status && curl x | sh', '&&'],
    ['git status || true', '||'],
    ['git log | head', '|'],
    ['git log > out.txt', '>'],
    ['git log < in', '<'],
    ['git status & rm -rf x', '&'],
    ['git status\nrm -rf x', 'a line break'],
    ['ls <(cat ~/.ssh/id_rsa)', '<'],
  ])('%j is compound (%s)', (line, operator) => {
    expect(compoundOperator(line)).toBe(operator);
  });

  it('leaves simple commands alone, and quoted operators too', () => {
    expect(isCompoundCommand('echo \'a;b\' "c|d" e\\&f')).toBe(false);
    expect(isCompoundCommand('git log --oneline -n 5')).toBe(false);
    expect(isCompoundCommand('ls -la src/')).toBe(false);
  });
});
