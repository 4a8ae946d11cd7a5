// Pass-1 work for one call: clean the name, unwrap run_tool, find the tool, validate arguments, load a lazy schema.
import type { CallApproval } from '../../tools/sdk/types';
import type { RegisteredTool, ToolRegistry } from './registry';
import type { LoadedSchemas } from './loaded-schemas';
import type { CallOutcome } from './outcome';
import { errorOutcome } from './outcome';
import { dropNullOptionals } from './null-optionals';
import { brokenMessage } from './tool-broken';
import type { ArgumentValidator } from './validate';
import { stableStringify } from './stable-json';
import type { TooLarge } from './argument-size';
import {
  argumentBytes,
  argumentsTooLargeMessage,
  effectiveLimit,
  MAX_ARGUMENT_DEPTH,
  nestedDeeperThan,
} from './argument-size';

/** A tool call as the model (or the CLI) made it; `args` may still be a JSON string. */
export interface CallRequest {
  id: string;
  name: string;
  args: unknown;
  /** Set when the arguments were dropped upstream for their size (a streamed call past the limit). */
  tooLarge?: TooLarge;
}

/** A call ready to be approved and run, or one already answered without running. */
export type PreparedCall =
  | {
      kind: 'ready';
      id: string;
      name: string;
      args: Record<string, unknown>;
      tool: RegisteredTool;
      viaRunTool: boolean;
      /** How it was approved; set by Dispatcher.approve (absent: it never was, and counts as a policy's allow). */
      approval?: CallApproval;
    }
  | {
      kind: 'done';
      id: string;
      name: string;
      outcome: CallOutcome;
      /** The arguments as the model sent them (run_tool's inner ones), when they parsed; shown on the call's card. */
      args?: Record<string, unknown>;
    };

/** What preparation needs from the core. */
export interface PrepareDeps {
  registry: ToolRegistry;
  validator: ArgumentValidator;
  /** Names close to an unknown one, for the error message. */
  suggest?: (name: string) => string[];
  /** The per-call limit on arguments in bytes (settings.json `limits.toolArgumentsBytes`); default 1 MiB. */
  argumentLimitBytes?: () => number;
}

/**
 * Lazy exposure of one chat (docs/tools.md, "Tool discovery"): a call to a tool it has not loaded loads the schema;
 * with valid arguments it goes on in the same round, with invalid ones it is answered with the schema instead of run.
 */
export interface LazyScope {
  chatId: string;
  schemas: LoadedSchemas;
}

/** Prepares one call; never throws on bad model output. */
export function prepareCall(
  call: CallRequest,
  deps: PrepareDeps,
  lazy: LazyScope | null,
  offered?: (tool: RegisteredTool) => boolean,
): PreparedCall {
  let name = cleanToolName(call.name, deps.registry);
  const oversized = sizeCheck(call, deps);
  if (oversized) return done(call.id, name, oversized);
  const parsed = parseArgs(call.args);
  if (!parsed.ok)
    return done(
      call.id,
      name,
      errorOutcome('invalid_arguments', `invalid arguments for ${name}: ${parsed.message}`),
    );
  let args = parsed.value;
  let viaRunTool = false;
  if (name === 'run_tool') {
    const inner = unwrapRunTool(args, deps.registry);
    if (!inner.ok)
      return done(
        call.id,
        name,
        errorOutcome('invalid_arguments', `invalid arguments for run_tool: ${inner.message}`),
        args,
      );
    ({ name, args } = inner);
    viaRunTool = true;
  }
  const sent = args;
  const tool = deps.registry.get(name);
  const broken = tool ? undefined : deps.registry.entry(name)?.broken;
  if (broken) return done(call.id, name, errorOutcome('broken_tool', brokenMessage(name, broken)), sent);
  if (!tool) {
    // Only tools this host offers are suggested: a headless chat is never pointed at a background tool.
    const near = (deps.suggest?.(name) ?? []).filter((other) => {
      const found = deps.registry.get(other);
      return !offered || (found !== undefined && offered(found));
    });
    const hint = near.length > 0 ? ` Did you mean ${near.join(', ')}?` : '';
    return done(
      call.id,
      name,
      errorOutcome('unknown_tool', `unknown tool "${name}".${hint} Use find_tools to search for tools.`),
      sent,
    );
  }
  if (offered && !offered(tool)) {
    return done(
      call.id,
      name,
      errorOutcome('not_offered', `${name} is not available here; use another tool or answer without it`),
      sent,
    );
  }
  // A null for an optional argument means "not given" (docs/robustness.md): dropped before Ajv and the handler.
  args = dropNullOptionals(tool.spec.parameters, args);
  const valid = deps.validator.validate(name, tool.spec.parameters, args);
  // Loaded either way: valid arguments go on in this round, invalid ones get the schema to try again with.
  const unloaded = lazy !== null && !lazy.schemas.has(lazy.chatId, name);
  if (unloaded) lazy.schemas.load(lazy.chatId, [name]);
  if (!valid.ok)
    return done(
      call.id,
      name,
      unloaded
        ? notLoadedOutcome(name, tool, valid.message)
        : errorOutcome('invalid_arguments', valid.message),
      sent,
    );
  return { kind: 'ready', id: call.id, name, args, tool, viaRunTool };
}

const PLAIN_NAME = /^[A-Za-z0-9_-]+$/;

/** Strips what models wrap names in (`functions.`, quotes, spaces) and fixes the case when that is unambiguous. */
export function cleanToolName(raw: string, registry: ToolRegistry): string {
  // The common case, a registered name sent as is: nothing to strip (no space, quote, `.` or `:`), so no regex runs.
  if (typeof raw === 'string' && PLAIN_NAME.test(raw) && registry.get(raw)) return raw;
  let name = String(raw ?? '')
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .trim();
  const namespaced = /^(?:functions|function|tools|default_api)[.:](.+)$/.exec(name);
  if (namespaced?.[1]) name = namespaced[1];
  if (registry.get(name)) return name;
  const lower = name.toLowerCase();
  const matches = registry.all().filter((t) => t.spec.name.toLowerCase() === lower);
  return matches.length === 1 && matches[0] ? matches[0].spec.name : name;
}

// Before any parsing: arguments past the limit are refused by their size alone, and never looked into.
function sizeCheck(call: CallRequest, deps: PrepareDeps): CallOutcome | null {
  // Dropped upstream (a streamed call past the cap): only its size is left to report.
  if (call.tooLarge) return errorOutcome('arguments_too_large', argumentsTooLargeMessage(call.tooLarge));
  const limit = effectiveLimit(deps.argumentLimitBytes?.());
  const bytes = argumentBytes(call.args);
  if (bytes === null)
    return errorOutcome('invalid_arguments', 'invalid arguments: they cannot be written as JSON');
  if (bytes <= limit) return null;
  return errorOutcome('arguments_too_large', argumentsTooLargeMessage({ bytes, limit }));
}

function parseArgs(
  raw: unknown,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  let value = raw;
  if (value === undefined || value === null || value === '') return { ok: true, value: {} };
  if (typeof value === 'string') {
    // Parsed at any depth, but written back recursively everywhere after (events, the call's row, the tool).
    if (nestedDeeperThan(value, MAX_ARGUMENT_DEPTH)) {
      return { ok: false, message: `arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels` };
    }
    try {
      value = JSON.parse(value);
    } catch (error) {
      return { ok: false, message: `arguments are not valid JSON (${(error as Error).message})` };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'arguments must be a JSON object' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

function unwrapRunTool(
  args: Record<string, unknown>,
  registry: ToolRegistry,
): { ok: true; name: string; args: Record<string, unknown> } | { ok: false; message: string } {
  if (typeof args.name !== 'string' || args.name.trim() === '') {
    return { ok: false, message: 'missing required field `name` (the tool to run)' };
  }
  const name = cleanToolName(args.name, registry);
  if (name === 'run_tool') return { ok: false, message: '`name` cannot be run_tool itself' };
  const inner = parseArgs(args.args);
  if (!inner.ok) return { ok: false, message: `\`args\` ${inner.message}` };
  return { ok: true, name, args: inner.value };
}

// The answer to invalid arguments for a tool whose schema the model had not seen: the schema, to call again with.
function notLoadedOutcome(name: string, tool: RegisteredTool, problem: string): CallOutcome {
  return errorOutcome(
    'not_loaded',
    `${name} was not run: its schema was not loaded in this chat and the arguments do not match it (${problem}). ` +
      `It is loaded now; call ${name} again with arguments that match this schema: ` +
      stableStringify(tool.spec.parameters),
  );
}

function done(id: string, name: string, outcome: CallOutcome, args?: Record<string, unknown>): PreparedCall {
  return args === undefined ? { kind: 'done', id, name, outcome } : { kind: 'done', id, name, outcome, args };
}
