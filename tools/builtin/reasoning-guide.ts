// reasoning_guide: returns reference guides on demand, so their text costs context only when it is needed.
import { TOOL_DISCOVERY_GUIDE } from './guides/tool-discovery-guide';
import { TOOL_GENERATE_GUIDE } from './guides/tool-generate-guide';
import { defineTool, ToolError } from '../sdk/types';

/** The guide text of each topic reasoning_guide offers. */
export const REASONING_GUIDES = {
  tool_generate: TOOL_GENERATE_GUIDE,
  tool_discovery: TOOL_DISCOVERY_GUIDE,
} as const;

/** A topic of reasoning_guide. */
export type ReasoningGuideTopic = keyof typeof REASONING_GUIDES;

const TOPICS = Object.keys(REASONING_GUIDES) as ReasoningGuideTopic[];

/**
 * The reasoning_guide built-in: read-only, so it needs no approval and may run in parallel; systemUse like the other
 * tools of the fixed set (its schema is always loaded, so mode=list need not show it).
 */
export const reasoningGuideTool = defineTool({
  name: 'reasoning_guide',
  description:
    'Return reference guides on building and using tools, chosen by topic.\n' +
    'Use when you write or fix a script tool, or are unsure how to find and load tools; ' +
    'use find_tools to search for a tool itself.',
  parameters: {
    type: 'object',
    properties: {
      topics: {
        type: 'array',
        items: { type: 'string', enum: TOPICS },
        minItems: 1,
        uniqueItems: true,
        description:
          'Guides to return, in this order. "tool_generate": design rules R1-R5 for tool names, descriptions ' +
          'and parameters, and how to write a script tool; "tool_discovery": finding, loading and calling ' +
          'tools with find_tools and run_tool. Example: ["tool_generate"]',
      },
    },
    required: ['topics'],
    additionalProperties: false,
  },
  flags: { alwaysAllow: true, concurrent: true, systemUse: true },
  handler: (args) =>
    readTopics(args.topics)
      .map((topic) => REASONING_GUIDES[topic])
      .join('\n'),
});

// The schema requires a non-empty array of known topics, but the handler still defends against a
// missing, null or malformed value (docs/tools.md, "Design rules", R5). A lone string is accepted as a one-topic list.
function readTopics(value: unknown): ReasoningGuideTopic[] {
  const known = TOPICS.map((topic) => `"${topic}"`).join(', ');
  if (value === undefined || value === null) {
    throw new ToolError(
      'invalid_arguments',
      `\`topics\` is required: pass a list of topics such as ["tool_generate"]; known topics: ${known}`,
      { parameter: 'topics', allowed: TOPICS },
    );
  }
  const list: unknown[] = Array.isArray(value) ? value : [value];
  if (list.length === 0) {
    throw new ToolError('invalid_arguments', `\`topics\` is empty: pass at least one of ${known}`, {
      parameter: 'topics',
      allowed: TOPICS,
    });
  }
  const unknown = list.filter((topic) => !isTopic(topic));
  if (unknown.length > 0) {
    throw new ToolError(
      'invalid_arguments',
      `\`topics\` has unknown ${unknown.length === 1 ? 'topic' : 'topics'} ` +
        `${unknown.map((topic) => JSON.stringify(topic) ?? String(topic)).join(', ')}; known topics: ${known}`,
      { parameter: 'topics', unknown, allowed: TOPICS },
    );
  }
  // Asking for a topic twice should not double the context it costs.
  return [...new Set(list as ReasoningGuideTopic[])];
}

function isTopic(value: unknown): value is ReasoningGuideTopic {
  return typeof value === 'string' && Object.hasOwn(REASONING_GUIDES, value);
}
