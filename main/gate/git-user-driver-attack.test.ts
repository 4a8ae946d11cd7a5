// Attacks on the default git rules through the user's own drivers, which a hostile repository's `.gitattributes`
// selects: a filter driver (`filter.<name>.clean`, `.process`, as git-lfs or git-crypt install in ~/.gitconfig) that
// `git status` and `git diff` run on every changed file, and a textconv driver that `git status -v` runs on the
// staged diff (status takes no --no-textconv). `git status -v` also prints a staged .env, which the sandbox hides.
// End to end through the real dispatcher, the ConfirmGate and a real run_command, with nobody to ask.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../../tools/sdk/testing/hostile-repo';
import type { AttackGround } from './testing/attack-workspace';
import { attackGround, outcomeText } from './testing/attack-workspace';

const saved = process.env.HOME;
afterEach(() => {
  process.env.HOME = saved;
});

// The hostile repository (`*.txt diff=evil filter=evil`, a.txt changed) and the user's own global config naming
// the driver `evil` as `config` says; every program is the repository helper's marker script.
function userDriverGround(config: string): AttackGround {
  const ground = attackGround();
  fs.writeFileSync(path.join(ground.home, '.gitconfig'), config.replace(/\$PROGRAM/g, ground.repo.program));
  process.env.HOME = ground.home;
  return ground;
}

// Git as a person would run it in the workspace, with the user's own config.
function plainGit(ground: AttackGround, args: string[]): void {
  execFileSync('git', args, {
    cwd: ground.workspace,
    env: { PATH: process.env.PATH ?? '', HOME: ground.home },
    stdio: 'ignore',
  });
}

function clearMarks(ground: AttackGround): void {
  for (const mark of ground.repo.ran()) fs.rmSync(path.join(ground.repo.marks, mark));
}

describe("the user's own filter drivers", () => {
  it('runs no clean filter the repository selects under git status or git diff', async () => {
    const ground = userDriverGround(
      '[filter "evil"]\n\tclean = $PROGRAM clean\n\tsmudge = $PROGRAM smudge\n\trequired = true\n',
    );
    // The control: git runs the user's clean filter on the repository's changed file.
    plainGit(ground, ['diff']);
    expect(ground.repo.ran()).toEqual(['clean']);
    clearMarks(ground);
    for (const command of ['git status', 'git status --short', 'git diff', 'git diff HEAD --stat']) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, `${command}: ${outcomeText(outcome)}`).toBe('ok');
    }
    expect(ground.repo.ran()).toEqual([]);
    // Git still shows the change, read as it is.
    expect(outcomeText(await ground.call({ command: 'git diff' }))).toContain('+two');
  });

  it('starts no long-running filter process (git-lfs style) either', async () => {
    const ground = userDriverGround('[filter "evil"]\n\tprocess = $PROGRAM process\n\trequired = true\n');
    expect(() => plainGit(ground, ['diff'])).toThrow();
    expect(ground.repo.ran()).toEqual(['process']);
    clearMarks(ground);
    // Attributes from .git/info/attributes select it as well as the work tree's .gitattributes.
    fs.rmSync(path.join(ground.workspace, '.gitattributes'));
    fs.writeFileSync(path.join(ground.workspace, '.git', 'info', 'attributes'), '* filter=evil\n');
    for (const command of ['git status', 'git diff']) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, `${command}: ${outcomeText(outcome)}`).toBe('ok');
    }
    expect(ground.repo.ran()).toEqual([]);
  });
});

describe('git status -v', () => {
  it("asks before the staged diff runs the user's textconv driver", async () => {
    const ground = userDriverGround('[diff "evil"]\n\ttextconv = $PROGRAM textconv\n');
    git(ground.base, ground.workspace, ['add', 'a.txt']);
    // The control: status prints the staged diff through the textconv the repository selects.
    plainGit(ground, ['status', '-v']);
    expect(ground.repo.ran()).toEqual(['textconv']);
    clearMarks(ground);
    for (const command of [
      'git status -v',
      'git status --verbose',
      'git status --verb',
      'git status -vv -u',
    ]) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, command).toBe('denied');
      expect(outcomeText(outcome), command).toMatch(/needs approval.* there is nobody to ask/);
    }
    expect(ground.repo.ran()).toEqual([]);
    const plain = await ground.call({ command: 'git status --short' });
    expect(outcomeText(plain)).toContain('M  a.txt');
  });

  it('does not print a staged .env', async () => {
    const ground = userDriverGround('');
    const env = path.join(ground.workspace, '.env');
    fs.writeFileSync(env, 'API_KEY=old\n');
    git(ground.base, ground.workspace, ['add', '-f', '.env']);
    git(ground.base, ground.workspace, ['commit', '-q', '-m', 'env']);
    fs.writeFileSync(env, 'API_KEY=canary-3f9a1c\n');
    git(ground.base, ground.workspace, ['add', '-f', '.env']);
    const outcome = await ground.call({ command: 'git status -v' });
    expect(outcomeText(outcome)).not.toContain('canary-3f9a1c');
    expect(outcome.outcome).toBe('denied');
  });
});
