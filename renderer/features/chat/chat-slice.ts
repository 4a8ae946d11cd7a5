// The open chat: opening (with its snapshot), sending, stopping, its workspace, and its events.
import type { AttachmentInput, ChatEvent, GateEventView, Result } from '../../../preload/contract';
import type { AppState, SliceCreator } from '../../store/app-state';
import { invoke } from '../../boot/bridge';
import { sendConfirmingHome } from '../../store/confirm-home';
import { applyChatEvent, applyGateEvent } from './chat-events';
import type { ChatViewState } from './chat-state';
import { chatFromSnapshot, emptyChat } from './chat-state';
import { rememberChat } from './location';
import { t } from '../../i18n/i18n';

/** The open chat's state and actions. */
export interface ChatSlice {
  chat: ChatViewState;
  /** A chat is being opened. */
  chatLoading: boolean;
  openChat(chatId: string): Promise<void>;
  /** Fetches the open chat again (after a reconnect, or to fill what a mid-stream open missed). */
  refreshChat(): Promise<void>;
  closeChat(): void;
  /** Fetches one call of the open chat whole, for a card that shows only the start of a long text. */
  loadWholeCall(callId: string): Promise<void>;
  /** Fetches one message of the open chat whole, for a row that shows only the start of its texts. */
  loadWholeMessage(messageId: number): Promise<void>;
  /**
   * Starts a turn with the text and any attached files; with no chat open it first creates one ("type and go"; main
   * titles a new chat from its first message). False when it did not start (the text and files stay in the composer
   * then, and a notice says why).
   */
  sendMessage(text: string, attachments?: AttachmentInput[]): Promise<boolean>;
  stopTurn(): Promise<void>;
  /** Moves the open chat to `workspace`; the home folder asks the person first. */
  setWorkspace(workspace: string): Promise<void>;
  receiveChatEvent(event: ChatEvent): void;
  /** Several events at once (streamed text is batched per frame). */
  receiveChatEvents(events: ChatEvent[]): void;
  receiveGateEvent(event: GateEventView): void;
}

/** Creates the open-chat slice. */
export const createChatSlice: SliceCreator<ChatSlice> = (set, get) => ({
  chat: emptyChat,
  chatLoading: false,
  async openChat(chatId) {
    set({ chatLoading: true });
    const result = await invoke('chats.open', { chatId });
    set({ chatLoading: false });
    if (!result.ok) {
      rememberChat(null);
      return get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.openChat'), message: result.error.message }),
      );
    }
    rememberChat(chatId);
    get().chatChanged(chatId, result.value.chat);
    set({ chat: chatFromSnapshot(result.value) });
    for (const task of result.value.tasks) get().taskChanged(task);
  },
  async refreshChat() {
    const chatId = get().chat.chatId;
    if (!chatId) return;
    const result = await invoke('chats.open', { chatId });
    // The user may have moved on to another chat meanwhile.
    if (result.ok && get().chat.chatId === chatId) set({ chat: chatFromSnapshot(result.value) });
  },
  closeChat() {
    rememberChat(null);
    set({ chat: emptyChat });
  },
  async loadWholeMessage(messageId) {
    const chatId = get().chat.chatId;
    if (!chatId) return;
    const whole = await fetchWhole(
      get,
      invoke('chats.message', { chatId, messageId }),
      'notices.showWholeMessage',
    );
    const chat = get().chat;
    // The chat may have changed meanwhile; a message still streaming grows by its deltas.
    if (!whole || chat.chatId !== chatId) return;
    const messages = chat.messages.map((message) =>
      message.id === messageId && message.status !== 'streaming' ? whole : message,
    );
    set({ chat: { ...chat, messages } });
  },
  async loadWholeCall(callId) {
    const chatId = get().chat.chatId;
    if (!chatId) return;
    const whole = await fetchWhole(get, invoke('chats.call', { chatId, callId }), 'notices.showWholeCall');
    const chat = get().chat;
    const known = chat.calls[callId];
    // The chat may have changed meanwhile; a call still running keeps its live fields.
    if (!whole || chat.chatId !== chatId || !known) return;
    const call = {
      ...known,
      args: whole.args,
      argsCut: 0,
      ...(known.status === 'finished' ? { result: whole.result, resultCut: 0 } : {}),
    };
    set({ chat: { ...chat, calls: { ...chat.calls, [callId]: call } } });
  },
  async sendMessage(text, attachments = []) {
    if (text.trim() === '' && attachments.length === 0) return false;
    const chatId = get().chat.chatId ?? (await get().createChat());
    if (!chatId) return false;
    const result = await invoke('turn.send', {
      chatId,
      text,
      ...(attachments.length > 0 ? { attachments } : {}),
    });
    if (!result.ok) {
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.notSent'), message: result.error.message }),
      );
      return false;
    }
    if (attachments.length > 0) set({ chat: withSentFiles(get().chat, chatId, attachments) });
    return true;
  },
  async stopTurn() {
    const chatId = get().chat.chatId;
    if (!chatId) return;
    const result = await invoke('turn.cancel', { chatId });
    if (!result.ok)
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.stop'), message: result.error.message }),
      );
  },
  async setWorkspace(workspace) {
    const chatId = get().chat.chatId;
    if (!chatId) return;
    const result = await sendConfirmingHome((confirmHome) =>
      invoke('chats.setWorkspace', { chatId, workspace, ...(confirmHome ? { confirmHome } : {}) }),
    );
    if (!result) return;
    if (result.ok) get().chatChanged(chatId, result.value);
    else
      get().pushNotice(
        'error',
        t('notices.couldNot', { what: t('notices.workspaceNotChanged'), message: result.error.message }),
      );
  },
  receiveChatEvent(event) {
    get().receiveChatEvents([event]);
  },
  receiveChatEvents(events) {
    const now = Date.now();
    let chat = get().chat;
    let refresh = false;
    for (const event of events) {
      if (
        chat.staleStream &&
        event.chatId === chat.chatId &&
        (event.type === 'message.finished' || event.type === 'turn.finished')
      ) {
        refresh = true;
      }
      chat = applyChatEvent(chat, event, now);
    }
    if (chat !== get().chat) set({ chat });
    // After the chat is set: these actions may update the open chat too (its summary), and must not be overwritten.
    for (const event of events) routeSideEffects(event, get);
    if (refresh) {
      set({ chat: { ...get().chat, staleStream: false } });
      void get().refreshChat();
    }
  },
  receiveGateEvent(event) {
    const chat = applyGateEvent(get().chat, event, Date.now());
    if (chat !== get().chat) set({ chat });
  },
});

// The user message main announced as the turn started (before its reply: the event carries the text only) shows the
// files it carried; opening the chat again shows main's own account of them (their real types, where they are saved).
function withSentFiles(chat: ChatViewState, chatId: string, attachments: AttachmentInput[]): ChatViewState {
  const index = chat.messages.findLastIndex((message) => message.kind === 'user');
  const message = chat.messages[index];
  if (chat.chatId !== chatId || message?.kind !== 'user' || message.id >= 0) return chat;
  if (message.attachments.length > 0) return chat;
  const files = attachments.map(({ name, mimeType }) => ({ name, mimeType, path: null }));
  const messages = chat.messages.slice();
  messages[index] = { ...message, attachments: files };
  return { ...chat, messages };
}

// Parts of a chat event that belong to other slices: the list's running flags, tasks, notices.
function routeSideEffects(event: ChatEvent, get: () => AppState): void {
  switch (event.type) {
    case 'turn.started':
      return get().chatRunning(event.chatId, true);
    case 'turn.finished':
      return get().chatRunning(event.chatId, false);
    case 'chat.changed':
      return get().chatChanged(event.chatId, event.chat);
    case 'task.updated':
      return get().taskChanged(event.task);
    case 'notice':
      if (event.chatId === get().chat.chatId) get().pushNotice(event.level, event.message);
      return;
    default:
      return;
  }
}

// The answer of a `chats.call` or `chats.message`, or null after a notice saying why it could not be had.
async function fetchWhole<T>(
  get: () => AppState,
  pending: Promise<Result<T>>,
  what: 'notices.showWholeMessage' | 'notices.showWholeCall',
): Promise<T | null> {
  const result = await pending;
  if (result.ok) return result.value;
  get().pushNotice('error', t('notices.couldNot', { what: t(what), message: result.error.message }));
  return null;
}
