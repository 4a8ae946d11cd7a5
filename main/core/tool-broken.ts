// A tool whose per-tool step failed (docs/robustness.md): it stays listed with the step and the reason, is never
// offered to the model, and a call to it fails saying why, while every other tool keeps working.
import type { ToolSpec } from '../../tools/sdk/types';
import { ToolError } from '../../tools/sdk/types';
import { jsonBoundsProblem, MAX_TOOL_DESCRIPTION_LENGTH } from './schema-bounds';

/** The per-tool steps that can fail on a definition from outside (tool.json, an MCP server). */
export type ToolStep = 'definition' | 'limits' | 'lint' | 'compile' | 'hash' | 'index' | 'list';

/** Why a tool is broken: the step that failed and its reason. */
export interface ToolBroken {
  step: ToolStep;
  reason: string;
}

// A reason is shown in tables and sent to the model: long enough to act on, short enough to read.
const MAX_REASON_LENGTH = 500;
// What a broken tool keeps of its description, for the listing.
const MAX_SHOWN_DESCRIPTION = 1000;

/** `{step, reason}` from a thrown value, the reason cut to a readable length. */
export function brokenBy(step: ToolStep, error: unknown): ToolBroken {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { step, reason: text.length > MAX_REASON_LENGTH ? `${text.slice(0, MAX_REASON_LENGTH)}…` : text };
}

/** The error text of a call to a broken tool. */
export function brokenMessage(name: string, broken: ToolBroken): string {
  return (
    `tool "${name}" is broken and cannot be called (step ${broken.step}: ${broken.reason}); ` +
    `use another tool or answer without it`
  );
}

/**
 * What is wrong with a definition before any step may walk it: a missing name, a description that is not text or
 * is runaway long, parameters that are not an object or nest or weigh past the limits (schema-bounds.ts).
 */
export function definitionProblem(spec: ToolSpec): ToolBroken | null {
  if (typeof spec.name !== 'string' || spec.name === '') {
    return { step: 'definition', reason: 'the tool has no name' };
  }
  if (typeof spec.description !== 'string') {
    return { step: 'definition', reason: 'description must be text' };
  }
  if (spec.description.length > MAX_TOOL_DESCRIPTION_LENGTH) {
    return {
      step: 'limits',
      reason: `description is ${spec.description.length} characters; the limit is ${MAX_TOOL_DESCRIPTION_LENGTH}`,
    };
  }
  const { parameters } = spec as { parameters: unknown };
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return { step: 'definition', reason: 'parameters must be a JSON Schema object' };
  }
  const bounds = jsonBoundsProblem(parameters);
  return bounds ? { step: 'limits', reason: `parameter schema is ${bounds}` } : null;
}

/**
 * The spec a broken tool is kept under: its name, source and a cut description, an empty schema (so nothing later
 * walks the bad one), no flag that would skip the gate or run it in parallel, and a handler that only says why.
 */
export function brokenSpec(spec: ToolSpec, broken: ToolBroken): ToolSpec {
  const name = String(spec.name);
  const description = typeof spec.description === 'string' ? spec.description : '';
  return {
    name,
    description:
      description.length > MAX_SHOWN_DESCRIPTION
        ? `${description.slice(0, MAX_SHOWN_DESCRIPTION)}…`
        : description,
    parameters: { type: 'object', properties: {} },
    source: spec.source,
    flags: {
      alwaysAllow: false,
      concurrent: false,
      background: false,
      systemUse: spec.flags?.systemUse === true,
    },
    timeoutMs: spec.timeoutMs,
    handler: () => {
      throw new ToolError('broken_tool', brokenMessage(name, broken), { step: broken.step });
    },
  };
}
