// `agenvoy tools list|search|lint|call`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Core } from '../app';
import { openRuntime } from '../runtime';
import { sandboxUnavailableNote } from '../host/sandbox-status';
import { sensitiveOptions } from '../gate/create-gate';
import { agenvoyHome, agenvoyPaths } from '../core/paths';
import { readLimits } from '../settings/limits';
import { TerminalSecretPrompt } from '../secrets/terminal-prompt';
import type { ApprovalGate } from '../core/gate-port';
import { policyGate } from '../core/gate-port';
import { outcomeText } from '../core/outcome';
import { headlessOffer } from '../agent/host-offers';
import { showEach, toolToJson, unlistableJson } from '../core/tool-json';
import type { CliIo } from './io';
import { UsageError } from './io';
import { readArgumentInput } from './argument-input';
import { lintFindings, printFindings } from './lint-report';
import { cliGate } from './terminal-approval';
import { formatToolTable } from './tool-table';
import { callFailed, outcomeLine } from './human-text';

/** Runs a `tools` sub-command; resolves to the exit status. */
export async function toolsCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list':
      return list(rest, io);
    case 'search':
      return search(rest, io);
    case 'lint':
      return lint(rest, io);
    case 'call':
      return call(rest, io);
    default:
      throw new UsageError(`unknown tools command "${sub ?? ''}": use list, search, lint or call`);
  }
}

async function withCore<T>(
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

async function list(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { json: { type: 'boolean' }, system: { type: 'boolean' } },
  });
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    // Broken tools are listed too, with the step and the reason (docs/robustness.md).
    const tools = showEach(
      core.registry,
      core.registry.listed().filter((t) => values.system || !t.spec.flags.systemUse),
      // The registry is the desktop app's; `agenvoy chat` leaves some tools out (docs/hosts.md, "What each host offers").
      (t) => ({ ...toolToJson(t), offeredHeadless: !t.broken && headlessOffer(t) }),
      (t, error) => ({ ...unlistableJson(t, error), offeredHeadless: false }),
    );
    io.stdout(values.json ? JSON.stringify(tools, null, 2) + '\n' : formatToolTable(tools));
    return 0;
  });
}

async function search(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, limit: { type: 'string', default: '10' } },
  });
  const query = positionals.join(' ').trim();
  if (!query) throw new UsageError('tools search needs a query');
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive whole number');
  return withCore(io, policyGate('deny'), io.cwd, async (core) => {
    const hits = core.catalog
      .search(query, limit)
      .map(({ name, score, why, description, flags, timeoutMs }) => ({
        name,
        score: Number(score.toFixed(4)),
        why,
        description,
        flags,
        timeoutMs,
      }));
    if (values.json) io.stdout(JSON.stringify(hits, null, 2) + '\n');
    else if (hits.length === 0) io.stdout(`no tool matched "${query}"\n`);
    else
      io.stdout(
        hits
          .map(
            (h, i) =>
              `${i + 1}. ${h.name}  (${h.score})\n   ${h.description.split('\n')[0]}\n   why: ${h.why ?? ''}\n`,
          )
          .join(''),
      );
    return 0;
  });
}

async function lint(argv: string[], io: CliIo): Promise<number> {
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

async function call(argv: string[], io: CliIo): Promise<number> {
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
      if (values.json) io.stdout(JSON.stringify(outcome) + '\n');
      else if (outcome.outcome === 'ok')
        io.stdout(outcome.text.endsWith('\n') ? outcome.text : outcome.text + '\n');
      else
        io.stderr(
          outcomeLine(
            outcome.outcome,
            outcomeText(outcome),
            outcome.outcome === 'error' ? outcome.code : undefined,
          ) + '\n',
        );
      // A command that ran and failed is an ok outcome for the model, but a failure for the shell that called us.
      return callFailed(outcome) ? 1 : 0;
    } finally {
      process.off('SIGINT', onSigint);
    }
  });
}
