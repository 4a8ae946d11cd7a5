// `agenvoy tools lint` and `agenvoy tools call`: loaded only when one of them runs (docs/hosts.md, "Fast start").
import path from 'node:path';
import { parseArgs } from 'node:util';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import { readLimits } from '../settings/limits';
import { outcomeText } from '../core/outcome';
import type { CliIo } from './io';
import { UsageError } from './io';
import { readArgumentInput } from './argument-input';
import { lintFindings, printFindings } from './lint-report';
import { cliGate } from './terminal-approval';
import { callFailed, outcomeLine } from './human-text';
import { terminalText } from './terminal-text';
import { policyGate } from '../core/gate-port';
import { withCore } from './with-core';

/** `tools lint [--dir DIR] [--json]`. */
export async function lint(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, dir: { type: 'string' } },
  });
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    const findings = await lintFindings(core, values.dir ? path.resolve(io.cwd, values.dir) : null);
    printFindings(findings, Boolean(values.json), io);
    return findings.some((f) => f.source === 'builtin' && f.level === 'error') ? 1 : 0;
  });
}

export async function call(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, yes: { type: 'boolean' }, workspace: { type: 'string' } },
  });
  const [name, rawArgs = '{}'] = positionals;
  if (!name)
    throw new UsageError(
      "tools call needs a tool name: agenvoy tools call <name> ['<json-args>' | - | @file]",
    );
  const workspace = path.resolve(io.cwd, values.workspace ?? '.');
  // `-` reads standard input and `@FILE` a file; past the limit the call is refused by the dispatcher, unread.
  const input = await readArgumentInput(rawArgs, {
    stdin: io.stdin,
    cwd: io.cwd,
    limit: readLimits(agenvoyPaths(agenvoyHome(io.env)).settings).limits.toolArgumentsBytes,
  });
  const request = 'args' in input ? { args: input.args } : { args: '', tooLarge: input.tooLarge };
  return withCore(io, cliGate(io, values.yes ? 'allow' : 'ask', '--yes', true), workspace, async (core) => {
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    try {
      const outcome = await core.dispatcher.dispatch(
        { id: 'cli_1', name, ...request },
        { chatId: 'cli', workspace, signal: controller.signal },
      );
      // A tool's text (an MCP server's, a script's) is shown with its control characters as escapes, as `agenvoy
      // chat` shows it: it could set the clipboard or hide what follows (docs/security.md, "What the person sees").
      // --json escapes them by being JSON.
      if (values.json) io.stdout(JSON.stringify(outcome) + '\n');
      else if (outcome.outcome === 'ok') {
        const text = terminalText(outcome.text);
        io.stdout(text.endsWith('\n') ? text : text + '\n');
      } else
        io.stderr(
          terminalText(
            outcomeLine(
              outcome.outcome,
              outcomeText(outcome),
              outcome.outcome === 'error' ? outcome.code : undefined,
            ),
          ) + '\n',
        );
      // A command that ran and failed is an ok outcome for the model, but a failure for the shell that called us.
      return callFailed(outcome) ? 1 : 0;
    } finally {
      process.off('SIGINT', onSigint);
    }
  });
}
