// A registered tool in the JSON shape of docs/tools.md ("How a tool is shown"; CLI output, IPC), and the lighter views find_tools returns.
import type { ToolSchemaView, ToolSource, ToolSpec, ToolSummary } from '../../tools/sdk/types';
import { NO_TOOL_TIMEOUT } from '../../tools/sdk/types';
import type { LintFinding } from './lint/types';
import type { RegisteredTool, ToolRegistry } from './registry';
import type { ToolBroken } from './tool-broken';
import { sourceOrigin } from './tool-origin';

/** The JSON shape of a tool (docs/tools.md, "How a tool is shown"). */
export interface ToolJson {
  name: string;
  source: ToolSource['kind'];
  origin: string | null;
  description: string;
  flags: ToolSpec['flags'];
  timeoutMs: number | null;
  /**
   * Background tools only: the limit their task runs under by default (the call's `timeout_min` sets it); their own
   * registration keeps `timeoutMs`, since the start returns at once.
   */
  taskTimeoutMs?: number;
  lint: LintFinding[];
  /** Script tools only: false for a workspace tool of a folder the person has not trusted. */
  trusted?: boolean;
  /** Script tools only: the folders it may write besides the workspace. */
  writable?: string[];
  /** What the loader noticed but did not stop on (unknown tool.json keys); absent when nothing. */
  warnings?: string[];
  /** Present on a broken tool: the step that failed and why; it is never offered and cannot be called. */
  broken?: ToolBroken;
}

/** `timeoutMs` as JSON shows it: null for no limit. */
export function timeoutJson(timeoutMs: number): number | null {
  return timeoutMs === NO_TOOL_TIMEOUT || !Number.isFinite(timeoutMs) ? null : timeoutMs;
}

/** A registered tool in the JSON shape of docs/tools.md, "How a tool is shown". */
export function toolToJson(tool: RegisteredTool): ToolJson {
  const { spec } = tool;
  return {
    name: spec.name,
    source: spec.source.kind,
    origin: sourceOrigin(spec.source),
    description: spec.description,
    flags: { ...spec.flags },
    timeoutMs: timeoutJson(spec.timeoutMs),
    ...(spec.flags.background && spec.taskLimitMs ? { taskTimeoutMs: spec.taskLimitMs({}) } : {}),
    lint: tool.lint,
    ...(spec.source.kind === 'script'
      ? { trusted: spec.source.trusted, writable: [...spec.source.writable] }
      : {}),
    ...(tool.warnings && tool.warnings.length > 0 ? { warnings: [...tool.warnings] } : {}),
    ...(tool.broken ? { broken: { ...tool.broken } } : {}),
  };
}

/**
 * Each tool as `show` presents it, one at a time (listing is a per-tool step): a tool `show` throws on is presented
 * by `fallback` instead and marked broken at the `list` step, so one bad tool never fails the whole listing.
 */
export function showEach<T>(
  registry: Pick<ToolRegistry, 'markBroken'>,
  tools: readonly RegisteredTool[],
  show: (tool: RegisteredTool) => T,
  fallback: (tool: RegisteredTool, error: unknown) => T,
): T[] {
  return tools.map((tool) => {
    try {
      return show(tool);
    } catch (error) {
      registry.markBroken(String(tool.spec?.name), 'list', error);
      return fallback(tool, error);
    }
  });
}

/** The least that can be said of a tool that could not be listed. */
export function unlistableJson(tool: RegisteredTool, error: unknown): ToolJson {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    name: String(tool.spec?.name),
    source: tool.spec?.source?.kind ?? 'builtin',
    origin: null,
    description: '',
    flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
    timeoutMs: null,
    lint: [],
    broken: { step: 'list', reason: reason.slice(0, 500) },
  };
}

/** A registered tool as a summary (no lint). */
export function toolSummary(tool: RegisteredTool): ToolSummary {
  return {
    name: tool.spec.name,
    description: tool.spec.description,
    source: tool.spec.source.kind,
    flags: { ...tool.spec.flags },
    timeoutMs: timeoutJson(tool.spec.timeoutMs),
  };
}

/** A registered tool with its schema. */
export function toolSchemaView(tool: RegisteredTool): ToolSchemaView {
  return { ...toolSummary(tool), parameters: tool.spec.parameters };
}
