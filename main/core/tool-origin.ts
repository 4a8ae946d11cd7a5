// Where a registered tool comes from, in the words messages and listings use.
import type { ToolSource, ToolSpec } from '../../tools/sdk/types';

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

/** Whether two sources are one: same kind and same folder or server. */
export function sameSource(a: ToolSource, b: ToolSource): boolean {
  return a.kind === b.kind && sourceOrigin(a) === sourceOrigin(b);
}

/** A source for a message: "a built-in tool", "the script folder …", "the MCP server "…"". */
export function describeSource(source: ToolSource): string {
  switch (source.kind) {
    case 'builtin':
      return 'a built-in tool';
    case 'script':
      return `the script folder ${source.dir}`;
    case 'mcp':
      return `the MCP server "${source.server}"`;
  }
}
