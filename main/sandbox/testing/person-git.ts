// Test helpers for the sandbox's git attacks: the person's own git, run later outside the sandbox (file-protocol
// submodules allowed, a fixed author), and a command the person approved, through `agenvoy tools call … --yes`.
import { execFileSync } from 'node:child_process';
import type { CliPlace } from '../../cli/testing/cli-harness';
import { runCli } from '../../cli/testing/cli-harness';

/** `git -c protocol.file.allow=always ARGS` in `cwd` with `home` as HOME; its stdout. */
export function personGit(home: string, cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: home,
      GIT_AUTHOR_NAME: 'n',
      GIT_AUTHOR_EMAIL: 'a@b',
      GIT_COMMITTER_NAME: 'n',
      GIT_COMMITTER_EMAIL: 'a@b',
    },
  });
}

/** `command` run by run_command as a person approved it, and its outcome. */
export async function approvedCommand(
  place: CliPlace,
  command: string,
): Promise<{ outcome: string; text: string }> {
  const run = await runCli(
    ['tools', 'call', 'run_command', JSON.stringify({ command }), '--yes', '--json'],
    place,
  );
  return JSON.parse(run.stdout) as { outcome: string; text: string };
}
