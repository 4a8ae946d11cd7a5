// Git under a default rule asks when the repository's effective config names a program (docs/security.md). The
// config is what git itself reads from the working folder (`git config --list --show-origin --includes`, which
// starts no program), found as the command's git will find it (the same GIT_CEILING_DIRECTORIES and
// safe.bareRepository=explicit the command runs with), plus the config of every repository the workspace carries.
import fs from 'node:fs/promises';
import path from 'node:path';
import { gitCeiling, repositoryRoot } from '../../tools/sdk/git-protection';
import { childEnvironment } from '../core/child-env';
import { embeddedRepositories, gitFileTarget } from './embedded-repositories';
import { runGitCheck } from './git-check-run';
import { gitHazard } from './git-hazards';
import { isInside } from './real-path';

/** One entry of `git config --list --show-scope --show-origin -z`. */
interface ConfigEntry {
  scope: string;
  origin: string;
  key: string;
  value: string | null;
}

const LIST = ['config', '--list', '--show-origin', '--show-scope', '--includes', '-z'];

/**
 * Why git in `cwd` should not run under a default rule, or null. The user's own global and system config count
 * only where they pull in a file from the workspace: the workspace is what a hostile repository controls.
 */
export async function gitConfigHazard(cwd: string, workspace: string): Promise<string | null> {
  const ceiling = await gitCeiling(cwd);
  const env = { ...childEnvironment(process.env), GIT_CEILING_DIRECTORIES: ceiling };
  const main = await listConfig(['-c', 'safe.bareRepository=explicit', ...LIST], cwd, env);
  if (main.kind === 'no_git') return null;
  if (main.kind === 'failed') return `git could not read the repository's config here (${main.message})`;
  const mainHazard = firstHazard(main.entries, cwd, [workspace]);
  if (mainHazard) return `git would run a program this repository's config names (${mainHazard})`;
  const root = await repositoryRoot(cwd);
  const ownGitDir = root ? await gitDirOf(root) : null;
  const roots = [
    workspace,
    ...(ownGitDir && !isInside(ownGitDir, workspace) ? [path.join(ownGitDir, 'modules')] : []),
  ];
  for (const gitDir of (await Promise.all(roots.map(embeddedRepositories))).flat()) {
    if (gitDir === ownGitDir) continue;
    const listed = await listConfig([`--git-dir=${gitDir}`, ...LIST], cwd, childEnvironment(process.env));
    if (listed.kind !== 'ok') continue;
    const hazard = firstHazard(listed.entries, cwd, [workspace, gitDir], true);
    if (hazard)
      return `the workspace carries a repository whose config names a program (${hazard}, in ${gitDir})`;
  }
  return null;
}

function firstHazard(
  entries: ConfigEntry[],
  cwd: string,
  controlled: string[],
  repositoryOnly = false,
): string | null {
  for (const entry of entries) {
    if (entry.scope === 'command') continue;
    const file = entry.origin.startsWith('file:') ? path.resolve(cwd, entry.origin.slice(5)) : null;
    const own = entry.scope === 'global' || entry.scope === 'system';
    if (own && (repositoryOnly || !file || !controlled.some((dir) => isInside(file, dir)))) continue;
    const hazard = gitHazard(entry.key, entry.value);
    if (hazard) return file ? `${hazard}, from ${file}` : hazard;
  }
  return null;
}

type Listed =
  { kind: 'ok'; entries: ConfigEntry[] } | { kind: 'no_git' } | { kind: 'failed'; message: string };

async function listConfig(args: string[], cwd: string, env: Record<string, string>): Promise<Listed> {
  const answer = await runGitCheck(args, cwd, env);
  return answer.kind === 'ok' ? { kind: 'ok', entries: parseEntries(answer.stdout) } : answer;
}

// `scope NUL origin NUL key LF value NUL`, a key set without a value having no LF.
function parseEntries(text: string): ConfigEntry[] {
  const fields = text.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const item = fields[i + 2] as string;
    const newline = item.indexOf('\n');
    entries.push({
      scope: fields[i] as string,
      origin: fields[i + 1] as string,
      key: newline === -1 ? item : item.slice(0, newline),
      value: newline === -1 ? null : item.slice(newline + 1),
    });
  }
  return entries;
}

async function gitDirOf(root: string): Promise<string> {
  const dotGit = path.join(root, '.git');
  const gitDir = (await gitFileTarget(dotGit)) ?? dotGit;
  return fs.realpath(gitDir).catch(() => gitDir);
}
