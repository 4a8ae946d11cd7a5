// `agenvoy tools list|search|lint|call`; lint and call load their modules when they run (docs/hosts.md, "Fast start").
import { parseArgs } from 'node:util';
import { policyGate } from '../core/gate-port';
import { headlessOffer } from '../agent/host-offers';
import { showEach, toolToJson, unlistableJson } from '../core/tool-json';
import type { CliIo } from './io';
import { UsageError } from './io';
import { terminalText } from './terminal-text';
import { formatToolTable } from './tool-table';
import { withCore } from './with-core';

/** Runs a `tools` sub-command; resolves to the exit status. */
export async function toolsCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list':
      return list(rest, io);
    case 'search':
      return search(rest, io);
    case 'lint':
      return (await import('./tools-call')).lint(rest, io);
    case 'call':
      return (await import('./tools-call')).call(rest, io);
    default:
      throw new UsageError(`unknown tools command "${sub ?? ''}": use list, search, lint or call`);
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
    // With an embedding model configured, a one-shot search first lets the tools be embedded (or read from the cache),
    // within a bound; without one, nothing waits and nothing is sent (docs/search.md, "Embeddings (optional)").
    await settleWithin(core.catalog.settleEmbeddings(), SETTLE_EMBEDDINGS_MS);
    const { hits: found, note } = await core.catalog.searchAsync(query, limit);
    if (note) io.stderr(`${note}\n`);
    const hits = found.map(({ name, score, why, description, flags, timeoutMs }) => ({
      name,
      score: Number(score.toFixed(4)),
      why,
      description,
      flags,
      timeoutMs,
    }));
    if (values.json) io.stdout(JSON.stringify(hits, null, 2) + '\n');
    else if (hits.length === 0) io.stdout(terminalText(`no tool matched "${query}"\n`));
    else
      io.stdout(
        // A description is a repository's or a server's text: shown with its control characters escaped.
        terminalText(
          hits
            .map(
              (h, i) =>
                `${i + 1}. ${h.name}  (${h.score})\n   ${h.description.split('\n')[0]}\n   why: ${h.why ?? ''}\n`,
            )
            .join(''),
        ),
      );
    return 0;
  });
}

/** How long `tools search` waits for the tools' embeddings before it ranks with what it has. */
const SETTLE_EMBEDDINGS_MS = 30_000;

async function settleWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
