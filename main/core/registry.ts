// The tool registry: one name → one tool, no silent shadowing across sources, every register returns its undo.
import fs from 'node:fs';
import path from 'node:path';
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
  /**
   * What approvals are tied to (docs/security.md): description and parameters, and where the tool comes from
   * (`<content hash>@<source hash>`), so a rule for one source never covers a look-alike from another.
   */
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
  /** Script tools only: false for a workspace tool of a folder the person has not trusted. */
  trusted?: boolean;
  /** Script tools only: the folders it may write besides the workspace. */
  writable?: string[];
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
    // Whoever registers it, an untrusted workspace tool is never alwaysAllow: each call asks (docs/security.md).
    const untrusted = spec.source.kind === 'script' && !spec.source.trusted;
    if (untrusted && spec.flags.alwaysAllow) spec = { ...spec, flags: { ...spec.flags, alwaysAllow: false } };
    const entry: RegisteredTool = {
      spec,
      lint: this.lint({ name: authorName(spec), description: spec.description, parameters: spec.parameters }),
      definitionHash: boundDefinitionHash(spec),
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

/** Hash of a tool's description and schema: the whole definition hash before approvals named the source. */
export function definitionHash(description: string, parameters: JsonSchema): string {
  return shortHash(stableStringify({ description, parameters }));
}

// Separates the content hash from the source hash; a hash without it was written before sources were bound.
const SOURCE_SEPARATOR = '@';

/** The definition hash approvals bind to: `<content hash>@<source hash>` (see RegisteredTool.definitionHash). */
export function boundDefinitionHash(spec: Pick<ToolSpec, 'description' | 'parameters' | 'source'>): string {
  const source = shortHash(stableStringify(sourceIdentity(spec.source)));
  return `${definitionHash(spec.description, spec.parameters)}${SOURCE_SEPARATOR}${source}`;
}

/**
 * The content part of a bound hash, when `approved` is an older hash without a source that this bound hash
 * carries (a rule saved before approvals named the source); null otherwise.
 */
export function legacyHashOf(bound: string, approved: string): string | null {
  if (approved.includes(SOURCE_SEPARATOR)) return null;
  const at = bound.indexOf(SOURCE_SEPARATOR);
  if (at <= 0) return null;
  return bound.slice(0, at) === approved ? approved : null;
}

/**
 * Where a tool comes from, as approvals see it: kind; for a script its scope, the realpath of its folder and the
 * folders it may write; for MCP the server. Two tools with one name and one definition but another origin differ.
 */
export function sourceIdentity(source: ToolSource): Record<string, unknown> {
  switch (source.kind) {
    case 'builtin':
      return { kind: 'builtin' };
    case 'script':
      return {
        kind: 'script',
        scope: source.scope,
        dir: realDir(source.dir),
        writable: [...source.writable],
      };
    case 'mcp':
      return { kind: 'mcp', server: source.server };
  }
}

// A folder behind a symlink is identified by where it really is; a folder that is gone by its resolved path.
function realDir(dir: string): string {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
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
    ...(spec.source.kind === 'script'
      ? { trusted: spec.source.trusted, writable: [...spec.source.writable] }
      : {}),
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
