// Secret files in a repository's history beyond `.env` (docs/security.md, "Secret files in git's objects"): a
// committed private key (`certs/server.key`, `deploy/id_ed25519`) asks when a command names it, but `git show HEAD`
// and `git log -p` printed it unnamed under the default read-only rules, since only `.env` names were looked for. And
// the look ran in the command's folder, where git reads pathspecs: from `sub/` it saw only `sub/**/.env`, while
// `git log -p` there prints the whole repository. Played through `agenvoy tools call` with no terminal: whatever runs,
// ran unasked. The pathspecs are also checked against the gate's own list of names, file by file, with real git.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENSITIVE_NAMES, sensitiveNameIn } from '../../tools/sdk/sensitive-names';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';
import { SECRET_PATHSPECS } from './git-secret-files';

const ENV_CANARY = 'API_KEY=ROOT-ENV-CANARY-41c2';
const TLS_CANARY = 'TLS-KEY-CANARY-77a0';
const DEPLOY_CANARY = 'DEPLOY-KEY-CANARY-93be';

let root: string;
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=n', ...args], {
    cwd,
    stdio: 'pipe',
  }).toString();

function repository(name: string, files: Record<string, string>): string {
  const folder = path.join(root, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), text);
  }
  git(folder, 'init', '-q');
  git(folder, 'add', '-A', '-f');
  git(folder, 'commit', '-qm', 'first');
  return folder;
}

function place(cwd: string): CliPlace {
  return { home: path.join(root, 'agenvoy'), cwd, env: { HOME: path.join(root, 'home') } };
}

async function call(cwd: string, command: string, folder?: string) {
  const args = folder === undefined ? { command } : { command, cwd: folder };
  const run = await runCli(['tools', 'call', 'run_command', JSON.stringify(args), '--json'], place(cwd));
  return {
    output: run.stdout + run.stderr,
    outcome: (JSON.parse(run.stdout) as { outcome: string }).outcome,
  };
}

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-git-names-')));
  fs.mkdirSync(path.join(root, 'home'));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('secret files in the history, looked for from the whole repository', () => {
  it('a root .env removed from tracking is not printed from a subfolder, nor a staged one', async () => {
    const repo = repository('env-from-sub', { '.env': `${ENV_CANARY}\n`, 'sub/deeper/a.txt': 'a\n' });
    git(repo, 'rm', '-q', '--cached', '.env');
    git(repo, 'commit', '-qm', 'untrack env');
    for (const [command, folder] of [
      ['git log -p', 'sub'],
      ['git show HEAD~1', 'sub'],
      ['git log -p', 'sub/deeper'],
    ] as const) {
      const run = await call(repo, command, folder);
      expect(run.output.includes('ROOT-ENV-CANARY'), `${command} in ${folder}`).toBe(false);
      expect(run.outcome, `${command} in ${folder}`).toBe('denied');
      expect(run.output).toContain('a .env file');
    }
    // Run from the subfolder as the working folder of the whole call, too.
    const inside = await call(path.join(repo, 'sub'), 'git log -p');
    expect(inside.outcome).toBe('denied');
    expect(inside.output.includes('ROOT-ENV-CANARY')).toBe(false);
  }, 120_000);

  it('a tracked .env with a new value staged is not printed by git diff --cached from a subfolder', async () => {
    const repo = repository('env-staged', { '.env': 'API_KEY=old\n', 'sub/a.txt': 'a\n' });
    fs.writeFileSync(path.join(repo, '.env'), `${ENV_CANARY}\n`);
    git(repo, 'add', '.env');
    const run = await call(repo, 'git diff --cached', 'sub');
    expect(run.outcome).toBe('denied');
    expect(run.output.includes('ROOT-ENV-CANARY')).toBe(false);
  }, 60_000);

  it('committed private keys are not printed by git show or git log -p without being named', async () => {
    const repo = repository('keys', {
      'certs/server.key': `-----BEGIN PRIVATE KEY-----\n${TLS_CANARY}\n-----END PRIVATE KEY-----\n`,
      'deploy/id_ed25519': `-----BEGIN OPENSSH PRIVATE KEY-----\n${DEPLOY_CANARY}\n-----END OPENSSH PRIVATE KEY-----\n`,
      'README.md': '# app\n',
    });
    for (const command of ['git show HEAD', 'git log -p', 'git show HEAD -- certs', 'git log -p -- deploy']) {
      const run = await call(repo, command);
      expect(run.output.includes(TLS_CANARY) || run.output.includes(DEPLOY_CANARY), command).toBe(false);
      expect(run.outcome, command).toBe('denied');
      expect(run.output).toMatch(/a private (SSH key|key or certificate file)/);
    }
    // Names only still run unasked.
    for (const command of ['git log --oneline', 'git status', 'git log --stat -1']) {
      expect((await call(repo, command)).outcome, command).toBe('ok');
    }
  }, 120_000);
});

describe('the pathspecs against the gate’s list of sensitive names', () => {
  it('list exactly the files the gate calls sensitive, as files and as folders, in any case', () => {
    const files: Record<string, string> = {};
    SENSITIVE_NAMES.forEach((name, i) => {
      // Every spelling each segment's globs stand for, with `*` as a word, and once upper-cased.
      const spellings = name.segments.reduce<string[]>(
        (paths, segment) =>
          paths.flatMap((start) =>
            (segment.globs ?? [segment.sample]).map((glob) => `${start}/${glob.replaceAll('*', 'x')}`),
          ),
        [''],
      );
      for (const [j, spelling] of spellings.entries()) {
        files[`n${i}/file${j}${spelling}`] = 'x\n';
        files[`n${i}/folder${j}${spelling}/inside.txt`] = 'x\n';
        files[`n${i}/upper${j}${spelling.toUpperCase()}`] = 'x\n';
      }
    });
    // Near misses, which are no secret files.
    for (const name of [
      'id_rsa.pub',
      'envelope.txt',
      '.environment',
      'keys.md',
      'server.key.txt',
      'ssh/config',
    ])
      files[`misses/${name}`] = 'x\n';
    const repo = repository('names', files);
    const listed = new Set(
      git(repo, 'ls-files', '-z', '--', ...SECRET_PATHSPECS)
        .split('\0')
        .filter((file) => file !== ''),
    );
    const planted = Object.keys(files);
    const sensitive = planted.filter((file) => sensitiveNameIn(file.split('/')) !== null);
    expect(sensitive.length).toBeGreaterThan(planted.length / 2);
    expect([...listed].sort()).toEqual(sensitive.sort());
    expect(sensitive.some((file) => file.startsWith('misses/'))).toBe(false);
  }, 60_000);
});
