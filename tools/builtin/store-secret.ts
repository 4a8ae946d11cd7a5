// store_secret: the model asks for a secret by key name; the user types it into a masked prompt owned by the host.
// The value goes from the prompt to the store and never back here (docs/secrets.md, "The masked prompt"): the model learns stored or declined.
import { defineTool, NO_TOOL_TIMEOUT, SECRET_KEY_PATTERN, ToolError } from '../sdk/types';

// The same limit as main/core/heal-budget's MAX_HEAL_ROUNDS (a test keeps them equal); tools/ cannot import main/.
const HEAL_ROUND_LIMIT = 2;

const KEY = new RegExp(SECRET_KEY_PATTERN);

/** The store_secret built-in: systemUse, and alwaysAllow because its masked prompt is the user's decision. */
export const storeSecretTool = defineTool({
  name: 'store_secret',
  description:
    'Ask the user for a secret in a masked prompt and store it in the OS keychain under a key name.\n' +
    'Use when a tool fails for a missing, rejected or expired key; the value never reaches you.',
  parameters: {
    type: 'object',
    properties: {
      key: {
        type: 'string',
        pattern: SECRET_KEY_PATTERN,
        description:
          'Key name as the failed tool or its error named it: letters, digits and _, e.g. "GITHUB_TOKEN". ' +
          'Tools look a key up in the OS keychain, then $AGENVOY_HOME/.secrets (not on macOS or Windows), then an ' +
          'environment variable of the same name. Secrets are never in the process environment, so an empty ' +
          'printenv does not mean a key is missing.',
      },
      question: {
        type: 'string',
        minLength: 1,
        description:
          'One sentence shown to the user above the masked input: what the key is for and where to get it, ' +
          'e.g. "GitHub token with repo scope, from github.com/settings/tokens".',
      },
      for_tool: {
        type: 'string',
        default: '',
        description:
          'Name of the tool that failed for this key and that you will call again, e.g. "mcp__github__create_issue". ' +
          `It gets at most ${HEAL_ROUND_LIMIT} store_secret rounds per turn. Empty when no tool failed ` +
          `(calls without a tool share ${HEAL_ROUND_LIMIT} rounds per turn).`,
      },
    },
    required: ['key', 'question'],
    additionalProperties: false,
  },
  flags: { systemUse: true, alwaysAllow: true },
  // The prompt waits for the user as long as it takes; a turn cancel still closes it.
  timeoutMs: NO_TOOL_TIMEOUT,
  handler: async (args, ctx) => {
    const key = typeof args.key === 'string' ? args.key.trim() : '';
    if (!KEY.test(key)) {
      throw new ToolError(
        'invalid_arguments',
        '`key` must be a key name of letters, digits and _, e.g. "GITHUB_TOKEN"',
        {
          parameter: 'key',
        },
      );
    }
    const question =
      typeof args.question === 'string' && args.question.trim()
        ? args.question.trim()
        : `Enter the value of ${key}.`;
    const forTool = typeof args.for_tool === 'string' ? args.for_tool.trim() : '';
    // The prompt shows "Needed by the tool <for_tool>" as a fact, and each tool has its own budget: a name that is
    // not a tool would put the model's words there and open a fresh budget of prompts per invented name.
    const catalog = ctx.services.catalog;
    if (forTool && catalog && !catalog.get(forTool)) {
      throw new ToolError(
        'invalid_arguments',
        `\`for_tool\` must name the tool that failed for ${key}; there is no tool "${forTool}" (leave it empty when ` +
          'no tool failed)',
        { parameter: 'for_tool' },
      );
    }
    // A tool's error may name any key (a hostile server's "missing credential GITHUB_TOKEN"); the prompt would then
    // ask for it in the name of a tool that is never handed it, and the value would replace the key another tool uses.
    const handed = forTool ? catalog?.secrets?.(forTool) : undefined;
    if (handed && !handed.includes(key)) {
      throw new ToolError(
        'invalid_arguments',
        `${forTool} is never given ${key}, so storing it cannot fix ${forTool}; the keys it is given: ` +
          `${handed.length > 0 ? handed.join(', ') : 'none'}. Tell the user what ${forTool} reported instead`,
        { parameter: 'for_tool' },
      );
    }
    const prompt = ctx.services.secretPrompt;
    if (!prompt) {
      throw new ToolError(
        'secret_prompt_unavailable',
        `this host cannot ask for secrets; ask the user to run \`agenvoy secrets set ${key}\` and then retry`,
        { key },
      );
    }
    // Calls not tied to a tool share one budget under store_secret's own name (NO_TOOL_HEAL_BUDGET in
    // main/core/heal-budget), so a model cannot open prompt after prompt by leaving for_tool out.
    if (ctx.services.heal && !ctx.services.heal.take(forTool || 'store_secret')) {
      throw new ToolError(
        'heal_limit_reached',
        forTool
          ? `store_secret was already asked ${HEAL_ROUND_LIMIT} times for ${forTool} this turn, the limit; its ` +
              `failure stands: tell the user that ${forTool} needs a valid ${key}`
          : `store_secret was already asked ${HEAL_ROUND_LIMIT} times this turn without for_tool, the limit; ` +
              `tell the user to run \`agenvoy secrets set ${key}\` instead`,
        forTool ? { key, forTool } : { key },
      );
    }
    const answer = await prompt.ask(forTool ? { key, question, forTool } : { key, question }, ctx.signal);
    if (answer === 'stored') {
      return {
        content: [{ type: 'text', text: `stored ${key}${forTool ? `; call ${forTool} again` : ''}` }],
        data: { key, stored: true },
      };
    }
    return {
      content: [
        {
          type: 'text',
          text: `the user declined to store ${key}; do not ask for it again unless the user wants to`,
        },
      ],
      data: { key, stored: false },
    };
  },
});
