import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quoteArgv, quoteWord } from './quote';

describe('quoteWord', () => {
  it('leaves plain words bare and quotes the rest', () => {
    expect(quoteWord('--output=a/b.txt')).toBe('--output=a/b.txt');
    expect(quoteWord('a b')).toBe("'a b'");
    expect(quoteWord('')).toBe("''");
    expect(quoteWord("it's")).toBe("'it'\\''s'");
  });

  it('round-trips through a real /bin/sh, whatever the bytes', () => {
    const argv = ['a b', "it's", '$(id)', '`id`', '*', '~', '\\n', '"q"', '-x', 'é', '!', '#c', '\t'];
    const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${quoteArgv(argv)}`]).toString('utf8');
    expect(out.split('\0').slice(0, -1)).toEqual(argv);
  });

  it('quotes a first word the shell would read as an assignment or a keyword', () => {
    const argv = ['A=1', 'x=y'];
    expect(quoteArgv(argv)).toBe("'A=1' x=y");
    expect(quoteArgv(['if', 'then'])).toBe("'if' then");
    const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${quoteArgv(['for', 'A=1'])}`]).toString(
      'utf8',
    );
    expect(out.split('\0').slice(0, -1)).toEqual(['for', 'A=1']);
  });
});
