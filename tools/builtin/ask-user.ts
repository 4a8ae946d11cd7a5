// ask_user: questions to the user (free text, single or multiple choice), answered in a dialog or on the terminal.
import type { Question } from '../sdk/chat-ports';
import { credentialShape } from '../sdk/credential-shapes';
import { defineTool, NO_TOOL_TIMEOUT, ToolError } from '../sdk/types';

/** The ask_user built-in: no timeout, since a person answers. */
export const askUserTool = defineTool({
  name: 'ask_user',
  description:
    'Ask the user one or more questions and wait for the answers.\n' +
    'Use when only the user can settle a choice or fact; find_tools when a tool can look it up.',
  parameters: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        minItems: 1,
        maxItems: 10,
        description:
          'The questions, asked together in one dialog, e.g. [{"prompt": "Which branch?", "kind": "single", "options": ["main", "dev"]}].',
        items: {
          type: 'object',
          properties: {
            prompt: {
              type: 'string',
              description: 'The question as the user reads it, e.g. "Which branch?".',
            },
            kind: {
              type: 'string',
              enum: ['text', 'single', 'multiple'],
              default: 'text',
              description: 'text: a free answer; single: pick one option; multiple: pick any options.',
            },
            options: {
              type: 'array',
              items: { type: 'string' },
              default: [],
              description: 'The choices for kind single or multiple, e.g. ["yes", "no"].',
            },
          },
          required: ['prompt'],
        },
      },
    },
    required: ['questions'],
  },
  flags: { alwaysAllow: true, systemUse: true },
  timeoutMs: NO_TOOL_TIMEOUT,
  handler: async (args, ctx) => {
    const questions = parseQuestions(args.questions);
    const port = ctx.services.askUser;
    if (!port) return 'No one can answer questions here. Decide yourself and say what you assumed.';
    const result = await port.ask(ctx.chatId, questions, ctx.signal);
    if (!result.answered)
      return `The user did not answer: ${result.reason}. Decide yourself and say what you assumed.`;
    // A key pasted as an answer would be given to the model and kept in the chat's history: it is withheld, and the
    // model is pointed at store_secret, whose masked prompt keeps it out of both (docs/security.md).
    const withheld: string[] = [];
    const answers: Record<string, string | string[]> = {};
    for (const [id, answer] of Object.entries(result.answers)) {
      const shape = credentialShape(Array.isArray(answer) ? answer.join('\n') : answer);
      if (shape) withheld.push(shape);
      answers[id] = shape ? `[withheld: the answer looked like ${shape}]` : answer;
    }
    const note =
      withheld.length === 0
        ? ''
        : '\n\nAn answer looked like a credential and was not passed on: keys never go through ask_user. If a ' +
          'tool needs one, call store_secret so the user types it into the masked prompt, and use it by name ' +
          '(${secret:NAME}).';
    return {
      content: [
        {
          type: 'text',
          text: questions
            .map((q) => {
              const answer = answers[q.id];
              return `${q.prompt}\n→ ${Array.isArray(answer) ? answer.join(', ') : (answer ?? '(no answer)')}`;
            })
            .join('\n\n')
            .concat(note),
        },
      ],
      data: answers,
    };
  },
});

function parseQuestions(raw: unknown): Question[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw new ToolError('invalid_arguments', '`questions` must be a non-empty array');
  return raw.map((item, index) => {
    const q = (item ?? {}) as Record<string, unknown>;
    if (typeof q.prompt !== 'string' || q.prompt.trim() === '') {
      throw new ToolError('invalid_arguments', `\`questions.${index}.prompt\` must be a non-empty string`);
    }
    const kind = q.kind === 'single' || q.kind === 'multiple' ? q.kind : 'text';
    const options = Array.isArray(q.options)
      ? q.options.filter((o): o is string => typeof o === 'string')
      : [];
    if (kind !== 'text' && options.length === 0) {
      throw new ToolError(
        'invalid_arguments',
        `\`questions.${index}.options\` must list the choices for kind ${kind}`,
      );
    }
    return { id: `q${index + 1}`, prompt: q.prompt, kind, options };
  });
}
