// Every built-in tool definition, in one list the composition root registers.
import { findToolsTool } from './find-tools';
import { reasoningGuideTool } from './reasoning-guide';
import { runToolTool } from './run-tool';
import type { ToolSpec } from './types';

/** The built-in tools offered by every host (host-specific ones are added by the host). */
export function builtinTools(): ToolSpec[] {
  return [findToolsTool, runToolTool, reasoningGuideTool];
}
