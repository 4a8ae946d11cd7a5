// write_todo: the chat's live checklist, replaced as a whole on each call.
import type { TodoItem } from '../sdk/chat-ports';
import { defineTool, ToolError } from '../sdk/types';

const MARKS: Record<TodoItem['status'], string> = { pending: '[ ]', in_progress: '[~]', done: '[x]' };

/** The write_todo built-in. */
export const writeTodoTool = defineTool({
  name: 'write_todo',
  description:
    'Replace the checklist of this chat with the given items and their status.\n' +
    'Use when work has several steps, to plan and show progress; chat_history to read earlier work.',
  parameters: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        maxItems: 50,
        description:
          'The whole checklist in order, e.g. [{"text": "Read the logs", "status": "done"}]; an empty list clears it.',
        items: {
          type: 'object',
          properties: {
            text: { type: 'string', description: 'What the step is, in a few words, e.g. "Run the tests".' },
            status: {
              type: 'string',
              enum: ['pending', 'in_progress', 'done'],
              default: 'pending',
              description: 'pending: not started; in_progress: being worked on now; done: finished.',
            },
          },
          required: ['text'],
        },
      },
    },
    required: ['items'],
  },
  flags: { alwaysAllow: true, systemUse: true },
  handler: (args, ctx) => {
    if (!Array.isArray(args.items)) throw new ToolError('invalid_arguments', '`items` must be an array');
    const items: TodoItem[] = args.items.map((raw, index) => {
      const item = (raw ?? {}) as Record<string, unknown>;
      if (typeof item.text !== 'string' || item.text.trim() === '') {
        throw new ToolError('invalid_arguments', `\`items.${index}.text\` must be a non-empty string`);
      }
      const status = item.status === 'in_progress' || item.status === 'done' ? item.status : 'pending';
      return { text: item.text.trim(), status };
    });
    if (!ctx.services.chat) throw new ToolError('unavailable', 'there is no chat to keep a checklist in');
    ctx.services.chat.setTodos(ctx.chatId, items);
    const done = items.filter((i) => i.status === 'done').length;
    const lines = items.map((i) => `${MARKS[i.status]} ${i.text}`);
    return `Checklist saved (${done}/${items.length} done):\n${lines.join('\n')}`;
  },
});
