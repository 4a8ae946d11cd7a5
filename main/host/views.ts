// Plain mappings from core records to the contract's views (no I/O); callers redact what they send.
import type {
  McpServerItem,
  OutcomeView,
  RuleItem,
  TaskItem,
  ToolSourceView,
  ToolView,
} from '../../preload/contract';
import type { TaskView, ToolSource } from '../../tools/sdk/types';
import type { McpServerView } from '../adapters/mcp/server-state';
import { headlessOffer } from '../agent/host-offers';
import type { CallOutcome } from '../core/outcome';
import type { RegisteredTool, ToolRegistry } from '../core/registry';
import { showEach, toolToJson, unlistableJson } from '../core/tool-json';
import type { RuleView } from '../gate/rule-types';
import { shownStrings, shownTaskText, shownText } from './shown-text';

/** A tool source as the contract shows it. */
export function sourceView(source: ToolSource): ToolSourceView {
  switch (source.kind) {
    case 'builtin':
      return { kind: 'builtin' };
    case 'script':
      return {
        kind: 'script',
        dir: source.dir,
        scope: source.scope,
        trusted: source.trusted,
        writable: [...source.writable],
      };
    case 'mcp':
      return { kind: 'mcp', server: source.server, remoteName: source.remoteName };
  }
}

/** Every tool for the Tools panel, broken ones included; a tool that cannot be shown is listed as broken. */
export function toolViews(registry: ToolRegistry): ToolView[] {
  // What a tool's author or an MCP server wrote is shown with its hidden characters as escapes (docs/security.md).
  return showEach(registry, registry.listed(), toolView, unlistableView)
    .map(shownStrings)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A registered tool in the JSON shape of docs/tools.md ("How a tool is shown"), with its headless mark, warnings and broken step. */
export function toolView(tool: RegisteredTool): ToolView {
  const json = toolToJson(tool);
  return {
    name: json.name,
    source: json.source,
    origin: json.origin,
    description: json.description,
    flags: { ...json.flags },
    timeoutMs: json.timeoutMs,
    lint: json.lint.map((finding) => ({
      code: finding.code,
      level: finding.level,
      message: finding.message,
    })),
    offeredHeadless: !tool.broken && headlessOffer(tool),
    ...(json.trusted === undefined ? {} : { trusted: json.trusted }),
    ...(json.writable === undefined ? {} : { writable: [...json.writable] }),
    ...(json.warnings === undefined ? {} : { warnings: [...json.warnings] }),
    ...(json.broken === undefined ? {} : { broken: { step: json.broken.step, reason: json.broken.reason } }),
  };
}

// A tool that could not be shown at all: its name and why, nothing else read from its definition.
function unlistableView(tool: RegisteredTool, error: unknown): ToolView {
  const json = unlistableJson(tool, error);
  return {
    name: json.name,
    source: json.source,
    origin: null,
    description: '',
    flags: { ...json.flags },
    timeoutMs: null,
    lint: [],
    offeredHeadless: false,
    broken: { step: 'list', reason: json.broken?.reason ?? '' },
  };
}

/** A call outcome without its raw content parts and data (the text is what the card shows). */
export function outcomeView(outcome: CallOutcome): OutcomeView {
  switch (outcome.outcome) {
    case 'ok':
      return { outcome: 'ok', text: shownText(outcome.text), durationMs: outcome.durationMs };
    case 'error':
      return {
        outcome: 'error',
        code: outcome.code,
        message: shownText(outcome.message),
        durationMs: outcome.durationMs,
        ...(outcome.credential ? { credential: { ...outcome.credential } } : {}),
      };
    case 'timed_out':
      return {
        outcome: 'timed_out',
        message: shownText(outcome.message),
        limitMs: Number.isFinite(outcome.limitMs) ? outcome.limitMs : null,
        durationMs: outcome.durationMs,
      };
    case 'cancelled':
      return { outcome: 'cancelled', message: shownText(outcome.message), durationMs: outcome.durationMs };
    case 'denied':
      return {
        outcome: 'denied',
        message: shownText(outcome.message),
        ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}),
      };
  }
}

/** A task with its chat. */
export function taskItem(task: TaskView, chatId: string): TaskItem {
  return {
    id: task.id,
    chatId,
    tool: task.tool,
    summary: shownText(task.summary),
    status: task.status,
    startedAt: task.startedAt,
    endedAt: task.endedAt,
    limitMs: task.limitMs !== null && Number.isFinite(task.limitMs) ? task.limitMs : null,
    outputTail: shownText(task.outputTail),
    result: task.result === null ? null : shownTaskText(task.result),
    error: task.error === null ? null : shownTaskText(task.error),
  };
}

/** An MCP server as the tools panel shows it. */
export function mcpItem(view: McpServerView): McpServerItem {
  // A state's reason and a warning may quote what the server sent (docs/security.md, "What the person sees"). The
  // name is the person's own key in mcp.json, and Reconnect sends it back as it is.
  return {
    name: view.name,
    ...shownStrings({
      endpoint: view.endpoint,
      state: { ...view.state },
      tools: [...view.tools],
      warnings: [...view.warnings],
      changed: [...view.changed],
    }),
  };
}

/** An approval rule as the rules list shows it. */
export function ruleItem(rule: RuleView): RuleItem {
  return {
    id: rule.id,
    origin: rule.origin,
    tool: rule.tool,
    // A pattern holds what a model once sent (docs/security.md, "What the person sees").
    pattern: rule.pattern === null ? null : shownText(rule.pattern),
    except: rule.except.map(shownText),
    effect: rule.effect,
    createdAt: rule.createdAt,
    void: rule.void,
    changedTools: [...rule.changedTools],
    note: rule.note,
  };
}
