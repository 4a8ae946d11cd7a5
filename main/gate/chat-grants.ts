// "Allow for this chat": in memory only, per chat, per tool definition; a new chat (or a changed tool) asks again.
// The definition hash names the tool's source too (registry.ts), so a grant for a global tool never covers a
// workspace or another server's tool of the same name and definition (docs/security.md).

/** The allow-for-this-chat grants of a running app. */
export class ChatGrants {
  // Per chat, per tool and definition: the `${secret:NAME}` names the calls the person allowed sent.
  private readonly grants = new Map<string, Map<string, Set<string>>>();

  /** Grants `tool` at `definitionHash` for the rest of `chatId`, with the secrets the allowed call sends. */
  grant(chatId: string, tool: string, definitionHash: string, secrets: readonly string[] = []): void {
    let chat = this.grants.get(chatId);
    if (!chat) this.grants.set(chatId, (chat = new Map()));
    const k = key(tool, definitionHash);
    let covered = chat.get(k);
    if (!covered) chat.set(k, (covered = new Set()));
    for (const name of secrets) covered.add(name);
  }

  /**
   * Whether `tool` at `definitionHash` is granted in `chatId` for a call sending `secrets`: a grant covers only the
   * secrets the person saw an allowed call send (docs/security.md, "Decisions and rules").
   */
  has(chatId: string, tool: string, definitionHash: string, secrets: readonly string[] = []): boolean {
    const covered = this.grants.get(chatId)?.get(key(tool, definitionHash));
    return covered !== undefined && secrets.every((name) => covered.has(name));
  }

  /** The tools granted in a chat, for the UI. */
  list(chatId: string): Array<{ tool: string; definitionHash: string }> {
    return [...(this.grants.get(chatId)?.keys() ?? [])].map((entry) => {
      const [tool = '', definitionHash = ''] = entry.split('\0');
      return { tool, definitionHash };
    });
  }

  /** Drops every grant of a chat (the chat ended or was deleted). */
  forget(chatId: string): void {
    this.grants.delete(chatId);
  }
}

function key(tool: string, definitionHash: string): string {
  return `${tool}\0${definitionHash}`;
}
