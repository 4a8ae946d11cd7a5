// Which tool schemas each chat has loaded (docs/tools.md, "Tool discovery"): the fixed set always, others once find_tools or a call loads them.

/** Tools whose full schemas every request carries. */
export const FIXED_TOOLS = [
  'find_tools',
  'run_tool',
  'reasoning_guide',
  'write_todo',
  'chat_history',
  'ask_user',
  'write_result',
] as const;

/** Per-chat loaded schemas, kept in load order so the request prefix stays stable. */
export class LoadedSchemas {
  private readonly byChat = new Map<string, string[]>();
  private readonly fixed = new Set<string>(FIXED_TOOLS);

  /** Whether `name` is loaded in `chatId` (the fixed set always is). */
  has(chatId: string, name: string): boolean {
    return this.fixed.has(name) || (this.byChat.get(chatId)?.includes(name) ?? false);
  }

  /** Loads names into a chat, keeping first-load order; returns the names newly loaded. */
  load(chatId: string, names: string[]): string[] {
    const list = this.byChat.get(chatId) ?? [];
    const added = names.filter((n, i) => !this.fixed.has(n) && !list.includes(n) && names.indexOf(n) === i);
    if (added.length > 0) this.byChat.set(chatId, [...list, ...added]);
    return added;
  }

  /** The non-fixed names loaded in a chat, in load order. */
  loaded(chatId: string): string[] {
    return [...(this.byChat.get(chatId) ?? [])];
  }

  /** Restores a chat's list (from persistence). */
  restore(chatId: string, names: string[]): void {
    this.byChat.set(chatId, [...new Set(names)]);
  }
}
