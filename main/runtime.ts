// openRuntime: the one way every host opens the app (docs/architecture.md, "Hosts"). The parts are made in the order
// they depend on each other — the redactor and the chat store first, then the host's prompts (which may use both),
// the gate, the core and the chat runtime — so nothing is bound late and no host wires the core its own way.
import type { AskUserPort } from '../tools/sdk/chat-ports';
import type { ToolServices } from '../tools/sdk/types';
import type { Core, CoreOptions } from './app';
import { createCore } from './app';
import type { ChatRuntime } from './agent/chat-runtime';
import { openChatRuntime } from './agent/chat-runtime';
import type { CreateProviderOptions } from './agent/providers/create-provider';
import type { ProviderSettings } from './settings/settings';
import type { ToolFilter } from './agent/tool-exposure';
import { agenvoyPaths } from './core/paths';
import { Redactor } from './core/redactor';
import type { ConfirmGate } from './gate/confirm-gate';
import type { SecretPrompt } from './secrets/secret-prompt';
import type { SecretStore } from './secrets/secret-store';
import { chatStorePath, openChatStore } from './store';

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
export interface HostPrompts {
  gate: ConfirmGate;
  secretPrompt?: SecretPrompt;
  askUser?: AskUserPort;
  onSandboxUnavailable?: (reason: string) => void;
}

/** What a host provides. */
export interface RuntimePorts<H extends HostPrompts = HostPrompts> {
  home: string;
  /** The default workspace of new chats and of the core. */
  workspace: string;
  /** Builds the host's prompts (and whatever else of the host needs the parts) from the parts made first. */
  prompts: (parts: RuntimeParts) => H;
  /** The provider settings, read per turn. */
  settings: () => ProviderSettings;
  /** Which tools this host offers to the model. */
  offered: ToolFilter;
  /** Whether background tools and tasks run in this host. */
  background: boolean;
  mcp?: CoreOptions['mcp'];
  watchScripts?: boolean;
  homes?: string[];
  hostServices?: Partial<ToolServices>;
  providerOptions?: CreateProviderOptions;
  /** A prebuilt secret store (tests). */
  secrets?: SecretStore;
}

/** An open app: the core, the gate and the chats; close stops turns, tasks and processes, then the store. */
export interface Runtime<H extends HostPrompts = HostPrompts> {
  core: Core;
  gate: ConfirmGate;
  chats: ChatRuntime;
  /** What the host's `prompts` returned. */
  host: H;
  /** Stops every turn (waiting for each to commit, within a grace), cancels tasks, closes the core and the store. */
  close(): Promise<void>;
}

/** Opens the app for a host. */
export async function openRuntime<H extends HostPrompts>(ports: RuntimePorts<H>): Promise<Runtime<H>> {
  const redactor = ports.secrets?.redactor ?? new Redactor();
  const store = openChatStore(chatStorePath(agenvoyPaths(ports.home).desktop));
  const prompts = ports.prompts({
    redactor,
    chatTitle: (chatId) => store.chats.get(chatId)?.title ?? chatId,
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
    });
  } catch (error) {
    store.close();
    throw error;
  }
  let chats: ChatRuntime;
  try {
    chats = await openChatRuntime(core, {
      store,
      settings: ports.settings,
      offered: ports.offered,
      background: ports.background,
      gate: prompts.gate,
      ...(prompts.askUser ? { askUser: prompts.askUser } : {}),
      ...(ports.providerOptions ? { providerOptions: ports.providerOptions } : {}),
    });
  } catch (error) {
    store.close();
    await core.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    core,
    gate: prompts.gate,
    chats,
    host: prompts,
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
