// openRuntime: the one way every host opens the app (docs/architecture.md, "Hosts"). The parts are made in the order
// they depend on each other — the redactor and the chat store first, then the host's prompts (which may use both),
// the gate, the core and the chat runtime — so nothing is bound late and no host wires the core its own way.
import type { AskUserPort } from '../tools/sdk/chat-ports';
import type { ToolServices } from '../tools/sdk/types';
import type { Core, CoreOptions } from './app';
import { createCore } from './app';
import type { ChatRuntime } from './agent/chat-runtime';
import type { CreateProviderOptions } from './agent/providers/create-provider';
import type { ProviderSettings } from './settings/settings';
import type { ToolFilter } from './agent/tool-exposure';
import { agenvoyPaths } from './core/paths';
import { Redactor } from './core/redactor';
import type { ApprovalGate } from './core/gate-port';
import type { ConfirmGate } from './gate/confirm-gate';
import type { SecretPrompt } from './secrets/secret-prompt';
import type { SecretStore } from './secrets/secret-store';

/** What the host's prompts may use: made before the prompts, so they never wait for the core. */
export interface RuntimeParts {
  redactor: Redactor;
  /** A chat's title (its id when unknown), for prompts that name the chat asking. */
  chatTitle: (chatId: string) => string;
}

/**
 * How the host asks its person: the gate with its prompter, the masked secret prompt, ask_user, and where a missing
 * sandbox is said. A host may return more (its dialogs, its event emitter): it gets the whole object back as `host`.
 */
export interface HostPrompts<G extends ApprovalGate = ConfirmGate> {
  gate: G;
  secretPrompt?: SecretPrompt;
  askUser?: AskUserPort;
  onSandboxUnavailable?: (reason: string) => void;
}

/** What a host provides. */
export interface RuntimePorts<H extends HostPrompts<ApprovalGate>> {
  home: string;
  /** The default workspace of new chats and of the core. */
  workspace: string;
  /** Builds the host's prompts (and whatever else of the host needs the parts) from the parts made first. */
  prompts: (parts: RuntimeParts) => H;
  mcp?: CoreOptions['mcp'];
  watchScripts?: boolean;
  homes?: string[];
  hostServices?: Partial<ToolServices>;
  /** Tools only this host offers (mcp serve's authoring helpers). */
  hostTools?: CoreOptions['hostTools'];
  /** A prebuilt secret store (tests). */
  secrets?: SecretStore;
  /** The chat side; left out by hosts that only run tools (`agenvoy tools`, `rules`, `mcp serve`). */
  chat?: ChatPorts;
}

/** What a host that chats adds. */
export interface ChatPorts {
  /** The provider settings, read per turn. */
  settings: () => ProviderSettings;
  /** Which tools this host offers to the model. */
  offered: ToolFilter;
  /** Whether background tools and tasks run in this host. */
  background: boolean;
  providerOptions?: CreateProviderOptions;
}

/** An open app that runs tools: the core and the gate; close cancels tasks and stops every process. */
export interface ToolRuntime<H extends HostPrompts<ApprovalGate> = HostPrompts> {
  core: Core;
  gate: H['gate'];
  /** What the host's `prompts` returned. */
  host: H;
  close(): Promise<void>;
}

/** An open app that chats: the core, the gate and the chats; close stops turns, tasks and processes, then the store. */
export interface Runtime<H extends HostPrompts = HostPrompts> extends ToolRuntime<H> {
  chats: ChatRuntime;
  /** Stops every turn (waiting for each to commit, within a grace), cancels tasks, closes the core and the store. */
  close(): Promise<void>;
}

/** Opens the app for a host: with `chat`, the chats too. */
export async function openRuntime<H extends HostPrompts>(
  ports: RuntimePorts<H> & { chat: ChatPorts },
): Promise<Runtime<H>>;
export async function openRuntime<H extends HostPrompts<ApprovalGate>>(
  ports: RuntimePorts<H>,
): Promise<ToolRuntime<H>>;
export async function openRuntime<H extends HostPrompts<ApprovalGate>>(
  ports: RuntimePorts<H>,
): Promise<ToolRuntime<H> | Runtime<HostPrompts>> {
  const redactor = ports.secrets?.redactor ?? new Redactor();
  // The store and the chat side load only in a host that chats (docs/hosts.md, "Fast start").
  const chatModules = ports.chat
    ? await Promise.all([import('./store'), import('./agent/chat-runtime')])
    : null;
  // A chatting host opens the store first, so its prompts can name the chat asking.
  const store = chatModules
    ? chatModules[0].openChatStore(chatModules[0].chatStorePath(agenvoyPaths(ports.home).desktop))
    : null;
  const prompts = ports.prompts({
    redactor,
    chatTitle: (chatId) => store?.chats.get(chatId)?.title ?? chatId,
  });
  let core: Core;
  try {
    core = await createCore({
      home: ports.home,
      workspace: ports.workspace,
      gate: prompts.gate,
      redactor,
      ...(prompts.secretPrompt ? { secretPrompt: prompts.secretPrompt } : {}),
      ...(ports.watchScripts === undefined ? {} : { watchScripts: ports.watchScripts }),
      ...(ports.mcp ? { mcp: ports.mcp } : {}),
      ...(ports.homes ? { homes: ports.homes } : {}),
      ...(prompts.onSandboxUnavailable ? { onSandboxUnavailable: prompts.onSandboxUnavailable } : {}),
      ...(ports.hostServices ? { hostServices: ports.hostServices } : {}),
      ...(ports.secrets ? { secrets: ports.secrets } : {}),
      ...(ports.hostTools ? { hostTools: ports.hostTools } : {}),
    });
  } catch (error) {
    store?.close();
    throw error;
  }
  if (!ports.chat || !store || !chatModules) {
    let closing: Promise<void> | null = null;
    return {
      core,
      gate: prompts.gate,
      host: prompts,
      close() {
        closing ??= (async () => {
          await core.tasks.cancelAll();
          await core.close();
        })();
        return closing;
      },
    };
  }
  const chat = ports.chat;
  let chats: ChatRuntime;
  try {
    chats = await chatModules[1].openChatRuntime(core, {
      store,
      settings: chat.settings,
      offered: chat.offered,
      background: chat.background,
      gate: prompts.gate as unknown as ConfirmGate,
      ...(prompts.askUser ? { askUser: prompts.askUser } : {}),
      ...(chat.providerOptions ? { providerOptions: chat.providerOptions } : {}),
    });
  } catch (error) {
    store.close();
    await core.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    core,
    gate: prompts.gate as unknown as ConfirmGate,
    chats,
    host: prompts as unknown as HostPrompts,
    close() {
      closing ??= (async () => {
        await chats.service.stopAll();
        // Tasks are cancelled while the store is open, so they are recorded as cancelled, not interrupted.
        await core.tasks.cancelAll();
        chats.close();
        await core.close();
      })();
      return closing;
    },
  };
}
