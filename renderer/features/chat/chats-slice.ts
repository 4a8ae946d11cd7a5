// The chat list: titles, search (titles and full text), new chat, rename, reasoning level and delete.
import type { ChatReasoning, ChatSearchHit, ChatSummary } from '../../../preload/contract';
import type { SliceCreator } from '../../store/app-state';
import { invoke } from '../../boot/bridge';
import { sendConfirmingHome } from '../../store/confirm-home';
import { t } from '../../i18n/i18n';

/** The chat list's state. */
export interface ChatsSlice {
  chats: ChatSummary[];
  /** The search box's text. */
  chatQuery: string;
  /** Full-text matches for chatQuery (empty without a query). */
  searchHits: ChatSearchHit[];
  loadChats(): Promise<void>;
  searchChats(query: string): Promise<void>;
  /**
   * Creates a chat in the default workspace, a folder of its own, or `workspace` (the home folder asks first), and
   * opens it. The new chat's id, or null when none was created.
   */
  createChat(workspace?: string): Promise<string | null>;
  renameChat(chatId: string, title: string): Promise<void>;
  /** Sets how much the model reasons in this chat ('default': as the settings say). */
  setChatReasoning(chatId: string, reasoning: ChatReasoning): Promise<void>;
  deleteChat(chatId: string): Promise<void>;
  /** A chat was created, changed or (null) deleted. */
  chatChanged(chatId: string, chat: ChatSummary | null): void;
  /** A turn started or ended in some chat. */
  chatRunning(chatId: string, running: boolean): void;
}

/** Creates the chat-list slice. */
export const createChatsSlice: SliceCreator<ChatsSlice> = (set, get) => ({
  chats: [],
  chatQuery: '',
  searchHits: [],
  async loadChats() {
    const query = get().chatQuery.trim();
    const result = await invoke('chats.list', query ? { search: query } : {});
    if (result.ok) set({ chats: result.value });
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.loadChats'), message: result.error.message }),
      );
  },
  async searchChats(query) {
    set({ chatQuery: query });
    const trimmed = query.trim();
    const [list, hits] = await Promise.all([
      invoke('chats.list', trimmed ? { search: trimmed } : {}),
      trimmed ? invoke('chats.search', { query: trimmed, limit: 20 }) : Promise.resolve(null),
    ]);
    // A slower answer to an older query must not replace a newer one.
    if (get().chatQuery !== query) return;
    set({ chats: list.ok ? list.value : get().chats, searchHits: hits?.ok ? hits.value : [] });
  },
  async createChat(workspace) {
    const result = await sendConfirmingHome((confirmHome) =>
      invoke('chats.create', workspace ? { workspace, ...(confirmHome ? { confirmHome } : {}) } : {}),
    );
    if (!result) return null;
    if (!result.ok) {
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.createChat'), message: result.error.message }),
      );
      return null;
    }
    get().chatChanged(result.value.id, result.value);
    get().setView('chat');
    await get().openChat(result.value.id);
    return result.value.id;
  },
  async renameChat(chatId, title) {
    const result = await invoke('chats.rename', { chatId, title });
    if (result.ok) get().chatChanged(chatId, result.value);
    else get().pushNotice('error', result.error.message);
  },
  async setChatReasoning(chatId, reasoning) {
    const result = await invoke('chats.setReasoning', { chatId, reasoning });
    if (result.ok) get().chatChanged(chatId, result.value);
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.reasoningNotChanged'), message: result.error.message }),
      );
  },
  async deleteChat(chatId) {
    const result = await invoke('chats.delete', { chatId });
    if (!result.ok) return get().pushNotice('error', result.error.message);
    get().chatChanged(chatId, null);
    if (get().chat.chatId === chatId) get().closeChat();
  },
  chatChanged(chatId, chat) {
    if (chat && get().chat.chatId === chatId) set((s) => ({ chat: { ...s.chat, summary: chat } }));
    set((s) => {
      const others = s.chats.filter((c) => c.id !== chatId);
      if (!chat) return { chats: others };
      const index = s.chats.findIndex((c) => c.id === chatId);
      if (index < 0) return { chats: [chat, ...others] };
      const chats = s.chats.slice();
      chats[index] = chat;
      return { chats };
    });
  },
  chatRunning(chatId, running) {
    set((s) => {
      const chat = s.chats.find((c) => c.id === chatId);
      if (!chat || chat.running === running) return {};
      // The active chat moves to the top, as the list is ordered by recent activity.
      const updated = { ...chat, running, updatedAt: Date.now() };
      return {
        chats: running
          ? [updated, ...s.chats.filter((c) => c.id !== chatId)]
          : s.chats.map((c) => (c.id === chatId ? updated : c)),
      };
    });
  },
});
