// Asks for approval on the terminal (stderr + stdin); without a terminal the call is denied with a clear message.
import readline from 'node:readline';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from '../core/gate-port';
import { policyGate } from '../core/gate-port';
import type { CliIo } from './io';

/** A gate for CLI commands: --yes allows, a terminal asks, otherwise deny. */
export function cliGate(io: CliIo, yes: boolean): ApprovalGate {
  if (yes) return policyGate('allow');
  if (!io.interactive) {
    return policyGate((request) => ({
      kind: 'deny',
      message: `denied: ${request.tool} needs approval and there is no terminal to ask; pass --yes to allow it`,
    }));
  }
  return policyGate((request) => askOnTerminal(request, io));
}

/** Shows one request and reads the answer: y = allow once, n = deny (with an optional reason), s = stop. */
export async function askOnTerminal(request: ApprovalRequest, io: CliIo): Promise<ApprovalDecision> {
  io.stderr(describeRequest(request));
  const rl = readline.createInterface({ input: io.stdin, output: process.stderr, terminal: true });
  try {
    const answer = (await question(rl, 'Allow? [y]es once / [n]o / [s]top: ')).trim().toLowerCase();
    if (answer === 'y' || answer === 'yes') return { kind: 'allow', scope: 'once' };
    if (answer === 's' || answer === 'stop') return { kind: 'stop' };
    const reason = (await question(rl, 'Reason for the model (optional): ')).trim();
    return reason ? { kind: 'deny', reason } : { kind: 'deny' };
  } finally {
    rl.close();
  }
}

/** The text shown for a request: tool, source, flags, limit and the full arguments. */
export function describeRequest(request: ApprovalRequest): string {
  const source =
    request.source.kind === 'builtin'
      ? 'built-in'
      : request.source.kind === 'script'
        ? `script folder ${request.source.dir}`
        : `MCP server ${request.source.server}`;
  const flags = Object.entries(request.flags)
    .filter(([, on]) => on)
    .map(([flag]) => flag);
  const limit = request.timeoutMs === null ? 'no limit' : `${request.timeoutMs / 1000} s`;
  return (
    `\nApprove tool call ${request.tool}\n` +
    `  source:  ${source}\n` +
    `  flags:   ${flags.length > 0 ? flags.join(', ') : 'none'}\n` +
    `  limit:   ${limit}\n` +
    `  args:    ${JSON.stringify(request.args, null, 2).replace(/\n/g, '\n           ')}\n`
  );
}

function question(rl: readline.Interface, prompt: string): Promise<string> {
  return new Promise((resolve) => rl.question(prompt, resolve));
}
