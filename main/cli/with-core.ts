// Opens the app's tools (no chat) for one CLI command and closes it when the command is done.
import type { Core } from '../app';
import { openRuntime } from '../runtime';
import { sandboxUnavailableNote } from '../host/sandbox-status';
import { sensitiveOptions } from '../gate/sensitive-paths';
import { agenvoyHome } from '../core/paths';
import { TerminalSecretPrompt } from '../secrets/terminal-prompt';
import type { ApprovalGate } from '../core/gate-port';
import type { CliIo } from './io';

/** Runs `run` over a core opened in `workspace` with `gate`; the core is closed after, whatever happens. */
export async function withCore<T>(
  io: CliIo,
  gate: ApprovalGate,
  workspace: string,
  run: (core: Core) => Promise<T>,
): Promise<T> {
  const runtime = await openRuntime({
    home: agenvoyHome(io.env),
    workspace,
    // store_secret and auto-heal ask on the terminal when there is one.
    prompts: () => ({
      gate,
      ...(io.interactive ? { secretPrompt: new TerminalSecretPrompt(io.stdin as never, io.stderr) } : {}),
      onSandboxUnavailable: (reason: string) => io.stderr(sandboxUnavailableNote(reason)),
    }),
    homes: sensitiveOptions(agenvoyHome(io.env), io.env).homes,
  });
  try {
    return await run(runtime.core);
  } finally {
    await runtime.close();
  }
}
