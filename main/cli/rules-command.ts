// `agenvoy rules list|add|revoke`: the persisted approval rules (and the shipped defaults) of docs/security.md, "Decisions and rules".
import { parseArgs } from 'node:util';
import type { Core } from '../app';
import { openRuntime } from '../runtime';
import { policyGate } from '../core/gate-port';
import { agenvoyHome } from '../core/paths';
import { ruleBookFor } from '../gate/create-gate';
import { matchGlob } from '../gate/glob';
import type { RuleView } from '../gate/rule-types';
import type { CliIo } from './io';
import { UsageError } from './io';
import { terminalText } from './terminal-text';

/** Runs a `rules` sub-command; resolves to the exit status. */
export async function rulesCommand(argv: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list':
      return list(rest, io);
    case 'add':
      return add(rest, io);
    case 'revoke':
      return revoke(rest, io);
    default:
      throw new UsageError(`unknown rules command "${sub ?? ''}": use list, add or revoke`);
  }
}

// The registry tells which rules a changed tool definition voids, and which definitions a new rule approves.
async function withRegistry<T>(io: CliIo, run: (core: Core) => Promise<T>): Promise<T> {
  const runtime = await openRuntime({
    home: agenvoyHome(io.env),
    workspace: io.cwd,
    prompts: () => ({ gate: policyGate('deny') }),
  });
  try {
    return await run(runtime.core);
  } finally {
    await runtime.close();
  }
}

async function list(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  const book = ruleBookFor(agenvoyHome(io.env));
  const rules = await withRegistry(io, (core) =>
    book.list((tool) => core.registry.get(tool)?.definitionHash),
  );
  io.stdout(values.json ? JSON.stringify(rules, null, 2) + '\n' : formatRules(rules));
  return 0;
}

async function add(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      tool: { type: 'string' },
      pattern: { type: 'string' },
      except: { type: 'string', multiple: true },
      secret: { type: 'string', multiple: true },
      allow: { type: 'boolean' },
      deny: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (!values.tool) throw new UsageError('rules add needs --tool GLOB');
  if (Boolean(values.allow) === Boolean(values.deny))
    throw new UsageError('rules add needs exactly one of --allow or --deny');
  const tool = values.tool;
  // A rule sends only the stored secrets it names (docs/security.md, "Data leaving the machine"), and only to the
  // address its pattern names.
  const secrets = values.secret ?? [];
  const badSecret = secrets.find((name) => !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name));
  if (badSecret !== undefined)
    throw new UsageError(`--secret takes a secret's name, not "${terminalText(badSecret)}"`);
  if (secrets.length > 0 && !values.allow) throw new UsageError('--secret goes with --allow');
  const book = ruleBookFor(agenvoyHome(io.env));
  // The rule approves the definitions registered now; a matching tool that appears later is bound when first met.
  const definitions = await withRegistry(io, async (core) =>
    Object.fromEntries(
      core.registry
        .all()
        .filter((t) => matchGlob(tool, t.spec.name))
        // An untrusted workspace tool is never bound from here: the rule is meant for the tools the person trusts.
        .filter((t) => t.spec.source.kind !== 'script' || t.spec.source.trusted)
        .map((t) => [t.spec.name, t.definitionHash]),
    ),
  );
  const rule = await book.add({
    tool,
    pattern: values.pattern ?? null,
    except: values.except ?? [],
    effect: values.allow ? 'allow' : 'deny',
    definitions,
    ...(secrets.length > 0 ? { secrets } : {}),
  });
  io.stdout(
    values.json
      ? JSON.stringify(rule, null, 2) + '\n'
      : `added ${rule.id}: always ${rule.effect} ${describeRule(rule)}\n`,
  );
  return 0;
}

async function revoke(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const [id] = positionals;
  if (!id) throw new UsageError('rules revoke needs a rule id (see agenvoy rules list)');
  const result = await ruleBookFor(agenvoyHome(io.env)).revoke(id);
  switch (result.kind) {
    case 'revoked':
      io.stdout(
        values.json
          ? JSON.stringify(result.rule, null, 2) + '\n'
          : `revoked ${result.rule.id}: ${result.rule.effect} ${describeRule(result.rule)}\n`,
      );
      return 0;
    case 'not_found':
      io.stderr(`agenvoy: no rule ${id} in force (see agenvoy rules list)\n`);
      return 1;
  }
}

function describeRule(rule: RuleView): string {
  const except = rule.except.length > 0 ? ` except ${rule.except.map((glob) => `"${glob}"`).join(', ')}` : '';
  // A pattern may be a model's command line, saved by an "always" answer: shown with its controls escaped.
  return terminalText(
    `${rule.tool}${rule.pattern === null ? ' (any arguments)' : ` "${rule.pattern}"`}${except}`,
  );
}

/** Plain-text table of rules. */
export function formatRules(rules: RuleView[]): string {
  if (rules.length === 0) return 'no rules: every call that is not alwaysAllow asks\n';
  const rows = rules.map((rule) => [
    rule.id,
    rule.origin,
    rule.effect,
    rule.tool,
    rule.pattern ?? '(any)',
    rule.createdAt ? rule.createdAt.slice(0, 19).replace('T', ' ') : 'shipped',
    [
      rule.note ?? '',
      rule.except.length > 0 ? `except ${rule.except.join(' ')}` : '',
      rule.void ? `VOID: definition changed (${rule.changedTools.join(', ')}): asks again` : '',
    ]
      .filter(Boolean)
      .join('; '),
  ]);
  for (const row of rows) row.forEach((cell, i) => (row[i] = terminalText(cell)));
  const header = ['ID', 'ORIGIN', 'EFFECT', 'TOOL', 'PATTERN', 'CREATED', 'NOTES'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
