// The chat channels: list, search, create, open, rename, delete, move, send and cancel.
import type { ChatSummary, InvokeChannel } from '../../preload/contract';
import { loadSettings, SettingsError } from '../settings/settings';
import type { ChatReasoning } from '../core/model-usage';
import { CHAT_REASONING } from '../core/model-usage';
import type { ChatRecord } from '../store';
import { MAX_MODEL_ID } from '../store';
import { chatSnapshot, chatSummary, roundUsages } from './chat-snapshot';
import { messageView, toolCallView } from './message-views';
import { chatsRoot, createChatFolder, renameChatFolder } from './chat-folders';
import { chosenFolder, confirmsHome, defaultWorkspace } from './desktop-settings';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import type { CheckedAttachment } from '../agent/attachments';
import {
  AttachmentError,
  attachmentParts,
  checkAttachmentInputs,
  discardSaved,
  saveAttachments,
} from '../agent/attachments';
import {
  optionalLimit,
  optionalString,
  requestObject,
  requiredIndex,
  requiredString,
} from './request-fields';

type ChatChannel = Extract<
  InvokeChannel,
  | 'chats.list'
  | 'chats.search'
  | 'chats.create'
  | 'chats.open'
  | 'chats.call'
  | 'chats.message'
  | 'chats.rename'
  | 'chats.delete'
  | 'chats.setWorkspace'
  | 'chats.setReasoning'
  | 'chats.setModel'
  | 'turn.send'
  | 'turn.cancel'
>;

/** The longest message a user can send in one go. */
const MAX_MESSAGE = 1_000_000;
/** Titles are shown in a list: long ones are cut. */
const MAX_TITLE = 200;
const DEFAULT_TITLE = 'New chat';

/** The chat handlers over the store and the chat service. */
export function chatHandlers(ctx: HostContext): HandlerTable<ChatChannel> {
  const { store, service } = ctx.runtime;
  // A title is stored, listed and names the chat's folder, which the model is told as its workspace: a key typed into
  // it is scrubbed like the message it came from (docs/security.md, "Redaction").
  const scrub = (title: string) => ctx.core.redactor.redact(title);
  const summary = (chat: ChatRecord): ChatSummary => chatSummary(chat, service.isRunning(chat.id));
  const chatOf = (fields: Record<string, unknown>): ChatRecord => {
    const chatId = requiredString(fields, 'chatId', 200);
    const chat = store.chats.get(chatId);
    if (!chat) throw new HostError('not_found', `no chat with id ${chatId}`);
    return chat;
  };
  const changed = (chatId: string) => {
    const chat = store.chats.get(chatId);
    ctx.emit('chat.event', { type: 'chat.changed', chatId, chat: chat ? summary(chat) : null });
  };
  return {
    'chats.list': (request) => {
      const fields = requestObject(request);
      const search = optionalString(fields, 'search', 500)?.trim();
      const limit = optionalLimit(fields, 'limit', 10_000);
      return store.chats.list({ ...(search ? { search } : {}), ...(limit ? { limit } : {}) }).map(summary);
    },
    'chats.search': (request) => {
      const fields = requestObject(request);
      const query = requiredString(fields, 'query', 500);
      const chatId = optionalString(fields, 'chatId', 200);
      const limit = optionalLimit(fields, 'limit', 500);
      const titles = new Map<string, string>();
      return store
        .search(query, { ...(chatId ? { chatId } : {}), ...(limit ? { limit } : {}) })
        .map((hit) => {
          if (!titles.has(hit.chatId)) titles.set(hit.chatId, store.chats.get(hit.chatId)?.title ?? '');
          return { ...hit, chatTitle: titles.get(hit.chatId) ?? '' };
        });
    },
    'chats.create': async (request) => {
      const fields = requestObject(request);
      const title = scrub(optionalString(fields, 'title', MAX_TITLE)?.trim() || DEFAULT_TITLE);
      const asked = optionalString(fields, 'workspace', 4096);
      // Without a choice and without a default, a chat works in a folder of its own (docs/security.md).
      const workspace = asked
        ? await chosenFolder(asked, 'workspace', confirmsHome(fields), ctx.settings.env)
        : (defaultWorkspace(ctx.settings) ?? (await createChatFolder(chatsRoot(ctx.settings.env), title)));
      const chat = service.createChat({ title, workspace });
      changed(chat.id);
      return summary(chat);
    },
    'chats.open': (request) => {
      const chat = chatOf(requestObject(request));
      return chatSnapshot(store, chat, service.isRunning(chat.id));
    },
    // One call whole, for the card whose texts the snapshot or an event only began (docs/interface.md, "Large calls").
    'chats.call': (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      const callId = requiredString(fields, 'callId', 200);
      const call = store.toolCalls.get(chat.id, callId);
      if (!call) throw new HostError('not_found', `no call ${callId} in this chat`);
      return toolCallView(call, store.approvals.get(chat.id, callId));
    },
    'chats.message': (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      const messageId = requiredIndex(fields, 'messageId');
      const row = store.messages.get(messageId);
      const view =
        row?.chatId === chat.id ? messageView(row, roundUsages(store, chat.id).get(row.id) ?? null) : null;
      if (!view) throw new HostError('not_found', `no message ${messageId} in this chat`);
      return view;
    },
    'chats.rename': (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      store.chats.rename(chat.id, scrub(requiredString(fields, 'title', MAX_TITLE).trim()));
      changed(chat.id);
      return summary(store.chats.get(chat.id) as ChatRecord);
    },
    'chats.delete': async (request) => {
      const chat = chatOf(requestObject(request));
      if (service.isRunning(chat.id))
        throw new HostError('busy', 'stop the running turn before deleting the chat');
      // Its tasks go from the list with the chat: none may run on unlisted, with no Cancel button
      // (main/web/deleted-chat-task-attack.test.ts). They are stopped first, and settle before their rows go.
      const running = ctx.core.tasks.list({ chatId: chat.id }).filter((task) => task.status === 'running');
      for (const task of running) ctx.core.tasks.cancel(task.id, 'cancelled: its chat was deleted');
      await Promise.all(running.map((task) => ctx.core.tasks.wait(task.id)));
      store.chats.delete(chat.id);
      ctx.gate.forgetChat(chat.id);
      changed(chat.id);
      return { deleted: true as const };
    },
    'chats.setReasoning': (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      const reasoning = fields.reasoning;
      if (typeof reasoning !== 'string' || !CHAT_REASONING.includes(reasoning as ChatReasoning)) {
        throw new HostError('invalid_request', `"reasoning" must be one of ${CHAT_REASONING.join(', ')}`);
      }
      // Read by the next turn: a running one keeps what it started with.
      store.chats.setReasoning(chat.id, reasoning as ChatReasoning);
      changed(chat.id);
      return summary(store.chats.get(chat.id) as ChatRecord);
    },
    'chats.setModel': (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      // Read by the next turn, as the reasoning level is; a running turn keeps its model.
      store.chats.setModel(chat.id, modelField(fields.model));
      changed(chat.id);
      return summary(store.chats.get(chat.id) as ChatRecord);
    },
    'chats.setWorkspace': async (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      const workspace = await chosenFolder(
        requiredString(fields, 'workspace', 4096),
        'workspace',
        confirmsHome(fields),
        ctx.settings.env,
      );
      store.chats.setWorkspace(chat.id, workspace);
      changed(chat.id);
      return summary(store.chats.get(chat.id) as ChatRecord);
    },
    'turn.send': async (request) => {
      const fields = requestObject(request);
      const chat = chatOf(fields);
      // Attachments are checked before anything else happens: a refused one refuses the send (docs/attachments.md).
      const attachments = await refusing(() => checkAttachmentInputs(fields.attachments));
      // With files attached the text may be empty; the typed text always comes first in the message.
      const text =
        attachments.length > 0
          ? (optionalString(fields, 'text', MAX_MESSAGE) ?? '')
          : requiredString(fields, 'text', MAX_MESSAGE);
      if (service.isRunning(chat.id)) throw new HostError('busy', 'this chat is already running a turn');
      try {
        loadSettings({ home: ctx.settings.home, env: ctx.settings.env });
      } catch (error) {
        if (error instanceof SettingsError) throw new HostError('invalid_settings', error.message);
        throw error;
      }
      if (chat.title === DEFAULT_TITLE && store.messages.list(chat.id, { limit: 1 }).length === 0) {
        const title = titleFrom(scrub(text), attachments);
        store.chats.rename(chat.id, title);
        // A folder made for "New chat" that is still empty takes the chat's real title.
        const renamed = await renameChatFolder(
          chatsRoot(ctx.settings.env),
          chat.workspace,
          DEFAULT_TITLE,
          title,
        );
        if (renamed) store.chats.setWorkspace(chat.id, renamed);
        if (service.isRunning(chat.id)) throw new HostError('busy', 'this chat is already running a turn');
      }
      // Copied into the workspace the chat has now (a new chat's folder may just have been renamed).
      const workspace = store.chats.get(chat.id)?.workspace ?? chat.workspace;
      const saved = await refusing(() => saveAttachments(attachments, workspace));
      if (service.isRunning(chat.id)) {
        await discardSaved(saved);
        throw new HostError('busy', 'this chat is already running a turn');
      }
      // The turn runs on; its events carry it to the window. send() marks the chat running before it yields.
      service.send(chat.id, text, undefined, attachmentParts(saved)).then(
        () => changed(chat.id),
        (error: unknown) => {
          ctx.core.log.error('turn failed to run', { chat: chat.id, error: (error as Error).message });
          ctx.emit('chat.event', {
            type: 'notice',
            chatId: chat.id,
            level: 'error',
            message: `the turn could not run: ${(error as Error).message}`,
          });
          changed(chat.id);
        },
      );
      changed(chat.id);
      return { started: true as const };
    },
    'turn.cancel': (request) => {
      const chat = chatOf(requestObject(request));
      return { cancelled: service.cancel(chat.id) };
    },
  };
}

function titleFrom(text: string, attachments: readonly CheckedAttachment[] = []): string {
  const line = text.trim().split('\n')[0] || (attachments[0]?.name ?? '');
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || DEFAULT_TITLE;
}

// An attachment refused is the send refused, with the words that name the file and the limit.
async function refusing<T>(run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AttachmentError) throw new HostError('attachment_refused', error.message);
    throw error;
  }
}

// A chat's model: null (the settings' model) or an id as a provider lists it — one token of printable characters.
function modelField(value: unknown): string | null {
  if (value === null) return null;
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > MAX_MODEL_ID ||
    !/^[\x21-\x7e]+$/.test(value)
  )
    throw new HostError(
      'invalid_request',
      `"model" must be null or a model id of 1 to ${MAX_MODEL_ID} printable characters without spaces`,
    );
  return value;
}
