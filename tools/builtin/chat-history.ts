// chat_history: list, read and search this chat's messages and tool actions.
import { defineTool, ToolError } from '../sdk/types';

/** The chat_history built-in (read-only, so concurrent). */
export const chatHistoryTool = defineTool({
  name: 'chat_history',
  description:
    "List, read or search this chat's earlier messages and tool actions.\n" +
    'Use when you need something said or done earlier in this chat; find_tools to look for tools.',
  parameters: {
    type: 'object',
    properties: {
      mode: {
        type: 'string',
        enum: ['list', 'read', 'search'],
        default: 'list',
        description:
          'list: entries with short previews, oldest first; read: one entry in full by id; search: entries matching query.',
      },
      query: {
        type: 'string',
        default: '',
        description: 'Words to search for with mode=search, e.g. "deploy error".',
      },
      id: {
        type: 'integer',
        default: 0,
        description: 'The entry id to read with mode=read, as list or search show it, e.g. 12.',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 100,
        default: 20,
        description: 'Most entries to return, 1 to 100, e.g. 20.',
      },
      offset: {
        type: 'integer',
        minimum: 0,
        default: 0,
        description: 'Entries to skip, for paging through a long chat, e.g. 20 for the second page.',
      },
    },
    additionalProperties: false,
  },
  flags: { alwaysAllow: true, concurrent: true, systemUse: true },
  handler: (args, ctx) => {
    const chat = ctx.services.chat;
    if (!chat) throw new ToolError('unavailable', 'there is no chat history here');
    const mode = typeof args.mode === 'string' ? args.mode : 'list';
    if (mode === 'read') {
      const id = typeof args.id === 'number' ? args.id : 0;
      const entry = chat.entry(ctx.chatId, id);
      if (!entry) throw new ToolError('not_found', `no history entry with id ${id} in this chat`);
      return `#${entry.id} ${entry.kind} ${new Date(entry.at).toISOString()}\n${entry.text}`;
    }
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (mode === 'search' && query === '')
      throw new ToolError('invalid_arguments', '`query` is required with mode=search');
    const entries = chat.history(ctx.chatId, {
      query: mode === 'search' ? query : undefined,
      limit: typeof args.limit === 'number' ? args.limit : 20,
      offset: typeof args.offset === 'number' ? args.offset : 0,
    });
    if (entries.length === 0)
      return mode === 'search'
        ? `Nothing in this chat matches "${query}".`
        : 'This chat has no earlier entries.';
    return entries.map((e) => `#${e.id} ${e.kind}: ${preview(e.text)}`).join('\n');
  },
});

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
