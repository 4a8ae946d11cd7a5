// "Allow for this chat": in memory only, per chat, per tool definition, and for a call with a URL per site (a grant
// given on one page must not let the model send data to any address); a new chat (or a changed tool) asks again.
// The definition hash names the tool's source too (registry.ts), so a grant for a global tool never covers a
// workspace or another server's tool of the same name and definition (docs/security.md).

/** The allow-for-this-chat grants of a running app. */
export class ChatGrants {
  private readonly grants = new Map<string, Set<string>>();

  /** Grants `tool` at `definitionHash` for the rest of `chatId`; `site` limits it to calls to that site. */
  grant(chatId: string, tool: string, definitionHash: string, site: string | null = null): void {
    let set = this.grants.get(chatId);
    if (!set) this.grants.set(chatId, (set = new Set()));
    set.add(key(tool, definitionHash, site));
  }

  /** Whether `tool` at `definitionHash` (for a call to `site`, when it has one) is granted in `chatId`. */
  has(chatId: string, tool: string, definitionHash: string, site: string | null = null): boolean {
    return this.grants.get(chatId)?.has(key(tool, definitionHash, site)) ?? false;
  }

  /** The tools granted in a chat, for the UI. */
  list(chatId: string): Array<{ tool: string; definitionHash: string }> {
    return [...(this.grants.get(chatId) ?? [])].map((entry) => {
      const [tool = '', definitionHash = ''] = entry.split('\0');
      return { tool, definitionHash };
    });
  }

  /** Drops every grant of a chat (the chat ended or was deleted). */
  forget(chatId: string): void {
    this.grants.delete(chatId);
  }
}

function key(tool: string, definitionHash: string, site: string | null): string {
  return site === null ? `${tool}\0${definitionHash}` : `${tool}\0${definitionHash}\0${site}`;
}
