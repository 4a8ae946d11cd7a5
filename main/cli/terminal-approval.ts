// The CLI's confirm gate: --yes allows, a terminal asks through the TerminalPrompter, otherwise only rules can allow.
import type { ConfirmGate } from '../gate/confirm-gate';
import { HEADLESS_APPROVAL_TIMEOUT_MS } from '../gate/confirm-gate';
import { approvalTimeoutFromEnv, createConfirmGate } from '../gate/create-gate';
import { TerminalPrompter } from '../gate/terminal-prompter';
import { agenvoyHome } from '../core/paths';
import type { CliIo } from './io';

/** A gate for CLI commands over $AGENVOY_HOME's rules: --yes allows, a terminal asks, otherwise deny unless a rule allows. */
export function cliGate(io: CliIo, yes: boolean): ConfirmGate {
  const interactive = io.interactive && !yes;
  return createConfirmGate({
    home: agenvoyHome(io.env),
    env: io.env,
    policy: yes ? 'allow' : 'ask',
    prompter: interactive
      ? new TerminalPrompter({
          input: io.stdin,
          write: io.stderr,
          echo: io.stdin === process.stdin ? process.stderr : undefined,
        })
      : null,
    timeoutMs: approvalTimeoutFromEnv(io.env, HEADLESS_APPROVAL_TIMEOUT_MS),
    unattendedMessage: (request, sensitive) =>
      `denied: ${request.tool} needs approval${sensitive ? ` (it touches ${sensitive}, which always asks)` : ''} and there is no terminal to ask; ` +
      (sensitive
        ? 'pass --yes to allow it'
        : `pass --yes to allow it, or add a rule: agenvoy rules add --tool ${request.tool} --allow`),
  });
}
