// Opens what a host needs to chat: the store (recovering from a crash), the chat service, gate events persisted.
import type { AskUserPort } from '../../tools/sdk/chat-ports';
import type { ChatCore } from './chat-core';
import type { ConfirmGate } from '../gate/confirm-gate';
import type { GateEvent } from '../gate/gate-events';
import type { ChatStore } from '../store';
import { chatStorePath, openChatStore } from '../store';
import { recoverFromCrash } from './chat-persistence';
import { ChatService } from './chat-service';
import type { CreateProviderOptions } from './providers/create-provider';
import type { ProviderSettings } from '../settings/settings';
import type { ToolFilter } from './tool-exposure';

/** The chat side of a host. */
export interface ChatRuntime {
  store: ChatStore;
  service: ChatService;
  /** What start-up recovered from an unclean shutdown. */
  recovered: { tasks: number; groupsKilled: number };
  close(): void;
}

/** Opens the store under the core's desktop folder, recovers leftovers, and builds the chat service. */
export async function openChatRuntime(
  core: ChatCore,
  options: {
    settings: () => ProviderSettings;
    offered: ToolFilter;
    background: boolean;
    gate?: ConfirmGate;
    askUser?: AskUserPort;
    providerOptions?: CreateProviderOptions;
    /** The chat store, when the host opened it first; else it is opened here under the core's desktop folder. */
    store?: ChatStore;
  },
): Promise<ChatRuntime> {
  const store = options.store ?? openChatStore(chatStorePath(core.paths.desktop));
  const recovered = await recoverFromCrash(store, core);
  const service = new ChatService({
    core,
    store,
    settings: options.settings,
    healer: core.healer,
    askUser: options.askUser,
    offered: options.offered,
    background: options.background,
    getSecret: (key) => core.secrets.get(key),
    providerOptions: options.providerOptions,
  });
  const offGate = options.gate?.on((event) => recordGateEvent(store, event, core)) ?? (() => {});
  return {
    store,
    service,
    recovered,
    close() {
      offGate();
      service.close();
      store.close();
    },
  };
}

function recordGateEvent(store: ChatStore, event: GateEvent, core: ChatCore): void {
  if (!store.chats.get(event.chatId)) return;
  try {
    switch (event.type) {
      case 'gate.requested':
        for (const call of event.calls) {
          store.approvals.requested({
            chatId: event.chatId,
            callId: call.callId,
            tool: call.tool,
            definitionHash: core.registry.get(call.tool)?.definitionHash,
          });
        }
        break;
      case 'gate.decided':
        store.approvals.decided(event.chatId, event.callId, event.decision, {
          timedOut: event.by === 'timeout',
        });
        break;
      case 'gate.asking':
      case 'gate.timed_out':
        break;
    }
  } catch (error) {
    core.log.warn('could not record approval', { error: (error as Error).message });
  }
}
