// The shell-line reader against the real /bin/sh (dash) and bash in POSIX mode: whenever it says it knows the
// argv, both shells must build exactly that argv; everything it cannot know must be reported.
import { describe, expect, it } from 'vitest';
import { readCommandLine } from './parse';
import { pick, seeded, SHELLS, shellWords, shellWordsMany } from './testing/real-shell';

const HOME = '/home/ann';
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME };

function expectShellsAgree(line: string): void {
  const reading = readCommandLine(line, { home: HOME });
  if (!reading.argv) return;
  for (const shell of SHELLS)
    expect(shellWords(shell.argv, line, ENV), `${shell.name}: ${JSON.stringify(line)}`).toEqual(reading.argv);
}

describe('readCommandLine: quote and backslash removal as /bin/sh does it', () => {
  it.each([
    ['git log "--output=../x" a', ['git', 'log', '--output=../x', 'a']],
    ["git diff --no-index '--output=x'", ['git', 'diff', '--no-index', '--output=x']],
    ['git log --out\\put=x', ['git', 'log', '--output=x']],
    ['git log -"-"o"u"t\'p\'ut=x', ['git', 'log', '--output=x']],
    ['"g"it st\\atus', ['git', 'status']],
    ['echo "a b"\\ c', ['echo', 'a b c']],
    ['echo "\\a\\"\\`\\$\\\\"', ['echo', '\\a"`$\\']],
    ["echo 'a\\b' \"'\"", ['echo', 'a\\b', "'"]],
    ['echo a\\\nb', ['echo', 'ab']],
    ['echo "a\\\nb"', ['echo', 'ab']],
    ["echo '' \"\" x''", ['echo', '', '', 'x']],
    ['echo a#b \\# "#"', ['echo', 'a#b', '#', '#']],
    ['echo $ a$ "$" $/x', ['echo', '$', 'a$', '$', '$/x']],
    ['ls ~ ~/x ~/"y z"', ['ls', HOME, `${HOME}/x`, `${HOME}/y z`]],
    ['ls ~"/x" \\~ x~ a=~/b', ['ls', '~/x', '~', 'x~', 'a=~/b']],
    ['echo "*" \'?\' \\[ "{a,b}" \\{a,b}', ['echo', '*', '?', '[', '{a,b}', '{a,b}']],
    ['echo {} { } }', ['echo', '{}', '{', '}', '}']],
    ['echo a\\', ['echo', 'a\\']],
    ['git status\r', ['git', 'status\r']],
    ['echo\u00a0x', ['echo\u00a0x']],
    ['"if" then', ['if', 'then']],
    ['echo x"$"', ['echo', 'x$']],
    ['echo "a\tb" a\\\tb', ['echo', 'a\tb', 'a\tb']],
  ])('%j reads as %j', (line, argv) => {
    const reading = readCommandLine(line, { home: HOME });
    expect(reading).toMatchObject({ argv, operator: null, unresolved: [] });
    expectShellsAgree(line);
  });

  it('gives a normal form that reads back to the same argv', () => {
    const reading = readCommandLine("git   log  \"--format=%H %s\"  'it'\\''s'", { home: HOME });
    expect(reading.normal).toBe("git log '--format=%H %s' 'it'\\''s'");
    for (const shell of SHELLS)
      expect(shellWords(shell.argv, reading.normal as string, ENV)).toEqual(reading.argv);
    // A program named like an assignment or a keyword stays a program in the normal form.
    for (const line of ["'A=1' x", "'if' x", '"time" x']) {
      const first = readCommandLine(line, { home: HOME });
      expect(first.argv, line).not.toBeNull();
      expect(readCommandLine(first.normal as string, { home: HOME }).argv, line).toEqual(first.argv);
    }
  });
});

describe('readCommandLine: operators outside quotes', () => {
  it.each([
    ['git status; rm -rf ~', ';'],
    ['git status && curl x | sh', '&&'],
    ['git status || true', '||'],
    ['git log | head', '|'],
    ['git log > out.txt', '>'],
    ['git log >> out.txt', '>>'],
    ['git log 2>&1', '>&'],
    ['git log < in', '<'],
    ['git status & rm -rf x', '&'],
    ['git status\nrm -rf x', 'a line break'],
    ['ls <(cat ~/.ssh/id_rsa)', '<'],
    ['(git status)', '('],
    ['git status|&cat', '|&'],
    ['git status &>x', '&>'],
    ['cat <<EOF\nx\nEOF', '<<'],
    ['cat <<<x', '<<<'],
    ['git log >|x', '>|'],
    ['f() { :; }', '('],
  ])('%j has %s', (line, operator) => {
    const reading = readCommandLine(line, { home: HOME });
    expect(reading.operator).toBe(operator);
    expect(reading.argv).toBeNull();
  });

  it.each(['echo \'a;b\' "c|d" e\\&f \'g > h\' "(x)"', 'echo "a\nb"', "echo 'a\nb'"])(
    '%j is one simple command: the operators are quoted',
    (line) => {
      const reading = readCommandLine(line, { home: HOME });
      expect(reading.operator).toBeNull();
      expect(reading.argv).not.toBeNull();
      expectShellsAgree(line);
    },
  );
});

describe('readCommandLine: what it cannot know it reports', () => {
  it.each([
    ['echo $HOME', 'parameter expansion'],
    ['echo ${HOME}', 'parameter expansion'],
    ['echo "${x:-.ssh}"', 'parameter expansion'],
    ['echo $1 $@ $# $? $$', 'parameter expansion'],
    ['echo $(id)', 'command substitution'],
    ['echo "`id`"', 'command substitution'],
    ['echo $((1+2))', 'arithmetic'],
    ['echo "$[1+2]" a$[3]', 'arithmetic'],
    ["echo $'\\x41'", "$'…'"],
    ['echo $"x"', '$"…"'],
    ['ls *.ts', 'glob'],
    ['ls a?c', 'glob'],
    ['ls [ab]', 'glob'],
    ['echo {a,b}', 'brace expansion'],
    ['echo x{1..3}', 'brace expansion'],
    ['ls ~root/x', "another user's home"],
    ['ls ~+', "another user's home"],
    ['GIT_EXTERNAL_DIFF=x git diff', 'variable set for the command'],
    ['A=1 B=2 ls', 'variable set for the command'],
    ['git status # --output=x', 'comment'],
    ['#!/bin/sh', 'comment'],
    ['if true', 'shell keyword'],
    ['! git status', 'shell keyword'],
    ['{ ls', 'shell keyword'],
    ['time ls', 'shell keyword'],
    ['[[ -f x ]]', 'shell keyword'],
    ["echo 'unterminated", 'unterminated single quote'],
    ['echo "unterminated', 'unterminated double quote'],
    ['echo ${x', 'unterminated'],
    ['echo `id', 'unterminated backquote'],
    ['echo ${%x}', 'bad substitution'],
    ['   ', 'no command'],
    ['echo $\\\nHOME', 'parameter expansion'],
    ['echo "$\\\nHOME"', 'parameter expansion'],
    ["git log --out$\\\n'put'=x", "$'…'"],
    ['git log --out$\\\n(printf put)=x', 'command substitution'],
    ['echo $H\\\nOME', 'parameter expansion'],
  ])('%j: %s', (line, reason) => {
    const reading = readCommandLine(line, { home: HOME });
    expect(reading.argv).toBeNull();
    expect(reading.unresolved.join('\n')).toContain(reason);
  });

  it('reports `~` when it does not know the home folder', () => {
    expect(readCommandLine('ls ~/x').unresolved).toEqual(['`~/x` (the home folder)']);
  });

  it('finds the end of nested substitutions, so the words after them are still read', () => {
    const reading = readCommandLine('echo "$(echo "a)b" `x`)" ${y:-"}"} done', { home: HOME });
    expect(reading.unresolved).toHaveLength(2);
    expect(reading.operator).toBeNull();
  });
});

// Random words built from the pieces that make quoting hard; whenever the reader claims to know the argv, both
// shells must agree with it. Seeded, so a failure names a case that can be replayed.
describe('readCommandLine against the real shells, property style', () => {
  const BARE = [...'abcXYZ019_-./=:,@%+}!^$', 'é', '~', '#', '\\\n', '$\\\n', '$\\\nx'];
  const SINGLE = [...'ab $`"\\*?[{~#\t;&|<>()', '\n', "'\\''", 'é'];
  const DOUBLE = [
    ..."ab '*?[{~#;&|<>()\t",
    '\\$',
    '\\"',
    '\\\\',
    '\\a',
    '\\`',
    '\\\n',
    '\n',
    '\\n',
    '$',
    '$x',
    '`x`',
    '$(x)',
    '$[1]',
    '$\\\n',
    '$\\\nx',
    "$'",
  ];
  const ESCAPED = [...' \'"$`*?[{}~#;&|<>()ab\\\t', '\n', 'é'];
  function piece(random: () => number): string {
    const kind = random();
    if (kind < 0.35) return pick(random, BARE);
    if (kind < 0.55)
      return `'${Array.from({ length: Math.floor(random() * 4) }, () => pick(random, SINGLE)).join('')}'`;
    if (kind < 0.8)
      return `"${Array.from({ length: Math.floor(random() * 4) }, () => pick(random, DOUBLE)).join('')}"`;
    if (kind < 0.97) return `\\${pick(random, ESCAPED)}`;
    return pick(random, ['~', '~/', '$HOME', '*', '${x:-y}', '{a,b}']);
  }
  function word(random: () => number): string {
    return Array.from({ length: 1 + Math.floor(random() * 4) }, () => piece(random)).join('');
  }

  it('agrees with dash and bash on 1500 generated lines', () => {
    const random = seeded(20240611);
    const known: Array<{ line: string; argv: string[] }> = [];
    for (let i = 0; i < 1500; i++) {
      const line = Array.from({ length: 1 + Math.floor(random() * 3) }, () => word(random)).join(
        pick(random, [' ', '  ', '\t']),
      );
      const reading = readCommandLine(line, { home: HOME });
      if (!reading.argv) continue;
      known.push({ line, argv: reading.argv });
      // The normal form is a line of its own that reads back to the same argv.
      expect(readCommandLine(reading.normal as string, { home: HOME }).argv).toEqual(reading.argv);
    }
    // Most generated lines must be ones the reader knows, or the comparison proves little.
    expect(known.length).toBeGreaterThan(800);
    for (const shell of SHELLS) {
      const argvs = shellWordsMany(
        shell.argv,
        known.map((k) => k.line),
        ENV,
      );
      known.forEach(({ line, argv }, i) =>
        expect(argvs[i], `${shell.name}: ${JSON.stringify(line)}`).toEqual(argv),
      );
    }
  }, 60_000);
});
