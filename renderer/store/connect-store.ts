// The one module that listens to the bridge: it turns main's events into store actions, and resyncs after a reconnect.
import type { AppNotice, ChatEvent, Unsubscribe } from '../../preload/contract';
import { useAppStore } from './app-store';
import { getApi, getDialogApi } from '../boot/bridge';
import { frameBatcher } from './frame-batcher';
import { rememberedChat } from '../features/chat/location';
import type { Notice } from '../app/ui-slice';
import { t } from '../i18n/i18n';
import { formatNumber } from '../shared/format/intl-format';

/** Subscribes the store to every event channel of the page's surfaces; returns the unsubscribe. */
export function connectStore(): Unsubscribe {
  const store = useAppStore.getState;
  const api = getApi();
  const dialogs = getDialogApi();
  const offs: Unsubscribe[] = [];
  const text = frameBatcher<ChatEvent>((events) => store().receiveChatEvents(events));
  if (api) {
    offs.push(
      api.on('chat.event', (event) => {
        // Streamed text and reasoning are handed over per frame, in one queue so they keep their order.
        if (event.type === 'text.delta' || event.type === 'reasoning.delta') return text.push(event);
        // Everything else keeps its place after the text streamed before it.
        text.flush();
        store().receiveChatEvent(event);
      }),
      api.on('gate.event', (event) => {
        text.flush();
        store().receiveGateEvent(event);
      }),
      api.on('task.changed', (task) => store().taskChanged(task)),
      // Workspace tools came or went (or a folder was trusted): the untrusted-tools notice may change too.
      api.on('tools.changed', () => {
        void store().loadTools();
        void store().loadWorkspaceTrust();
      }),
      api.on('mcp.changed', (server) => store().mcpChanged(server)),
      api.on('rules.changed', () => void store().loadRules()),
      api.on('notice', (notice) => store().pushNotice(...noticeText(notice))),
      api.on('updates.changed', (view) => store().updatesChanged(view)),
      api.on('connection', (connection) => {
        const before = store().connection;
        store().setConnection(connection);
        if (connection.state === 'connected' && before.state !== 'connected') void resync();
      }),
    );
  }
  if (dialogs) offs.push(dialogs.onEvent((event) => store().dialogEvent(event)));
  return () => {
    text.dispose();
    for (const off of offs) off();
  };
}

/**
 * First load: the host, the settings (no provider chosen yet: the Welcome page), the chat list, tasks, open dialogs and
 * workspace trust, then the chat the URL names (or the newest).
 */
export async function loadApp(): Promise<void> {
  const store = useAppStore.getState();
  if (!getApi()) return store.loadDialogs();
  await Promise.all([
    store.loadAppInfo(),
    store.loadSettings(),
    store.loadChats(),
    store.loadTasks(),
    store.loadDialogs(),
    store.loadWorkspaceTrust(),
    store.loadUpdates(),
  ]);
  const wanted = rememberedChat() ?? useAppStore.getState().chats[0]?.id;
  if (wanted) await useAppStore.getState().openChat(wanted);
}

// After a reconnect nothing said in between is known: fetch it all again.
async function resync(): Promise<void> {
  const store = useAppStore.getState();
  await Promise.all([
    store.loadChats(),
    store.loadTasks(),
    store.loadDialogs(),
    store.loadWorkspaceTrust(),
    store.loadUpdates(),
  ]);
  await useAppStore.getState().refreshChat();
}

function noticeText(notice: AppNotice): [Notice['level'], string] {
  switch (notice.kind) {
    case 'approval_timed_out':
      return [
        'warn',
        t('notices.approvalTimedOut', {
          tools: notice.tools.join(', '),
          seconds: formatNumber(Math.round(notice.afterMs / 1000)),
        }),
      ];
    case 'rule_saved':
      return [
        'info',
        t('notices.ruleSaved', {
          effect: t(`rules.${notice.effect}`),
          tool: notice.tool,
          pattern: notice.pattern ? ` ${notice.pattern}` : '',
        }),
      ];
    case 'rule_not_saved':
      return ['error', t('notices.ruleNotSaved', { tool: notice.tool, message: notice.message })];
    case 'settled':
      return [
        'info',
        t(notice.by === 'rule' ? 'notices.settledRule' : 'notices.settledGrant', {
          tool: notice.tool,
          decision: t(notice.allowed ? 'notices.allowed' : 'notices.denied'),
        }),
      ];
    case 'secret_stored':
      return ['info', t('notices.secretStored', { key: notice.key })];
    case 'message':
      return [notice.level, notice.message];
  }
}
