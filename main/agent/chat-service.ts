// The chat service: runs turns for chats over the core and the store; one per host process.
import type { AskUserPort, SubagentPort } from '../../tools/sdk/chat-ports';
import type { HealPort, ToolServices } from '../../tools/sdk/types';
import type { ChatCore } from './chat-core';
import { Emitter } from '../core/emitter';
import type { CredentialHealer } from '../core/heal-budget';
import type { ChatRecord, ChatStore } from '../store';
import { storeChatPort } from './chat-port';
import { persistCoreEvents } from './chat-persistence';
import { providerSource } from './provider-source';
import type { CreateProviderOptions } from './providers/create-provider';
import { createProvider } from './providers/create-provider';
import type { ProviderSettings } from '../settings/settings';
import { readSettings } from '../settings/settings-file';
import { priceFor, priceTable } from '../settings/model-prices';
import type { ReasoningLevel } from '../core/model-usage';
import type { ReasoningRequest } from './providers/provider';
import { streamLimits } from './turn-limits';
import { storePersistence } from './store-persistence';
import { childOffer } from './host-offers';
import { offeredCatalog } from './offered-catalog';
import type { ToolFilter } from './tool-exposure';
import type { TurnResult } from './turn-engine';
import { TurnEngine } from './turn-engine';
import type { TurnEvent } from './turn-events';
import type { UserPart } from '../store/transcript';

/** What a host gives the chat service. */
export interface ChatServiceOptions {
  core: ChatCore;
  store: ChatStore;
  settings: () => ProviderSettings;
  healer: CredentialHealer | null;
  askUser?: AskUserPort;
  /** Which tools this host offers to the model. */
  offered: ToolFilter;
  background: boolean;
  getSecret: (key: string) => Promise<string | undefined>;
  providerOptions?: CreateProviderOptions;
  maxRounds?: number;
}

/** Anthropic's thinking budget for each level, unless settings.json sets `thinkingBudgetTokens`. */
const THINKING_BUDGETS = { low: 2048, medium: 8192, high: 24_576 } as const;

/** A turn's reasoning request (docs/agent-loop.md, "Reasoning"): none when off. */
function reasoningOf(
  level: ReasoningLevel,
  settings: { thinkingBudgetTokens: number | null },
): { reasoning?: ReasoningRequest } {
  if (level === 'off') return {};
  return { reasoning: { level, budgetTokens: settings.thinkingBudgetTokens ?? THINKING_BUDGETS[level] } };
}

/** Runs turns, keeps one in flight per chat, and emits every committed event. */
export class ChatService {
  private readonly events = new Emitter<TurnEvent>();
  // Each running turn: its controller, and `done`, settled once the turn has committed its end (what stopAll awaits).
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly warned = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: ChatServiceOptions) {
    this.unsubscribe = persistCoreEvents(options.core, options.store, (event) => this.events.emit(event));
  }

  /** Subscribes to every chat's events; returns the unsubscribe. */
  on(listener: (event: TurnEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** Creates a chat working in `workspace`; a key in its title is scrubbed (docs/security.md, "Redaction"). */
  createChat(input: { title?: string; workspace: string; id?: string }): ChatRecord {
    return this.options.store.chats.create({
      title: this.options.core.redactor.redact(input.title ?? 'New chat'),
      workspace: input.workspace,
      ...(input.id ? { id: input.id } : {}),
    });
  }

  /**
   * Runs one user turn; a chat runs one turn at a time. `attachments` are the parts that follow the text (checked and
   * saved in the chat's workspace by the host first: main/agent/attachments.ts).
   */
  async send(
    chatId: string,
    text: string,
    signal?: AbortSignal,
    attachments: UserPart[] = [],
  ): Promise<TurnResult> {
    return this.runTurn(chatId, text, signal, false, attachments);
  }

  /**
   * Stops every running turn and waits until each has committed its cancelled state, at most `graceMs` (a turn whose
   * provider ignores the abort is left behind rather than holding up quitting).
   */
  async stopAll(graceMs = 3000): Promise<void> {
    const turns = [...this.running.values()].map((turn) => {
      turn.controller.abort();
      return turn.done;
    });
    if (turns.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref?.();
    });
    await Promise.race([Promise.all(turns), grace]);
    clearTimeout(timer);
  }

  /** The SubagentPort: each subtask runs as a turn of its own child chat, with the child's tool set (docs/agent-loop.md, "Child chats"). */
  private readonly subagents: SubagentPort = {
    run: async (parentChatId, task, signal, heal) => {
      const parent = this.options.store.chats.get(parentChatId);
      const child = this.createChat({
        title: `↳ ${task.title}`,
        workspace: parent?.workspace ?? this.options.core.workspace,
      });
      // The child's turn draws on its parent turn's heal budget: ten subagents are not ten budgets of prompts.
      const result = await this.runTurn(child.id, task.prompt, signal, true, [], heal);
      return result.error === undefined
        ? { chatId: child.id, status: result.status, text: result.text }
        : { chatId: child.id, status: result.status, text: result.text, error: result.error };
    },
  };

  private async runTurn(
    chatId: string,
    text: string,
    signal: AbortSignal | undefined,
    child: boolean,
    attachments: UserPart[] = [],
    heal?: HealPort,
  ): Promise<TurnResult> {
    const { core, store } = this.options;
    const chat = store.chats.get(chatId);
    if (!chat) throw new Error(`no chat with id ${chatId}`);
    if (this.running.has(chatId)) throw new Error(`chat ${chatId} is already running a turn`);
    const controller = new AbortController();
    const forward = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    let finished: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finished = resolve));
    this.running.set(chatId, { controller, done });
    core.schemas.restore(chatId, store.schemas.get(chatId));
    const settings = this.options.settings();
    // Read per turn, so an edit of settings.json applies to the next turn; a bad value is named and its default used.
    const { limits, warnings, ...fromFile } = readSettings(core.paths.settings);
    this.warn(
      chatId,
      warnings.map((warning) => warning.text),
    );
    const providerOptions = {
      ...this.options.providerOptions,
      limits: { ...streamLimits(limits), ...this.options.providerOptions?.limits },
    };
    const offered: ToolFilter = child
      ? (tool) => this.options.offered(tool) && childOffer(tool)
      : this.options.offered;
    const services: ToolServices = {
      chat: storeChatPort(store, (event) => this.events.emit(event)),
      // find_tools lists, finds and loads only what this chat can call (docs/hosts.md, "What each host offers").
      catalog: offeredCatalog(core.catalog, core.registry, offered),
      ...(this.options.askUser && !child ? { askUser: this.options.askUser } : {}),
      ...(child ? {} : { subagents: this.subagents }),
    };
    const engine = new TurnEngine({
      registry: core.registry,
      schemas: core.schemas,
      executor: core.executor,
      redactor: core.redactor,
      log: core.log,
      persistence: storePersistence(store, core.redactor),
      provider: providerSource(settings.apiKeyName, this.options.getSecret, (key) =>
        createProvider(settings, key, providerOptions),
      ),
      // The chat's own model when it picked one (docs/agent-loop.md, "The model of a chat").
      model: chat.model ?? settings.model,
      healer: this.options.healer,
      offered,
      background: this.options.background && !child,
      services,
      maxRounds: this.options.maxRounds,
      claimCallId: (id) => uniqueCallId(store, chatId, id),
      toolArgumentsBytes: limits.toolArgumentsBytes,
      ...reasoningOf(chat.reasoning === 'default' ? fromFile.reasoning : chat.reasoning, fromFile),
      priceFor: (model) => priceFor(priceTable(fromFile.prices), model),
    });
    const off = engine.on((event) => this.events.emit(event));
    try {
      return await engine.run(chatId, text, {
        workspace: chat.workspace,
        signal: controller.signal,
        attachments,
        ...(heal ? { heal } : {}),
      });
    } finally {
      off();
      store.schemas.set(chatId, core.schemas.loaded(chatId));
      signal?.removeEventListener('abort', forward);
      this.running.delete(chatId);
      finished();
    }
  }

  // Each settings warning once per service: in the log, and as a notice the chat shows.
  private warn(chatId: string, warnings: string[]): void {
    for (const message of warnings) {
      if (this.warned.has(message)) continue;
      this.warned.add(message);
      this.options.core.log.warn('settings value ignored', { warning: message });
      this.events.emit({ type: 'notice', chatId, level: 'warn', message });
    }
  }

  /** Stops a chat's running turn; false when none runs. */
  cancel(chatId: string): boolean {
    const turn = this.running.get(chatId);
    if (!turn) return false;
    turn.controller.abort();
    return true;
  }

  /** Whether a chat has a turn in flight. */
  isRunning(chatId: string): boolean {
    return this.running.has(chatId);
  }

  /** Stops every turn and stops listening to the core. */
  close(): void {
    for (const turn of this.running.values()) turn.controller.abort();
    this.unsubscribe();
  }
}

// Some local servers reuse ids like "call_0" every round; the store and the transcript need them unique per chat.
function uniqueCallId(store: ChatStore, chatId: string, id: string): string {
  let candidate = id || 'call';
  for (let n = 2; store.toolCalls.get(chatId, candidate); n++) candidate = `${id || 'call'}_${n}`;
  return candidate;
}
