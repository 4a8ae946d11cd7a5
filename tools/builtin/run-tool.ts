// run_tool: calls a known tool by name. The dispatcher unwraps it before anything else (docs/tools.md, "Tool discovery").
import { defineTool, ToolError } from '../sdk/types';

/** Static part of run_tool's description; the host appends the names of the other tools after it. */
export const RUN_TOOL_DESCRIPTION =
  'Call any tool of the catalogue by its exact name with its arguments.\n' +
  'Use when the tool you need is listed below by name but not loaded; find_tools to search by intent.';

/** The run_tool built-in. Never gated itself: the inner tool's gate, flags and limit apply. */
export const runToolTool = defineTool({
  name: 'run_tool',
  description: RUN_TOOL_DESCRIPTION,
  parameters: {
    type: 'object',
    properties: {
      name: {
        type: 'string',
        description: 'Exact name of the tool to call, e.g. "mcp__github__create_issue".',
      },
      args: {
        type: 'object',
        default: {},
        description: 'Arguments for that tool as a JSON object matching its schema, e.g. {"title": "Bug"}.',
      },
    },
    required: ['name'],
  },
  flags: { alwaysAllow: true, systemUse: true },
  handler: () => {
    // prepareCall replaces a run_tool call by the inner call before the handler could run.
    throw new ToolError('internal', 'run_tool reached its handler: the dispatcher must unwrap it');
  },
});
