// The ground the attack tests stand on: a temp folder with a workspace that is a real git repository, a fake home
// with real secrets in it, a victim file outside the workspace, and a gate fixture whose run_command is real.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostileRepo } from '../../../tools/sdk/testing/hostile-repo';
import { hostileRepo } from '../../../tools/sdk/testing/hostile-repo';
import type { CallOutcome } from '../../core/outcome';
import type { ApprovalPrompter } from '../prompter-port';
import { gateFixture } from './gate-fixture';

/** An attack ground: paths, the repository, the fixture, and how to call a tool in the workspace. */
export interface AttackGround {
  base: string;
  workspace: string;
  home: string;
  /** A file outside the workspace that no attack may create or change. */
  victim: string;
  repo: HostileRepo;
  fx: ReturnType<typeof gateFixture>;
  /** Calls `tool` (run_command by default) in the workspace; returns the outcome. */
  call(args: Record<string, unknown>, tool?: string): Promise<CallOutcome>;
}

/** Builds a ground; `config` goes into the workspace repository's own config (see hostileRepo). */
export function attackGround(
  options: {
    prompter?: ApprovalPrompter | null;
    config?: Record<string, string>;
    sandbox?: 'sandboxed' | 'none';
  } = {},
): AttackGround {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-attack-')));
  const workspace = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const secrets: Array<[string, string]> = [
    ['.ssh/id_rsa', 'PRIVATE KEY'],
    ['.ssh/id_ed25519', 'PRIVATE KEY'],
    ['.ssh/config', 'Host *'],
    ['.aws/credentials', 'aws_secret_access_key=x'],
    ['.gnupg/pubring.kbx', 'x'],
    ['.bashrc', 'original'],
  ];
  for (const [file, text] of secrets) {
    fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
    fs.writeFileSync(path.join(home, file), text);
  }
  const repo = hostileRepo(base, workspace, options.config ?? {});
  const fx = gateFixture({
    prompter: options.prompter ?? null,
    sandbox: options.sandbox ?? 'sandboxed',
    realCommands: true,
    homes: [home],
  });
  let id = 0;
  return {
    base,
    workspace,
    home,
    victim: path.join(base, 'victim'),
    repo,
    fx,
    call: (args, tool = 'run_command') =>
      fx.dispatcher.dispatch({ id: `c${++id}`, name: tool, args }, { chatId: 'chat-attack', workspace }),
  };
}

/** The text of an outcome: what the model reads. */
export function outcomeText(outcome: CallOutcome): string {
  return outcome.outcome === 'ok' ? outcome.text : outcome.message;
}
