// Attacks on the default read-only rules through their operands, end to end through the real dispatcher, the
// ConfirmGate and a real run_command, with nobody to ask: `git diff` outside a repository, or with a path outside the
// work tree, compares files directly (an implicit --no-index) and prints whole trees; `ls` lists what lies outside.
// Each must be denied and print nothing from outside the workspace; revisions and paths inside still run.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../../tools/sdk/testing/hostile-repo';
import type { AttackGround } from './testing/attack-workspace';
import { attackGround, outcomeText } from './testing/attack-workspace';
import { ScriptedPrompter } from './testing/scripted-prompter';

const CANARY = /OUTSIDE-CANARY|HISTORY-CANARY|CONFIG-CANARY|NESTED-ENV-CANARY/;

// Files outside the workspace that a read-only default rule must never print: a tree, a history, a config.
function plantOutside(ground: AttackGround): { tree: string; history: string; config: string } {
  const tree = path.join(ground.base, 'srv');
  fs.mkdirSync(path.join(tree, 'app'), { recursive: true });
  fs.writeFileSync(path.join(tree, 'app', 'db.conf'), 'OUTSIDE-CANARY\n');
  fs.writeFileSync(path.join(tree, 'app', 'other.conf'), 'OUTSIDE-CANARY 2\n');
  const history = path.join(ground.home, '.bash_history');
  fs.writeFileSync(history, 'HISTORY-CANARY\n');
  const config = path.join(ground.home, '.config', 'tool');
  fs.mkdirSync(config, { recursive: true });
  fs.writeFileSync(path.join(config, 'settings'), 'CONFIG-CANARY\n');
  return { tree, history, config: path.dirname(config) };
}

let calls = 0;

async function expectDenied(ground: AttackGround, commands: string[], workspace?: string): Promise<void> {
  for (const command of commands) {
    const outcome = workspace
      ? await ground.fx.dispatcher.dispatch(
          { id: `w${++calls}`, name: 'run_command', args: { command } },
          { chatId: 'chat-attack', workspace },
        )
      : await ground.call({ command });
    expect(outcome.outcome, command).toBe('denied');
    expect(outcomeText(outcome), command).not.toMatch(CANARY);
  }
}

describe('git diff that would compare files directly', () => {
  it('asks for a path outside the work tree: a whole tree, a history file, /dev/null', async () => {
    const ground = attackGround();
    const { tree, history, config } = plantOutside(ground);
    fs.mkdirSync(path.join(ground.workspace, 'api'));
    fs.writeFileSync(path.join(ground.workspace, 'api', '.env'), 'NESTED-ENV-CANARY\n');
    const rel = (to: string) => path.relative(ground.workspace, to);
    await expectDenied(ground, [
      `git diff ${tree} ${config}`,
      `git diff /dev/null ${history}`,
      `git diff ${tree} api`,
      `git diff ${rel(tree)}/app/db.conf a.txt`,
      `git diff -- ${tree}/app/db.conf ${tree}/app/other.conf`,
      `git diff a.txt ${rel(history)}`,
      'git diff /dev/stdin a.txt',
      `git log -p -- ${rel(tree)}`,
      `git show HEAD -- ${tree}`,
      `git diff --relative=${tree}`,
      `git status ${tree}`,
      `git rev-parse --resolve-git-dir ${tree}`,
    ]);
    expect(ground.repo.ran()).toEqual([]);
  });

  it('asks through a symlink, ~ and .. that lead out, however the path is spelled', async () => {
    const ground = attackGround();
    const { tree } = plantOutside(ground);
    fs.symlinkSync(tree, path.join(ground.workspace, 'srv-link'));
    fs.mkdirSync(path.join(ground.workspace, 'deep', 'er'), { recursive: true });
    fs.symlinkSync(path.join(ground.workspace, 'deep', 'er'), path.join(ground.workspace, 'in'));
    await expectDenied(ground, [
      'git diff srv-link/app/db.conf srv-link/app/other.conf',
      'git diff srv-link a.txt',
      `git diff "srv-link/app" 'a.txt'`,
      'git diff ~/.bash_history a.txt',
      'git diff ../srv/app/db.conf a.txt',
      'git diff ./../srv a.txt',
      // Inside by the kernel's reading (in/.. is deep/), outside by git's own lexical one: it asks too.
      'git diff in/../../srv a.txt',
    ]);
  });

  it('asks where git finds no repository, or one outside the workspace', async () => {
    const ground = attackGround();
    const { tree } = plantOutside(ground);
    // A workspace that is no repository: git diff then compares any two paths directly.
    const plain = path.join(ground.base, 'plain');
    fs.mkdirSync(path.join(plain, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(plain, 'docs', 'a.md'), 'a\n');
    fs.writeFileSync(path.join(plain, 'docs', 'b.md'), 'OUTSIDE-CANARY b\n');
    await expectDenied(ground, ['git diff docs/a.md docs/b.md', 'git status', 'git log'], plain);
    // A workspace inside a repository it does not contain: git would show the whole outer repository.
    const inner = path.join(ground.workspace, 'packages', 'app');
    fs.mkdirSync(inner, { recursive: true });
    fs.writeFileSync(path.join(ground.workspace, 'secret.txt'), 'OUTSIDE-CANARY\n');
    git(ground.base, ground.workspace, ['add', 'secret.txt']);
    await expectDenied(ground, ['git diff --cached', 'git status', 'git show HEAD'], inner);
    expect(fs.existsSync(tree)).toBe(true);
  });

  it('still allows revisions, ranges and paths inside the work tree, and they run', async () => {
    const ground = attackGround();
    git(ground.base, ground.workspace, ['commit', '-qam', 'two']);
    fs.writeFileSync(path.join(ground.workspace, 'a.txt'), 'three\n');
    for (const command of [
      'git diff',
      'git diff HEAD~1',
      'git diff HEAD~1 HEAD -- a.txt',
      'git log --oneline HEAD~1..HEAD',
      'git log --format=%s -- a.txt',
      'git show HEAD:a.txt',
      'git status --short .',
      'git rev-parse HEAD^',
      'ls',
      'ls -la .',
      'which git',
    ]) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, command).toBe('ok');
    }
    expect(outcomeText(await ground.call({ command: 'git diff HEAD~1 -- a.txt' }))).toContain('+three');
  });
});

describe('ls and which outside the workspace', () => {
  it('asks for ls of /, ~, .., a symlink out, /dev and /proc', async () => {
    const ground = attackGround();
    const { tree } = plantOutside(ground);
    fs.symlinkSync(tree, path.join(ground.workspace, 'srv-link'));
    await expectDenied(ground, [
      'ls /',
      'ls ~',
      'ls -la ..',
      'ls srv-link',
      `ls -R ${tree}`,
      'ls -- ../srv',
      'ls /dev/',
      'ls /proc/self/cwd',
      'ls --hide=x ..',
    ]);
  });

  it('lets which look programs up by name, but not name a path outside', async () => {
    const ground = attackGround();
    expect((await ground.call({ command: 'which ls git' })).outcome).toBe('ok');
    await expectDenied(ground, ['which ../srv/app/db.conf', 'which /etc/passwd']);
  });

  it('tells the person why when there is someone to ask', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    const { tree } = plantOutside(ground);
    await ground.call({ command: `ls ${tree}` });
    await ground.call({ command: 'git diff /dev/null a.txt' });
    expect(prompter.questions.map((q) => q.noStanding)).toEqual([
      expect.stringMatching(/ outside the workspace.*default read-only rule/),
      expect.stringMatching(/`\/dev\/null`.* outside the workspace/),
    ]);
  });
});
