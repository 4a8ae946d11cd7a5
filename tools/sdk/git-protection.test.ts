// The second layer for git under a default rule, against real git and a real hostile repository: without it the
// repository's programs run; with it, none does, and the command still works.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCeiling, protectDefaultRuleCommand, protectGitArgv } from './git-protection';
import { hostileRepo, quietGitEnv } from './testing/hostile-repo';

const HOSTILE = {
  'core.fsmonitor': '$PROGRAM fsmonitor',
  'diff.external': '$PROGRAM external',
  'diff.evil.textconv': '$PROGRAM textconv',
  'diff.evil.command': '$PROGRAM diff-command',
  'core.pager': '$PROGRAM pager',
  'pager.log': '$PROGRAM pager-log',
  'core.hooksPath': '/nonexistent',
};

function run(line: string, cwd: string, env: Record<string, string>): string {
  return execFileSync('/bin/sh', ['-c', line], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('git under a default rule', () => {
  it('runs the repository programs without the protections, and none with them', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-gitprot-'));
    const repo = hostileRepo(base, path.join(base, 'ws'), HOSTILE);
    const env = quietGitEnv(base);
    // The control: plain git runs what the config names.
    run('git status --short; git diff; git log -p -1 --format=%s', repo.root, env);
    expect(repo.ran()).toEqual(expect.arrayContaining(['diff-command', 'fsmonitor', 'textconv']));
    for (const mark of repo.ran()) fs.rmSync(path.join(repo.marks, mark));
    for (const line of ['git status', 'git diff', 'git log -p', 'git show HEAD', 'git diff --stat HEAD']) {
      const guarded = await protectDefaultRuleCommand(line, repo.root);
      expect(guarded, line).not.toBeNull();
      const output = run(guarded?.command as string, repo.root, { ...env, ...guarded?.env });
      if (line === 'git diff') expect(output).toContain('+two');
    }
    expect(repo.ran()).toEqual([]);
  });

  it('rebuilds the line from its argv with --no-ext-diff --no-textconv after diff, log and show', async () => {
    expect(protectGitArgv(['git', 'diff', '--stat'])).toEqual([
      'git',
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--stat',
    ]);
    expect(protectGitArgv(['git', 'status'])).toEqual(['git', 'status']);
    const guarded = await protectDefaultRuleCommand('git log "--format=%H %s"', os.tmpdir());
    expect(guarded?.command).toBe("git log --no-ext-diff --no-textconv '--format=%H %s'");
    expect(guarded?.env).toMatchObject({
      GIT_CONFIG_KEY_0: 'core.fsmonitor',
      GIT_CONFIG_VALUE_0: 'false',
      GIT_PAGER: 'cat',
    });
    expect(await protectDefaultRuleCommand('"ls"  -la', os.tmpdir())).toEqual({ command: 'ls -la', env: {} });
    expect(await protectDefaultRuleCommand('ls $X', os.tmpdir())).toBeNull();
  });

  it('stops git at the repository that was checked: no other one above it, no bare one by discovery', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-gitceil-'));
    const outer = hostileRepo(base, path.join(base, 'outer'), { 'core.fsmonitor': '$PROGRAM fsmonitor' });
    const inner = path.join(outer.root, 'plain');
    fs.mkdirSync(inner);
    expect(await gitCeiling(inner)).toBe(base);
    const bare = hostileRepo(
      base,
      path.join(base, 'evil.git'),
      { 'core.fsmonitor': '$PROGRAM bare' },
      { bare: true },
    );
    const guarded = await protectDefaultRuleCommand('git log', bare.root);
    expect(() =>
      run(guarded?.command as string, bare.root, { ...quietGitEnv(base), ...guarded?.env }),
    ).toThrow();
    expect(bare.ran()).toEqual([]);
  });

  it('lets no %G? placeholder start a signature program, and the log still prints', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-gitsig-'));
    const repo = hostileRepo(base, path.join(base, 'ws'), {});
    const bin = path.join(base, 'user-bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'gpg'), `#!/bin/sh\ntouch "${repo.marks}/gpg"\nexit 1\n`, {
      mode: 0o755,
    });
    const env = { ...quietGitEnv(base), PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const tree = run('git rev-parse "HEAD^{tree}"', repo.root, env).trim();
    const object = path.join(base, 'commit');
    fs.writeFileSync(
      object,
      `tree ${tree}\nauthor T <t@example.com> 1 +0000\ncommitter T <t@example.com> 1 +0000\n` +
        'gpgsig -----BEGIN PGP SIGNATURE-----\n \n wsBc\n -----END PGP SIGNATURE-----\n\nsigned\n',
    );
    run(`git update-ref HEAD "$(git hash-object -t commit -w '${object}')"`, repo.root, env);
    const line = "git log -1 '--format=%s %G?'";
    run(line, repo.root, env);
    expect(repo.ran()).toEqual(['gpg']);
    fs.rmSync(path.join(repo.marks, 'gpg'));
    const guarded = await protectDefaultRuleCommand(line, repo.root);
    expect(run(guarded?.command as string, repo.root, { ...env, ...guarded?.env })).toContain('signed N');
    expect(repo.ran()).toEqual([]);
  });
});
