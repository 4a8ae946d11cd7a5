// Attacks on the default git rules through programs git starts on its own, end to end through the real dispatcher,
// the ConfirmGate and a real run_command, with nobody to ask: a `%G?` format placeholder that verifies a commit's
// signature (git runs gpg, whatever log.showSignature says); an inline submodule diff (`--submodule=diff`,
// `diff.submodule=diff`) whose `git diff` child in the submodule runs without the second layer's --no-textconv, so the
// user's textconv or diff.external runs on the repository's files; a merge re-done for `--remerge-diff`, which runs
// the user's merge driver that the repository's `.gitattributes` names; `--help`, which is `git help` and runs man, or
// a browser on an address the repository's config gives. None may run a program without a question.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, quietGitEnv } from '../../tools/sdk/testing/hostile-repo';
import type { AttackGround } from './testing/attack-workspace';
import { attackGround, outcomeText } from './testing/attack-workspace';

const saved = { PATH: process.env.PATH, HOME: process.env.HOME };
afterEach(() => {
  process.env.PATH = saved.PATH;
  process.env.HOME = saved.HOME;
});

// Programs on PATH (outside the workspace) and in the user's global config that leave a mark named after them.
function userPrograms(ground: AttackGround, names: string[]): string {
  const bin = path.join(ground.base, 'user-bin');
  fs.mkdirSync(bin, { recursive: true });
  for (const name of names)
    fs.writeFileSync(
      path.join(bin, name),
      `#!/bin/sh\ntouch "${ground.repo.marks}/${name}"\n[ "${name}" = conv ] && cat "$1"\nexit 1\n`,
      { mode: 0o755 },
    );
  process.env.PATH = `${bin}${path.delimiter}${saved.PATH ?? '/usr/bin:/bin'}`;
  process.env.HOME = ground.home;
  return bin;
}

function clearMarks(ground: AttackGround): void {
  for (const mark of ground.repo.ran()) fs.rmSync(path.join(ground.repo.marks, mark));
}

async function expectAsks(ground: AttackGround, lines: string[]): Promise<void> {
  for (const command of lines) {
    const outcome = await ground.call({ command });
    expect(outcome.outcome, command).toBe('denied');
    expect(outcomeText(outcome), command).toMatch(/needs approval.* there is nobody to ask/);
  }
}

// A commit on top of HEAD carrying a (made-up) PGP signature: printing its signature status runs gpg.
function signedCommit(ground: AttackGround): void {
  const { base, workspace } = ground;
  const tree = git(base, workspace, ['rev-parse', 'HEAD^{tree}']).trim();
  const parent = git(base, workspace, ['rev-parse', 'HEAD']).trim();
  const body =
    `tree ${tree}\nparent ${parent}\nauthor T <t@example.com> 1 +0000\ncommitter T <t@example.com> 1 +0000\n` +
    'gpgsig -----BEGIN PGP SIGNATURE-----\n \n wsBcBAABCAAQ\n -----END PGP SIGNATURE-----\n\nsigned\n';
  const object = path.join(base, 'commit-object');
  fs.writeFileSync(object, body);
  const id = git(base, workspace, ['hash-object', '-t', 'commit', '-w', object]).trim();
  git(base, workspace, ['update-ref', 'HEAD', id]);
}

describe('signature placeholders', () => {
  it('asks before a --format or --pretty with %G… makes git run gpg, and runs nothing', async () => {
    const ground = attackGround();
    userPrograms(ground, ['gpg']);
    signedCommit(ground);
    // The control: git itself runs gpg for the placeholder.
    execFileSync('git', ['log', '-1', '--format=%G?'], {
      cwd: ground.workspace,
      env: { ...quietGitEnv(ground.base), PATH: process.env.PATH ?? '' },
    });
    expect(ground.repo.ran()).toEqual(['gpg']);
    clearMarks(ground);
    await expectAsks(ground, [
      'git log --format=%G?',
      "git log '--pretty=%h %GS' -1",
      'git show -s --format=%GK HEAD',
      'git log --pretty=tformat:%GG -1',
      'git log "--format=%<(3)%G?"',
      'git log --oneline --format=%GF',
    ]);
    expect(ground.repo.ran()).toEqual([]);
    // Formats without the placeholder still run without asking.
    const plain = await ground.call({ command: 'git log -1 --format=%s' });
    expect(outcomeText(plain)).toContain('signed');
    expect(plain.outcome).toBe('ok');
  });

  it('asks when the repository config makes a format with %G… the default or a named one', async () => {
    for (const [config, command] of [
      [{ 'format.pretty': '%h %G?' }, 'git log -1'],
      [{ 'pretty.sig': '%h %GS' }, 'git log -1 --pretty=sig'],
    ] as const) {
      const ground = attackGround({ config });
      userPrograms(ground, ['gpg']);
      signedCommit(ground);
      await expectAsks(ground, [command]);
      expect(ground.repo.ran()).toEqual([]);
    }
  });
});

// A repository with a submodule whose `.gitattributes` names the user's textconv driver `conv`, and a change in it.
function submoduleGround(config: Record<string, string> = {}): AttackGround {
  const ground = attackGround({ config });
  const bin = userPrograms(ground, ['conv', 'external']);
  const env = quietGitEnv(ground.base);
  const source = path.join(ground.base, 'sub-source');
  fs.mkdirSync(source);
  git(ground.base, source, ['init', '-q']);
  fs.writeFileSync(path.join(source, 'notes.txt'), 'one\n');
  fs.writeFileSync(path.join(source, '.gitattributes'), '* diff=conv\n');
  git(ground.base, source, ['add', '.']);
  git(ground.base, source, ['commit', '-q', '-m', 'sub']);
  execFileSync('git', ['-c', 'protocol.file.allow=always', 'submodule', '-q', 'add', source, 'sub'], {
    cwd: ground.workspace,
    env,
  });
  git(ground.base, ground.workspace, ['commit', '-q', '-m', 'add sub']);
  fs.writeFileSync(path.join(ground.workspace, 'sub', 'notes.txt'), 'two\n');
  // The user's own global config: a textconv driver and an external diff, as many people have.
  fs.writeFileSync(
    path.join(ground.home, '.gitconfig'),
    `[diff "conv"]\n\ttextconv = ${bin}/conv\n[diff]\n\texternal = ${bin}/external\n`,
  );
  return ground;
}

describe('inline submodule diffs', () => {
  it('asks before --submodule=diff runs git diff in a submodule without --no-textconv', async () => {
    const ground = submoduleGround();
    // The control: even with --no-ext-diff --no-textconv, the submodule's git diff runs the user's programs.
    execFileSync('git', ['diff', '--no-ext-diff', '--no-textconv', '--submodule=diff'], {
      cwd: ground.workspace,
      env: { PATH: process.env.PATH ?? '', HOME: ground.home, GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(ground.repo.ran()).toEqual(['external']);
    clearMarks(ground);
    await expectAsks(ground, [
      'git diff --submodule=diff',
      'git diff "--submodule=diff" -- sub',
      'git diff HEAD --submodule=diff',
      'git log -p -1 --submodule=diff',
      'git show --submodule=diff',
    ]);
    expect(ground.repo.ran()).toEqual([]);
    // The other submodule formats stay in git itself and still run without asking.
    for (const command of ['git diff --submodule=log', 'git diff --submodule', 'git diff --stat']) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, command).toBe('ok');
    }
    expect(ground.repo.ran()).toEqual([]);
  });

  it('asks when the repository config sets diff.submodule=diff, and overrides the user’s own', async () => {
    const hostile = submoduleGround({ 'diff.submodule': 'diff' });
    await expectAsks(hostile, ['git diff']);
    expect(hostile.repo.ran()).toEqual([]);
    // The user's global diff.submodule=diff is theirs: git diff still runs, but not inline in the submodule.
    const own = submoduleGround();
    fs.appendFileSync(path.join(own.home, '.gitconfig'), '\tsubmodule = diff\n');
    const outcome = await own.call({ command: 'git diff' });
    expect(outcome.outcome).toBe('ok');
    expect(own.repo.ran()).toEqual([]);
    expect(outcomeText(outcome)).toContain('Subproject commit');
  });
});

// A merge commit whose merge conflicted in `f`, which `.gitattributes` gives the user's merge driver `mine`.
function mergeGround(config: Record<string, string> = {}): AttackGround {
  const ground = attackGround({ config });
  const bin = userPrograms(ground, ['merge-driver']);
  const run = (args: string[]) => git(ground.base, ground.workspace, args);
  const write = (text: string) => fs.writeFileSync(path.join(ground.workspace, 'f'), text);
  fs.writeFileSync(path.join(ground.workspace, '.gitattributes'), 'f merge=mine\n');
  write('1\n2\n3\n');
  run(['add', '.']);
  run(['commit', '-q', '-m', 'base']);
  run(['checkout', '-q', '-b', 'side']);
  write('1\nside\n3\n');
  run(['commit', '-q', '-a', '-m', 'side']);
  run(['checkout', '-q', '-']);
  write('1\nmain\n3\n');
  run(['commit', '-q', '-a', '-m', 'main']);
  // The merge conflicts in `f` (git exits 1), and is then committed by hand.
  expect(() => run(['merge', '-q', 'side'])).toThrow();
  write('1\nmerged\n3\n');
  run(['commit', '-q', '-a', '-m', 'merged']);
  fs.writeFileSync(
    path.join(ground.home, '.gitconfig'),
    `[merge "mine"]\n\tdriver = ${bin}/merge-driver %O %A %B\n`,
  );
  return ground;
}

describe('re-done merges', () => {
  it('asks before --remerge-diff or --diff-merges re-do a merge and run the user’s merge driver', async () => {
    const ground = mergeGround();
    // The control: git runs the driver the work tree's .gitattributes names, from the user's own config.
    execFileSync('git', ['log', '-1', '--remerge-diff', '--no-ext-diff', '--no-textconv'], {
      cwd: ground.workspace,
      env: { PATH: process.env.PATH ?? '', HOME: ground.home, GIT_CONFIG_NOSYSTEM: '1' },
    });
    expect(ground.repo.ran()).toEqual(['merge-driver']);
    clearMarks(ground);
    await expectAsks(ground, [
      'git log -1 --remerge-diff',
      'git show --remerge-diff HEAD',
      'git log -1 --diff-merges=remerge',
      'git log -1 --diff-merges=r',
      'git show --diff-merges remerge',
    ]);
    expect(ground.repo.ran()).toEqual([]);
    const plain = await ground.call({ command: 'git show --stat HEAD' });
    expect(plain.outcome).toBe('ok');
    expect(ground.repo.ran()).toEqual([]);
  });

  it('asks when the repository config makes -m re-do merges, and overrides the user’s own', async () => {
    const hostile = mergeGround({ 'log.diffMerges': 'remerge' });
    await expectAsks(hostile, ['git log -1 -m -p']);
    expect(hostile.repo.ran()).toEqual([]);
    const own = mergeGround();
    fs.appendFileSync(path.join(own.home, '.gitconfig'), '[log]\n\tdiffMerges = remerge\n');
    const outcome = await own.call({ command: 'git log -1 -m -p' });
    expect(outcome.outcome).toBe('ok');
    expect(own.repo.ran()).toEqual([]);
    expect(outcomeText(outcome)).toContain('merged');
  });
});

describe('help pages', () => {
  it('asks before --help runs man, or a browser on the repository’s help address', async () => {
    const ground = attackGround({
      config: {
        'help.format': 'web',
        'help.browser': 'w3m',
        'help.htmlPath': 'https://attacker.example/docs',
      },
    });
    userPrograms(ground, ['man', 'w3m']);
    // The control: git itself starts the browser for the repository's help address.
    spawnSync('git', ['status', '--help'], {
      cwd: ground.workspace,
      env: { ...quietGitEnv(ground.base), PATH: process.env.PATH ?? '' },
      stdio: 'ignore',
    });
    expect(ground.repo.ran()).toEqual(['w3m']);
    clearMarks(ground);
    await expectAsks(ground, [
      'git status --help',
      'git rev-parse --help',
      'git log --help',
      'git diff --he',
    ]);
    expect(ground.repo.ran()).toEqual([]);
    // Without the config, `git status --help` runs man.
    const plain = attackGround();
    userPrograms(plain, ['man']);
    await expectAsks(plain, ['git status --help', 'git rev-parse --help']);
    expect(plain.repo.ran()).toEqual([]);
  });
});
