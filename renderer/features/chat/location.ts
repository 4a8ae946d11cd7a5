// The open chat's id in the URL fragment, so a reload (or a restart of the window) reopens it.

/** The chat id the URL names, if any. */
export function rememberedChat(): string | null {
  if (typeof location === 'undefined') return null;
  const match = /(?:^#|&)chat=([^&]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1] as string) : null;
}

/** Records (or forgets) the open chat in the URL without adding history entries. */
export function rememberChat(chatId: string | null): void {
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const hash = chatId ? `#chat=${encodeURIComponent(chatId)}` : '';
  if (location.hash === hash) return;
  history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
}
