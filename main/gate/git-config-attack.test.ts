// A repository whose config runs a program, end to end through the real dispatcher, the ConfirmGate and a real
// run_command: the default rules stop vouching for git there (the prompt says which key), also when the repository
// is carried as plain files, embedded, bare-shaped, behind a .git file, a submodule, or pulled in by an include.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, hostileRepo } from '../../tools/sdk/testing/hostile-repo';
import { attackGround, outcomeText } from './testing/attack-workspace';
import { ScriptedPrompter } from './testing/scripted-prompter';

// Every key the check knows, with a value that would run the marker program (or point git elsewhere).
const HAZARDS: Record<string, string> = {
  'core.fsmonitor': '$PROGRAM fsmonitor',
  'core.pager': '$PROGRAM pager',
  'core.sshCommand': '$PROGRAM ssh',
  'core.hooksPath': '.',
  'core.editor': '$PROGRAM editor',
  'core.askPass': '$PROGRAM askpass',
  'core.gitProxy': '$PROGRAM proxy',
  'core.alternateRefsCommand': '$PROGRAM refs',
  'diff.external': '$PROGRAM external',
  'diff.evil.command': '$PROGRAM diff-command',
  'diff.evil.textconv': '$PROGRAM textconv',
  'filter.evil.clean': '$PROGRAM clean',
  'filter.evil.process': '$PROGRAM process',
  'gpg.program': '$PROGRAM gpg',
  'gpg.ssh.program': '$PROGRAM gpg-ssh',
  'gpg.ssh.defaultKeyCommand': '$PROGRAM key',
  'log.showSignature': 'true',
  'include.path': 'other.config',
  'includeIf.gitdir:/.path': 'other.config',
  'credential.helper': '$PROGRAM credential',
  'credential.https://x.example.helper': '$PROGRAM credential',
  'sequence.editor': '$PROGRAM sequence',
  'pager.status': '$PROGRAM pager-status',
  'alias.st': '!$PROGRAM alias',
  'uploadpack.packObjectsHook': '$PROGRAM hook',
  'protocol.ext.allow': 'always',
  'remote.origin.uploadpack': '$PROGRAM upload',
  'remote.origin.vcs': 'evil',
  'url.ext::sh -c touch% x.insteadOf': 'https://',
  'merge.evil.driver': '$PROGRAM merge',
  'interactive.diffFilter': '$PROGRAM filter',
  'lfs.extension.evil.clean': '$PROGRAM lfs',
  'trace2.eventTarget': '/tmp/trace',
  'submodule.x.update': '!$PROGRAM update',
  'web.browser': 'evil',
  'sendemail.sendmailCmd': '$PROGRAM mail',
};

const keyName = (key: string) => key.split('.')[0] as string;

describe('a repository whose config runs a program', () => {
  it('asks for git under a default rule for every program-running key, naming the key and the file', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    for (const [key, value] of Object.entries(HAZARDS)) {
      git(ground.base, ground.workspace, ['config', key, value.replace(/\$PROGRAM/g, ground.repo.program)]);
      const outcome = await ground.call({ command: 'git status' });
      expect(outcome.outcome, key).toBe('denied');
      const item = prompter.questions.at(-1);
      expect(item?.noStanding?.toLowerCase(), key).toContain(keyName(key).toLowerCase());
      expect(item?.noStanding, key).toContain(path.join(ground.workspace, '.git', 'config'));
      expect(item?.offers, key).toEqual({ chat: false, always: false });
      git(ground.base, ground.workspace, ['config', '--unset-all', key]);
    }
    expect(prompter.questions).toHaveLength(Object.keys(HAZARDS).length);
    expect(ground.repo.ran()).toEqual([]);
    // The same repository without them: the default rule allows git status, and it runs.
    const clean = await ground.call({ command: 'git status --short' });
    expect(clean.outcome).toBe('ok');
    expect(outcomeText(clean)).toContain('a.txt');
  });

  it('denies with nobody to ask, and runs nothing, for each read-only command', async () => {
    const ground = attackGround({
      config: {
        'core.fsmonitor': '$PROGRAM fsmonitor',
        'diff.evil.textconv': '$PROGRAM textconv',
        'filter.evil.clean': '$PROGRAM clean',
      },
    });
    for (const command of [
      'git status',
      'git diff',
      'git log -p',
      'git show HEAD',
      'git rev-parse HEAD',
      'git branch',
    ])
      expect((await ground.call({ command })).outcome, command).toBe('denied');
    expect(ground.repo.ran()).toEqual([]);
  });

  it('reads included config files: a clean-looking config that includes one from the workspace', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    const included = path.join(ground.workspace, 'tools', 'git.inc');
    fs.mkdirSync(path.dirname(included));
    fs.writeFileSync(included, `[core]\n\tfsmonitor = ${ground.repo.program} fsmonitor\n`);
    fs.appendFileSync(
      path.join(ground.workspace, '.git', 'config'),
      '[includeIf "gitdir:/"]\n\tpath = ../tools/git.inc\n',
    );
    expect((await ground.call({ command: 'git status' })).outcome).toBe('denied');
    expect(prompter.questions[0]?.noStanding).toMatch(/includeif/i);
    expect(ground.repo.ran()).toEqual([]);
  });
});

describe('repositories a workspace carries', () => {
  it('checks a nested repository carried as plain files, from inside it and from the workspace', async () => {
    const ground = attackGround();
    const nested = hostileRepo(ground.base, path.join(ground.workspace, 'vendor', 'lib'), {
      'core.fsmonitor': '$PROGRAM fsmonitor',
    });
    expect((await ground.call({ command: 'git status', cwd: 'vendor/lib' })).outcome).toBe('denied');
    expect((await ground.call({ command: 'git status' })).outcome).toBe('denied');
    expect(nested.ran()).toEqual([]);
  });

  it('checks a bare-repository-shaped folder, a .git file pointing elsewhere, and submodule git folders', async () => {
    const prompter = new ScriptedPrompter(() => ({ kind: 'deny' }));
    const ground = attackGround({ prompter });
    // A bare repository is only files: HEAD, objects/, refs/, config.
    const bare = hostileRepo(
      ground.base,
      path.join(ground.workspace, 'fixtures', 'evil.git'),
      {
        'core.fsmonitor': '$PROGRAM bare',
      },
      { bare: true },
    );
    expect((await ground.call({ command: 'git log', cwd: 'fixtures/evil.git' })).outcome).toBe('denied');
    expect((await ground.call({ command: 'git status' })).outcome).toBe('denied');
    expect(prompter.questions[1]?.noStanding).toContain(bare.root);
    fs.rmSync(bare.root, { recursive: true });
    // A `.git` file sends git to a repository hidden anywhere.
    const hidden = hostileRepo(ground.base, path.join(ground.base, 'hidden'), {
      'core.fsmonitor': '$PROGRAM hidden',
    });
    fs.mkdirSync(path.join(ground.workspace, 'sub'));
    fs.writeFileSync(
      path.join(ground.workspace, 'sub', '.git'),
      `gitdir: ${path.join(hidden.root, '.git')}\n`,
    );
    expect((await ground.call({ command: 'git status', cwd: 'sub' })).outcome).toBe('denied');
    fs.rmSync(path.join(ground.workspace, 'sub'), { recursive: true });
    // A `.git` symlink, seen from the workspace root.
    fs.mkdirSync(path.join(ground.workspace, 'linked'));
    fs.symlinkSync(path.join(hidden.root, '.git'), path.join(ground.workspace, 'linked', '.git'));
    expect((await ground.call({ command: 'git status' })).outcome).toBe('denied');
    expect(prompter.questions.at(-1)?.noStanding).toContain(path.join(hidden.root, '.git'));
    fs.rmSync(path.join(ground.workspace, 'linked'), { recursive: true });
    expect(hidden.ran()).toEqual([]);
    // A submodule's git folder lives in .git/modules.
    const module = hostileRepo(
      ground.base,
      path.join(ground.workspace, '.git', 'modules', 'm'),
      {
        'core.fsmonitor': '$PROGRAM module',
      },
      { bare: true },
    );
    expect((await ground.call({ command: 'git status' })).outcome).toBe('denied');
    expect(prompter.questions.at(-1)?.noStanding).toContain(module.root);
    expect(ground.repo.ran()).toEqual([]);
  });
});

describe('what only looks like a hazard', () => {
  it('still allows git status in a repository with a real submodule and git-lfs data keys', async () => {
    const ground = attackGround();
    const library = hostileRepo(ground.base, path.join(ground.base, 'library'), {});
    git(ground.base, ground.workspace, [
      '-c',
      'protocol.file.allow=always',
      'submodule',
      'add',
      '-q',
      library.root,
      'lib',
    ]);
    git(ground.base, ground.workspace, ['commit', '-q', '-m', 'lib']);
    git(ground.base, ground.workspace, ['config', 'lfs.repositoryformatversion', '0']);
    const outcome = await ground.call({ command: 'git status --short' });
    expect(outcome.outcome, outcomeText(outcome)).toBe('ok');
    expect(ground.repo.ran()).toEqual([]);
  });
});

describe("the user's own global config and the second layer", () => {
  const home = process.env.HOME;
  afterEach(() => {
    process.env.HOME = home;
  });

  it('trusts the global config for the check, and still runs no program it names under a default rule', async () => {
    const ground = attackGround();
    process.env.HOME = ground.home;
    fs.writeFileSync(
      path.join(ground.home, '.gitconfig'),
      `[diff]\n\texternal = ${ground.repo.program} external\n[diff "evil"]\n\ttextconv = ${ground.repo.program} textconv\n` +
        `[core]\n\tfsmonitor = ${ground.repo.program} fsmonitor\n\tpager = ${ground.repo.program} pager\n`,
    );
    for (const command of ['git diff', 'git log -p -1', 'git show HEAD', 'git status']) {
      const outcome = await ground.call({ command });
      expect(outcome.outcome, command).toBe('ok');
    }
    expect(ground.repo.ran()).toEqual([]);
    // The control: a command a person approved is not a default rule's, so git runs what its config names.
    const prompter = new ScriptedPrompter(() => ({ kind: 'allow_once' }));
    const asked = attackGround({ prompter });
    fs.writeFileSync(
      path.join(asked.home, '.gitconfig'),
      `[core]\n\tfsmonitor = ${asked.repo.program} fsmonitor\n`,
    );
    process.env.HOME = asked.home;
    expect((await asked.call({ command: 'git status 2>&1' })).outcome).toBe('ok');
    expect(prompter.questions).toHaveLength(1);
    expect(asked.repo.ran()).toEqual(['fsmonitor']);
  });
});
