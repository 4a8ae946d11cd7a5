// Attacks on the default read-only command rules, end to end through the real dispatcher, the ConfirmGate and a real
// run_command, with nobody to ask: a quoted or abbreviated option that writes a file or starts a program, and git's
// global options. Each must be denied, write nothing and run nothing; the plain forms still run without asking.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attackGround, outcomeText } from './testing/attack-workspace';
import { ScriptedPrompter } from './testing/scripted-prompter';

// `VICTIM` is replaced by a path (relative to the workspace) of a file outside it.
async function expectDenied(lines: string[], setup = attackGround()): Promise<void> {
  const relative = path.relative(setup.workspace, setup.victim);
  for (const template of lines) {
    const command = template.replace(/VICTIM/g, relative);
    const outcome = await setup.call({ command });
    expect(outcome.outcome, command).toBe('denied');
    expect(outcomeText(outcome), command).toMatch(/needs approval.* there is nobody to ask/);
  }
  expect(fs.existsSync(setup.victim)).toBe(false);
  expect(setup.repo.ran()).toEqual([]);
  // Nothing in the workspace was written either (the repository's config, the work tree).
  expect(fs.readFileSync(path.join(setup.workspace, '.git', 'config'), 'utf8')).not.toContain('pwned');
}

describe('quoted and escaped --output', () => {
  it('never passes for a read-only git command, however it is quoted or escaped', async () => {
    const ground = attackGround();
    await expectDenied(
      [
        'git diff --no-index "--output=VICTIM" a.txt a.txt',
        'git log "--output=VICTIM"',
        "git log '--output=VICTIM' -1",
        "git log '--output'=VICTIM",
        'git log --out\\put=VICTIM',
        'git log -"-"o"u"t\'p\'ut=VICTIM',
        'git log --output VICTIM',
        'git log "--output" "VICTIM"',
        'git show "--output=.git/config" HEAD',
        'git diff "--output=VICTIM" -- a.txt',
        'git log -- "--output=VICTIM"',
        "git log $'--output=VICTIM'",
        'git log "$(printf -- --output=VICTIM)"',
        'git log ${x:---output=VICTIM}',
        'git log --output=VICTIM # a comment',
        'git log\t"--output=VICTIM"',
        'git "log" "--output=VICTIM"',
        '"git" log --o\\utput=VICTIM',
      ],
      ground,
    );
    // The plain read-only form is still allowed by the default rule, and really runs.
    const plain = await ground.call({ command: 'git log --oneline' });
    expect(plain.outcome).toBe('ok');
    expect(outcomeText(plain)).toContain('one');
  });

  it('tells the person why a line is not covered when there is someone to ask', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    await ground.call({ command: 'git log "$(printf -- --output=x)"' });
    await ground.call({ command: 'git log --oneline; touch pwned' });
    expect(prompter.questions.map((q) => [q.noStanding, q.compound])).toEqual([
      [expect.stringContaining('command substitution'), null],
      [null, ';'],
    ]);
    expect(prompter.questions.every((q) => !q.offers.always)).toBe(true);
    expect(fs.existsSync(path.join(ground.workspace, 'pwned'))).toBe(false);
  });
});

describe('abbreviated options', () => {
  it('catches every unambiguous abbreviation git accepts, in --opt=value and --opt value forms', async () => {
    await expectDenied([
      'git log --outp=VICTIM',
      'git log --outpu VICTIM',
      'git log --ou=VICTIM',
      'git diff --no-index --outp=VICTIM a.txt a.txt',
      'git diff --ext',
      'git diff --ext-d',
      'git log -p --ext-dif',
      'git log -p --textc',
      'git show --textconv HEAD',
      'git diff --no-ind a.txt a.txt',
      'git log --show-sig',
      'git log --upload-p=x',
      'git log --exe=x',
      'git diff -O../x',
      'git log -pO../x',
      'git status --outp=VICTIM',
      'git rev-parse --outp=VICTIM',
    ]);
  });

  it('still allows the harmless options that only begin like a forbidden one', async () => {
    const ground = attackGround();
    for (const command of [
      'git diff --text',
      'git diff --no-ext-diff --no-textconv',
      'git log --oneline -n 1',
    ]) {
      expect((await ground.call({ command })).outcome, command).toBe('ok');
    }
  });
});

describe('global git options', () => {
  it('allows nothing before the subcommand: -c, -C, --exec-path, --git-dir, --work-tree, -p, --namespace…', async () => {
    const ground = attackGround();
    const marker = path.join(ground.base, 'marks', 'global');
    await expectDenied(
      [
        `git -c core.pager='touch ${marker}' log`,
        `git -c core.fsmonitor='touch ${marker}' status`,
        `git -c alias.status='!touch ${marker}' status`,
        `git -c diff.external='touch ${marker}' diff`,
        `git --config-env=core.pager=HOME log`,
        'git -C .. status',
        'git -C/ status',
        'git --exec-path=. status',
        'git --git-dir=.git log',
        'git --work-tree=.. status',
        'git -p log',
        'git --paginate log',
        'git --namespace=x log',
        'git --no-pager log',
        'git --bare log',
        'git -- status',
        'git --literal-pathspecs status',
      ],
      ground,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('allows git only by that name: not a path to another program, not with a variable in front', async () => {
    const ground = attackGround();
    fs.writeFileSync(path.join(ground.workspace, 'git'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
    await expectDenied(
      [
        './git status',
        `${path.join(ground.workspace, 'git')} status`,
        'GIT_EXTERNAL_DIFF=x git diff',
        'PATH=.:$PATH git status',
        'env git status',
        'command git status',
      ],
      ground,
    );
    expect(fs.existsSync(path.join(ground.workspace, 'pwned'))).toBe(false);
  });
});
