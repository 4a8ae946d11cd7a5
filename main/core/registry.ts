// The tool registry: one name → one tool, no silent shadowing across sources, every register returns its undo.
import type { JsonSchema, ToolSource, ToolSpec, ToolSummary, ToolSchemaView } from '../../tools/types';
import { NO_TOOL_TIMEOUT } from '../../tools/types';
import { Emitter } from './emitter';
import type { LintFinding, LintInput } from './lint/types';
import { shortHash, stableStringify } from './stable-json';

/** A tool in the registry, with what the registry derived from it. */
export interface RegisteredTool {
  spec: ToolSpec;
  /** Design-rule findings, for the author's own name. */
  lint: LintFinding[];
  /** Hash of description + parameters: approvals are tied to it. */
  definitionHash: string;
}

/** The JSON shape of a tool (SPEC §2). */
export interface ToolJson {
  name: string;
  source: ToolSource['kind'];
  origin: string | null;
  description: string;
  flags: ToolSpec['flags'];
  timeoutMs: number | null;
  lint: LintFinding[];
}

/** A change to the registry, for indexes and UIs that mirror it. */
export type RegistryChange =
  | { type: 'added'; tool: RegisteredTool }
  | { type: 'removed'; tool: RegisteredTool }
  | { type: 'replaced'; tool: RegisteredTool; previous: RegisteredTool };

/** Thrown when a name is already taken by another source: an MCP server must never replace a built-in. */
export class RegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistrationError';
  }
}

/** `lintTool` as the registry needs it. */
export type LintFunction = (input: LintInput) => LintFinding[];

/** Registry of every tool the host offers. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly changes = new Emitter<RegistryChange>();

  constructor(private readonly lint: LintFunction) {}

  /** Adds a tool; refuses a name another source holds; returns the undo. */
  register(spec: ToolSpec): () => void {
    const existing = this.tools.get(spec.name);
    if (existing && !sameSource(existing.spec.source, spec.source)) {
      throw new RegistrationError(
        `tool name "${spec.name}" is already registered by ${describeSource(existing.spec.source)}; ` +
          `refusing the one from ${describeSource(spec.source)}`,
      );
    }
    const entry: RegisteredTool = {
      spec,
      lint: this.lint({ name: authorName(spec), description: spec.description, parameters: spec.parameters }),
      definitionHash: definitionHash(spec.description, spec.parameters),
    };
    this.tools.set(spec.name, entry);
    this.changes.emit(
      existing ? { type: 'replaced', tool: entry, previous: existing } : { type: 'added', tool: entry },
    );
    return () => {
      if (this.tools.get(spec.name) !== entry) return;
      this.tools.delete(spec.name);
      this.changes.emit({ type: 'removed', tool: entry });
    };
  }

  /** The tool of that exact name. */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** Every tool, sorted by name. */
  all(): RegisteredTool[] {
    return [...this.tools.values()].sort((a, b) => a.spec.name.localeCompare(b.spec.name));
  }

  /** How many tools are registered. */
  get size(): number {
    return this.tools.size;
  }

  /** Subscribes to changes; returns the unsubscribe. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    return this.changes.on(listener);
  }
}

/** Hash of what an approval is tied to: description and schema. */
export function definitionHash(description: string, parameters: JsonSchema): string {
  return shortHash(stableStringify({ description, parameters }));
}

/** The name the author chose: without `script_` or `mcp__server__`. */
export function authorName(spec: Pick<ToolSpec, 'name' | 'source'>): string {
  switch (spec.source.kind) {
    case 'builtin':
      return spec.name;
    case 'script':
      return spec.name.replace(/^script_/, '');
    case 'mcp':
      return spec.source.remoteName;
  }
}

/** The folder or server a tool comes from, or null for built-ins. */
export function sourceOrigin(source: ToolSource): string | null {
  switch (source.kind) {
    case 'builtin':
      return null;
    case 'script':
      return source.dir;
    case 'mcp':
      return source.server;
  }
}

function sameSource(a: ToolSource, b: ToolSource): boolean {
  return a.kind === b.kind && sourceOrigin(a) === sourceOrigin(b);
}

function describeSource(source: ToolSource): string {
  switch (source.kind) {
    case 'builtin':
      return 'a built-in tool';
    case 'script':
      return `the script folder ${source.dir}`;
    case 'mcp':
      return `the MCP server "${source.server}"`;
  }
}

/** `timeoutMs` as JSON shows it: null for no limit. */
export function timeoutJson(timeoutMs: number): number | null {
  return timeoutMs === NO_TOOL_TIMEOUT || !Number.isFinite(timeoutMs) ? null : timeoutMs;
}

/** A registered tool in the JSON shape of SPEC §2. */
export function toolToJson(tool: RegisteredTool): ToolJson {
  const { spec } = tool;
  return {
    name: spec.name,
    source: spec.source.kind,
    origin: sourceOrigin(spec.source),
    description: spec.description,
    flags: { ...spec.flags },
    timeoutMs: timeoutJson(spec.timeoutMs),
    lint: tool.lint,
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
