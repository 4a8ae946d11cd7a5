// The tool registry: one name → one tool, no silent shadowing across sources, every register returns its undo.
// Each per-tool step runs guarded: a tool that fails one is kept as broken, and the others never notice.
import type { JsonSchema, ToolSpec } from '../../tools/sdk/types';
import { boundDefinitionHash } from './definition-hash';
import { Emitter } from './emitter';
import type { LintFinding, LintInput } from './lint/types';
import type { ToolBroken, ToolStep } from './tool-broken';
import { brokenBy, brokenSpec, definitionProblem } from './tool-broken';
import { authorName, describeSource, sameSource } from './tool-origin';

export { boundDefinitionHash, definitionHash, legacyHashOf, sourceIdentity } from './definition-hash';
export { authorName, sourceOrigin } from './tool-origin';
export type { ToolBroken, ToolStep } from './tool-broken';
export type { ToolJson } from './tool-json';
export { timeoutJson, toolSchemaView, toolSummary, toolToJson } from './tool-json';

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
  /** What the loader noticed but did not stop on, e.g. unknown tool.json keys; shown with the tool. */
  warnings?: string[];
  /** Set when a per-tool step failed: listed with it, never offered, and a call to it fails naming it. */
  broken?: ToolBroken;
}

/** A change to the registry, for indexes and UIs that mirror it (a broken tool's entry has `broken` set). */
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

/** Why a parameter schema cannot be compiled for validation, or null when it can (ArgumentValidator.check). */
export type SchemaCheck = (schema: JsonSchema) => string | null;

/** What the registry runs on each tool besides lint. */
export interface RegistryOptions {
  /** Compiles the schemas of script and MCP tools when they register (built-ins are compiled by a test). */
  checkSchema?: SchemaCheck;
}

/** What a source may add when it registers a tool. */
export interface RegisterOptions {
  /** Notes that do not stop the tool (unknown tool.json keys). */
  warnings?: string[];
  /** The source already found the definition broken (an MCP tool that fails the protocol's shape). */
  broken?: ToolBroken;
}

/** Registry of every tool the host offers. */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  // Which registration owns a name: an entry marked broken later is still undone by the register that made it.
  private readonly owners = new Map<string, object>();
  private readonly changes = new Emitter<RegistryChange>();

  constructor(
    private readonly lint: LintFunction,
    private readonly options: RegistryOptions = {},
  ) {}

  /** Adds a tool (broken if a step fails on it); refuses a name another source holds; returns the undo. */
  register(spec: ToolSpec, options: RegisterOptions = {}): () => void {
    const name = String(spec.name);
    const existing = this.tools.get(name);
    if (existing && !sameSource(existing.spec.source, spec.source)) {
      throw new RegistrationError(
        `tool name "${name}" is already registered by ${describeSource(existing.spec.source)}; ` +
          `refusing the one from ${describeSource(spec.source)}`,
      );
    }
    // Whoever registers it, an untrusted workspace tool is never alwaysAllow: each call asks (docs/security.md).
    const untrusted = spec.source.kind === 'script' && !spec.source.trusted;
    if (untrusted && spec.flags.alwaysAllow) spec = { ...spec, flags: { ...spec.flags, alwaysAllow: false } };
    const entry = this.derive(spec, options);
    const owner = {};
    this.tools.set(name, entry);
    this.owners.set(name, owner);
    this.changes.emit(
      existing ? { type: 'replaced', tool: entry, previous: existing } : { type: 'added', tool: entry },
    );
    return () => {
      if (this.owners.get(name) !== owner) return;
      const current = this.tools.get(name) as RegisteredTool;
      this.tools.delete(name);
      this.owners.delete(name);
      this.changes.emit({ type: 'removed', tool: current });
    };
  }

  /**
   * Marks a registered tool broken by a step that runs outside the registry (search indexing, listing); it is
   * replaced in place, so its source's undo still removes it. False when there is no such healthy tool.
   */
  markBroken(name: string, step: ToolStep, error: unknown): boolean {
    const previous = this.tools.get(name);
    if (!previous || previous.broken) return false;
    const broken = brokenBy(step, error);
    const entry: RegisteredTool = {
      ...previous,
      spec: brokenSpec(previous.spec, broken),
      definitionHash: '',
      broken,
    };
    this.tools.set(name, entry);
    this.changes.emit({ type: 'replaced', tool: entry, previous });
    return true;
  }

  /** The usable tool of that exact name (a broken one is not). */
  get(name: string): RegisteredTool | undefined {
    const tool = this.tools.get(name);
    return tool && !tool.broken ? tool : undefined;
  }

  /** The tool of that exact name, broken or not. */
  entry(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** Every usable tool, sorted by name. */
  all(): RegisteredTool[] {
    return this.listed().filter((tool) => !tool.broken);
  }

  /** Every tool, broken ones included, sorted by name: what listings show. */
  listed(): RegisteredTool[] {
    return [...this.tools.values()].sort((a, b) => a.spec.name.localeCompare(b.spec.name));
  }

  /** How many usable tools are registered. */
  get size(): number {
    let count = 0;
    for (const tool of this.tools.values()) if (!tool.broken) count++;
    return count;
  }

  /** Subscribes to changes; returns the unsubscribe. */
  onChange(listener: (change: RegistryChange) => void): () => void {
    return this.changes.on(listener);
  }

  // The guarded steps, in order: shape and limits, lint, schema compile, definition hash.
  private derive(spec: ToolSpec, options: RegisterOptions): RegisteredTool {
    const warnings = options.warnings && options.warnings.length > 0 ? [...options.warnings] : undefined;
    const broken = (found: ToolBroken, lint: LintFinding[] = []): RegisteredTool => ({
      spec: brokenSpec(spec, found),
      lint,
      definitionHash: '',
      ...(warnings ? { warnings } : {}),
      broken: found,
    });
    if (options.broken) return broken(options.broken);
    let problem: ToolBroken | null;
    try {
      problem = definitionProblem(spec);
    } catch (error) {
      problem = brokenBy('definition', error);
    }
    if (problem) return broken(problem);
    let lint: LintFinding[];
    try {
      lint = this.lint({
        name: authorName(spec),
        description: spec.description,
        parameters: spec.parameters,
        strict: spec.source.kind === 'builtin',
      });
    } catch (error) {
      return broken(brokenBy('lint', error));
    }
    if (this.options.checkSchema && spec.source.kind !== 'builtin') {
      try {
        const invalid = this.options.checkSchema(spec.parameters);
        if (invalid) return broken({ step: 'compile', reason: invalid }, lint);
      } catch (error) {
        return broken(brokenBy('compile', error), lint);
      }
    }
    let definitionHash: string;
    try {
      definitionHash = boundDefinitionHash(spec);
    } catch (error) {
      return broken(brokenBy('hash', error), lint);
    }
    return { spec, lint, definitionHash, ...(warnings ? { warnings } : {}) };
  }
}
