// What approvals are tied to (docs/security.md): a hash of a tool's description and parameters, bound to its source.
import fs from 'node:fs';
import path from 'node:path';
import type { JsonSchema, ToolSource, ToolSpec } from '../../tools/sdk/types';
import { shortHash, stableStringify } from './stable-json';

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
