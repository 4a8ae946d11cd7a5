// tool_generate_guide: the same guide text reasoning_guide gives the model (docs/tools.md, "Design rules"), for external agents.
import type { ToolSpec } from '../../tools/sdk/types';
import { defineTool } from '../../tools/sdk/types';
import { TOOL_GENERATE_GUIDE } from '../../tools/builtin/guides/tool-generate-guide';

/** The tool_generate_guide tool of `agenvoy mcp serve`. */
export function guideTool(): ToolSpec {
  return defineTool({
    name: 'tool_generate_guide',
    description:
      'Return the guide to the tool design rules and to writing a script tool, with a worked example.\n' +
      'Use when creating or fixing a script tool; use list_script_tools to see the existing ones.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    flags: { alwaysAllow: true, concurrent: true },
    handler: () => TOOL_GENERATE_GUIDE,
  });
}
