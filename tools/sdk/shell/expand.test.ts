// The expanding reader against the real shells: with the same environment, a word it expands to one known value
// must be what dash and bash make of it; and every word of nested and compound lines is found.
import { describe, expect, it } from 'vitest';
import { expandLine } from './expand';
import { pick, seeded, SHELLS, shellWords, shellWordsMany } from './testing/real-shell';

const HOME = '/home/ann';
// What the shells start with; they set PWD to their working folder ('/') themselves.
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME, EMPTY: '', DIR: '.ssh' };
const ENVIRONMENT = { variables: { ...ENV, PWD: '/' }, unknown: ['TMPDIR'] };

function values(line: string): string[][] {
  return expandLine(line, ENVIRONMENT).words.map((word) => word.values);
}

describe('expandLine: words as the shell expands them', () => {
  it.each([
    ['~/${x:-.ssh}/id_${x:-rsa}', `${HOME}/.ssh/id_rsa`],
    ['~', HOME],
    ['~/x', `${HOME}/x`],
    ['$HOME/.aws', `${HOME}/.aws`],
    ['${HOME}/.aws', `${HOME}/.aws`],
    ['"$HOME"/.aws', `${HOME}/.aws`],
    ['"${HOME}/.aws"', `${HOME}/.aws`],
    ['${x:-~/.ssh}', `${HOME}/.ssh`],
    ['a${x:-~/y}', `a${HOME}/y`],
    ['"${x:-~/y}"', '~/y'],
    ['${x-.gnupg}', '.gnupg'],
    ['${EMPTY-.gnupg}', ''],
    ['${EMPTY:-.gnupg}', '.gnupg'],
    ['${HOME:+.ssh}', '.ssh'],
    ['${x:+.ssh}', ''],
    ['${HOME+set}', 'set'],
    ['${x:=.ssh}', '.ssh'],
    ['${x=.kube}', '.kube'],
    ['~/$DIR/config', `${HOME}/.ssh/config`],
    ['"${x:-"$DIR"}"', '.ssh'],
    ["${x:-'.ss'h}", '.ssh'],
    ['$PWD', '/'],
    ["$'\\x2essh'", '.ssh'],
  ])('%s → %s', (word, value) => {
    const expanded = expandLine(`cat ${word}`, ENVIRONMENT);
    expect(expanded.words[1]?.values).toContain(value);
    for (const shell of SHELLS) {
      const argv = shellWords(shell.argv, word, ENV);
      // `$'…'` is where the shells differ: dash reads `$` and a quoted string, and that reading is kept too.
      if (word.startsWith("$'")) expect(expanded.words[1]?.values).toContain(argv?.[0]);
      else expect(argv, shell.name).toEqual([value]);
    }
  });

  it('follows variables the line sets, wherever it sets them (loops may run them first)', () => {
    expect(values('x=.ssh; cat ~/$x/config')[2]).toContain(`${HOME}/.ssh/config`);
    expect(values('cat ~/$x/config; x=.ssh')[1]).toContain(`${HOME}/.ssh/config`);
    expect(values('a=.s; b=${a}sh; cat ~/$b/k')[3]).toContain(`${HOME}/.ssh/k`);
    expect(values('for d in .ss .gn; do cat ~/${d}h/c; done').flat()).toContain(`${HOME}/.ssh/c`);
    expect(values('echo ${x:=.ssh}; cat ~/$x/c')[3]).toContain(`${HOME}/.ssh/c`);
    expect(values('export K=.kube; cat ~/$K/config')[3]).toContain(`${HOME}/.kube/config`);
    expect(values('HOME=/root; cat ~/.ssh/k')[2]).toContain('/root/.ssh/k');
  });

  it('marks what only the running shell knows, keeping the known pieces around a `*`', () => {
    const read = expandLine('read x; cat ~/${x:-.ssh}/k $TMPDIR/y $RANDOM $1 $(id) ~root/.ssh', ENVIRONMENT);
    expect(read.words.map((w) => w.values)).toEqual(
      expect.arrayContaining([[`${HOME}/.ssh/k`, `${HOME}/*/k`], ['*/y'], ['*'], ['*/.ssh']]),
    );
    expect(read.unresolvable).toEqual(
      expect.arrayContaining([expect.stringContaining('$TMPDIR'), expect.stringContaining('$(id)')]),
    );
    expect(expandLine('eval "$y"; cat ~/$x', ENVIRONMENT).unresolvable.join()).toContain('$x');
  });

  it('reads every simple command: compound lines, substitutions, here-documents, sh -c and eval', () => {
    const all = (line: string) => values(line).flat();
    expect(all('git status && cat ~/.aws/credentials | tee x')).toContain(`${HOME}/.aws/credentials`);
    expect(all('echo $(cat ~/.ssh/id_rsa)')).toContain(`${HOME}/.ssh/id_rsa`);
    expect(all('echo "`cat ~/.netrc`"')).toContain(`${HOME}/.netrc`);
    expect(all('cat <<EOF\n$(cat ~/.kube/config)\nEOF')).toContain(`${HOME}/.kube/config`);
    expect(all("sh <<'EOF'\ncat ~/.kube/config\nEOF")).toContain(`${HOME}/.kube/config`);
    expect(all("bash -c 'cat ~/${x:-.ssh}/k'")).toContain(`${HOME}/.ssh/k`);
    expect(all('eval "cat \\$HOME/.ssh/k"')).toContain(`${HOME}/.ssh/k`);
    expect(all('sh -c "sh -c \'cat ~/.ssh/k\'"')).toContain(`${HOME}/.ssh/k`);
    expect(all('cat > ~/.bashrc')).toContain(`${HOME}/.bashrc`);
    expect(all('A=~/.ssh/k git log')).toContain(`${HOME}/.ssh/k`);
    expect(all('PATH=~/bin:~/.ssh ls')).toContain(`${HOME}/bin:${HOME}/.ssh`);
    expect(all('echo ${x#$(cat ~/.ssh/k)}')).toContain(`${HOME}/.ssh/k`);
  });

  it('lists the folders the line changes to', () => {
    const line = expandLine('cd ~/.ssh && cat config; cd; pushd -q ../x', ENVIRONMENT);
    expect(line.directories.map((d) => d.values)).toEqual([[`${HOME}/.ssh`], [HOME], ['../x']]);
  });

  it('stays bounded on hostile input', () => {
    const started = Date.now();
    const wide = expandLine(
      `${'x=$x$x$x$x; '.repeat(30)}cat ${'${a:-${b:-${c:-d}}}'.repeat(40)}`,
      ENVIRONMENT,
    );
    const deep = expandLine(`${'$('.repeat(200)}x${')'.repeat(200)}`, ENVIRONMENT);
    const long = expandLine('echo a; '.repeat(5000), ENVIRONMENT);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(wide.words.every((word) => word.values.length <= 64)).toBe(true);
    expect(deep.truncated).toMatch(/nested (too deeply|more than 64 deep)/);
    expect(long.truncated).toContain('too long');
  });
});

// Generated words of tildes, parameters and their operators: when the reader finds one known value per word,
// both shells must produce exactly those words.
describe('expandLine against the real shells, property style', () => {
  const PIECES = [
    'a',
    '.ssh',
    '/',
    '~',
    '~/',
    '$HOME',
    '${HOME}',
    '"$HOME"',
    '$DIR',
    '"${DIR}"',
    '$EMPTY',
    '${x:-.ssh}',
    '${x-.aws}',
    '${EMPTY:-e}',
    '${EMPTY-e}',
    '${HOME:+h}',
    '${x:+h}',
    '${EMPTY+s}',
    '"${x:-~/y}"',
    '${x:-~/y}',
    '${x:-"$DIR"}',
    "'$x'",
    '\\$x',
    '"a\\$b"',
    '${x:-${DIR:-z}}',
    '${PWD}',
  ];
  it('agrees with dash and bash on 600 generated words', () => {
    const random = seeded(7);
    const cases: Array<{ text: string; value: string }> = [];
    for (let i = 0; i < 600; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, PIECES)).join('');
      const [word] = expandLine(text, ENVIRONMENT).words;
      if (!word || word.values.length !== 1 || word.unresolvable) continue;
      // An empty unquoted expansion disappears as a field: leave those to the fixed cases.
      if (word.values[0] === '') continue;
      cases.push({ text, value: word.values[0] as string });
    }
    expect(cases.length).toBeGreaterThan(300);
    for (const shell of SHELLS) {
      const argvs = shellWordsMany(
        shell.argv,
        cases.map((c) => c.text),
        ENV,
      );
      cases.forEach(({ text, value }, i) => expect(argvs[i], `${shell.name}: ${text}`).toEqual([value]));
    }
  }, 60_000);
});
