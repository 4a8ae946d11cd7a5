// The turn engine (docs/agent-loop.md, "One turn"): up to 128 streamed rounds, tool calls through the three-pass executor, a final summary call.
import { createHash, randomUUID } from 'node:crypto';
import type { HealPort, ToolServices } from '../../tools/sdk/types';
import type { BatchExecutor } from '../core/batch-executor';
import type { CredentialHealer } from '../core/heal-budget';
import { HealBudget, MAX_HEAL_ROUNDS } from '../core/heal-budget';
import type { LoadedSchemas } from '../core/loaded-schemas';
import type { AppLogger } from '../core/logger';
import { outcomeText } from '../core/outcome';
import type { Redactor } from '../core/redactor';
import type { ToolRegistry } from '../core/registry';
import { Emitter } from '../core/emitter';
import type { ProviderSource } from './provider-source';
import { healProviderKey } from './provider-source';
import type { Provider, ReasoningRequest, TokenUsage } from './providers/provider';
import { ProviderError } from './providers/provider';
import type { ModelPrice } from '../settings/model-prices';
import { costOf } from '../settings/model-prices';
import { streamRound } from './stream-round';
import { systemPrompt } from './system-prompt';
import type { ToolFilter } from './tool-exposure';
import { toolDeclarations } from './tool-exposure';
import type { ToolResultPart, UserPart } from '../store/transcript';
import { scrubbedContent } from './scrub-content';
import { withinImageBudget } from './image-budget';
import type { TurnEvent, TurnStatus } from './turn-events';
import type { TurnPersistence } from './turn-persistence';

/** The most model rounds in one user turn. */
export const MAX_ROUNDS = 128;

/** What the engine works with. */
export interface TurnEngineDeps {
  registry: ToolRegistry;
  schemas: LoadedSchemas;
  executor: BatchExecutor;
  redactor: Redactor;
  log: AppLogger;
  persistence: TurnPersistence;
  provider: ProviderSource;
  model: string;
  healer: CredentialHealer | null;
  /** Which tools this host offers. */
  offered: ToolFilter;
  /** Whether this host offers background tools (for the system prompt). */
  background: boolean;
  /** Host services for this chat (askUser, chat port). */
  services?: ToolServices;
  maxRounds?: number;
  /** Makes a model's call id unique in the chat (some servers reuse ids every round). */
  claimCallId?: (id: string) => string;
  /** The per-call limit on tool arguments (settings.json `limits.toolArgumentsBytes`); default 1 MiB. */
  toolArgumentsBytes?: number;
  /** Reasoning to ask for in every round of the turn; absent: none. */
  reasoning?: ReasoningRequest;
  /** The price table's row for a model (a round's cost); absent or null: the cost is unknown. */
  priceFor?: (model: string) => ModelPrice | null;
}

/** How a turn ended. */
export interface TurnResult {
  status: TurnStatus;
  /** The final answer text (the last assistant text). */
  text: string;
  rounds: number;
  error?: string;
}

/** Runs user turns for chats and emits committed TurnEvents. */
export class TurnEngine {
  private readonly events = new Emitter<TurnEvent>();

  constructor(private readonly deps: TurnEngineDeps) {}

  /** Subscribes to turn events; returns the unsubscribe. */
  on(listener: (event: TurnEvent) => void): () => void {
    return this.events.on(listener);
  }

  /** Runs one user turn in `chatId`. Never throws for model or tool failures: they end the turn with a status. */
  async run(
    chatId: string,
    userText: string,
    options: {
      workspace: string;
      signal?: AbortSignal;
      attachments?: UserPart[];
      /** The budget of a parent turn this one is a subagent of (docs/secrets.md, "Credential auto-heal"). */
      heal?: HealPort;
    },
  ): Promise<TurnResult> {
    const turnId = randomUUID();
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const { persistence } = this.deps;
    const heal = options.heal ?? new HealBudget();
    this.emit({ type: 'turn.started', chatId, turnId });
    // Attachments (images, files the person gave) follow the typed text in the same user message.
    persistence.appendUser(
      chatId,
      this.deps.redactor.redactDeep([{ type: 'text', text: userText }, ...(options.attachments ?? [])]),
    );
    this.emit({ type: 'message.user', chatId, text: this.deps.redactor.redact(userText) });
    let lastText = '';
    let rounds = 0;
    const finish = (status: TurnStatus, error?: string): TurnResult => {
      options.signal?.removeEventListener('abort', onAbort);
      const result: TurnResult =
        error === undefined ? { status, text: lastText, rounds } : { status, text: lastText, rounds, error };
      this.emit({ type: 'turn.finished', chatId, turnId, ...result });
      return result;
    };
    const maxRounds = this.deps.maxRounds ?? MAX_ROUNDS;
    for (let round = 1; round <= maxRounds + 1; round++) {
      const summary = round > maxRounds;
      if (controller.signal.aborted) return finish('cancelled');
      const provider = await this.provider(chatId, heal, controller.signal);
      if ('error' in provider)
        return finish(controller.signal.aborted ? 'cancelled' : 'failed', provider.error);
      rounds = round;
      const outcome = await this.round(
        chatId,
        round,
        provider.provider,
        controller.signal,
        options.workspace,
        summary,
      );
      if (outcome.text) lastText = outcome.text;
      switch (outcome.kind) {
        case 'cancelled':
          return finish('cancelled');
        case 'auth': {
          const key = this.deps.provider.keyName;
          if (
            key &&
            heal.take(`provider:${key}`) &&
            (await healProviderKey(this.deps.healer, key, 'rejected', chatId, controller.signal))
          ) {
            round--;
            continue;
          }
          return finish('failed', `${outcome.error} (the API key ${key ?? ''} was rejected)`);
        }
        case 'failed':
          return finish('failed', outcome.error);
        case 'answered':
          return finish('completed');
        case 'tools': {
          const results = await this.deps.executor.run(outcome.calls, {
            chatId,
            workspace: options.workspace,
            signal: controller.signal,
            lazy: { chatId, schemas: this.deps.schemas },
            offered: this.deps.offered,
            heal,
            services: this.deps.services,
            stopTurn: () => controller.abort(),
          });
          const parts: ToolResultPart[] = results.map((r) => ({
            callId: r.callId,
            name: r.tool,
            content:
              r.outcome.outcome === 'ok'
                ? r.outcome.content
                : [{ type: 'text', text: outcomeText(r.outcome) }],
            isError: r.outcome.outcome !== 'ok',
          }));
          // Results are keyed by the model's call ids, so the transcript stays valid even after a stop.
          persistence.appendToolResults(chatId, parts);
          if (controller.signal.aborted) return finish('cancelled');
          break;
        }
      }
    }
    return finish('completed');
  }

  private async provider(
    chatId: string,
    heal: HealPort,
    signal: AbortSignal,
  ): Promise<{ provider: Provider } | { error: string }> {
    for (;;) {
      const got = await this.deps.provider.get();
      if (!('missingKey' in got)) return { provider: got };
      const key = got.missingKey;
      if (!heal.take(`provider:${key}`)) {
        return { error: `the model API key ${key} is missing (asked ${MAX_HEAL_ROUNDS} times this turn)` };
      }
      if (!(await healProviderKey(this.deps.healer, key, 'missing', chatId, signal))) {
        return { error: `the model API key ${key} is missing: store it with \`agenvoy secrets set ${key}\`` };
      }
    }
  }

  private async round(
    chatId: string,
    round: number,
    provider: Provider,
    signal: AbortSignal,
    workspace: string,
    summary: boolean,
  ) {
    const { persistence, redactor } = this.deps;
    const messages = withinImageBudget(persistence.transcript(chatId));
    if (summary) {
      messages.push({
        role: 'user',
        content: [
          {
            type: 'text',
            text: `The limit of ${this.deps.maxRounds ?? MAX_ROUNDS} tool rounds for this turn is reached. Summarise what was done and what is left, without calling tools.`,
          },
        ],
      });
    }
    const tools = summary
      ? []
      : toolDeclarations(this.deps.registry, this.deps.schemas, chatId, this.deps.offered);
    persistence.markNotesSeen(chatId);
    const messageId = persistence.beginAssistant(chatId);
    this.emit({ type: 'message.started', chatId, messageId, round });
    // Deltas are redacted as one stream: a secret split across deltas is held back until it can be scrubbed whole.
    const textStream = redactor.stream();
    const reasoningStream = redactor.stream();
    const emitText = (delta: string) => {
      if (delta !== '') this.emit({ type: 'text.delta', chatId, messageId, delta });
    };
    const emitReasoning = (delta: string) => {
      if (delta !== '') this.emit({ type: 'reasoning.delta', chatId, messageId, delta });
    };
    const result = await streamRound(
      provider,
      {
        model: this.deps.model,
        system: systemPrompt({ workspace, now: new Date(), background: this.deps.background }),
        messages,
        tools,
        signal,
        cacheKey: promptCacheKey(chatId),
        ...(this.deps.reasoning && !summary ? { reasoning: this.deps.reasoning } : {}),
      },
      {
        // Raw content: the persistence redacts what it actually writes (at most every 250 ms), not every delta.
        checkpoint: (content, now) => persistence.checkpointAssistant(messageId, content, now),
        onText: (delta) => emitText(textStream.push(delta)),
        onReasoning: (delta) => emitReasoning(reasoningStream.push(delta)),
        onNotice: (message) =>
          this.emit({ type: 'notice', chatId, level: 'warn', message: shortened(redactor.redact(message)) }),
        onToolCall: (call) =>
          this.emit({
            type: 'tool.call',
            chatId,
            callId: call.id,
            name: call.name,
            args: redactor.redact(call.args),
          }),
      },
      { toolArgumentsBytes: this.deps.toolArgumentsBytes },
    );
    emitText(textStream.end());
    emitReasoning(reasoningStream.end());
    this.recordUsage(chatId, messageId, round, result.usage);
    const claimInChat = this.deps.claimCallId ?? ((id: string) => id);
    // Unique in the chat (the store's claim) and within this answer: two calls of one answer under one id were each
    // run, then recorded and answered as one, both "interrupted" (main/cli/duplicate-call-id-attack.test.ts).
    const claimed = new Set<string>();
    const claim = (id: string): string => {
      let candidate = claimInChat(id);
      for (let n = 2; claimed.has(candidate); n++) candidate = claimInChat(`${id || 'call'}_${n}`);
      claimed.add(candidate);
      return candidate;
    };
    // The summary round declares no tools: a call streamed anyway never runs, and kept it would be answered as
    // "interrupted … may or may not have run" in every later request (main/agent/summary-call-attack.test.ts).
    const content = scrubbedContent(result.content, redactor)
      .filter((part) => !(summary && part.type === 'tool_call'))
      .map((part) => (part.type === 'tool_call' ? { ...part, id: claim(part.id) } : part));
    const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    switch (result.kind) {
      case 'cancelled':
        persistence.finishAssistant(messageId, content, 'cancelled');
        this.emit({ type: 'message.finished', chatId, messageId, status: 'cancelled' });
        return { kind: 'cancelled' as const, text };
      case 'failed': {
        persistence.finishAssistant(messageId, content, 'cut');
        this.emit({ type: 'message.finished', chatId, messageId, status: 'cut' });
        // A cut wraps the failure that caused it (a stall, a broken socket): name that one, once.
        const cause: unknown = result.error.cause;
        const error =
          result.error.kind === 'stream_cut'
            ? `the model's stream was cut: ${cause instanceof ProviderError ? cause.message : result.error.message}; the partial answer is kept`
            : result.error.message;
        if (result.error.kind === 'auth')
          return { kind: 'auth' as const, text, error: redactor.redact(error) };
        return { kind: 'failed' as const, text, error: redactor.redact(error) };
      }
      case 'complete':
        persistence.finishAssistant(messageId, content, 'complete');
        this.emit({ type: 'message.finished', chatId, messageId, status: 'complete' });
        if (result.toolCalls.length === 0 || summary) return { kind: 'answered' as const, text };
        return {
          kind: 'tools' as const,
          text,
          calls: content.flatMap((c) =>
            c.type === 'tool_call'
              ? [{ id: c.id, name: c.name, args: c.args, ...(c.tooLarge ? { tooLarge: c.tooLarge } : {}) }]
              : [],
          ),
        };
    }
  }

  /** Stores a round's usage with its cost, and says it (docs/agent-loop.md, "Usage and cost"). */
  private recordUsage(chatId: string, messageId: number, round: number, usage: TokenUsage): void {
    const model = this.deps.model;
    const costUsd = costOf(this.deps.priceFor?.(model) ?? null, usage);
    this.deps.persistence.recordUsage({ chatId, messageId, round, model, usage, costUsd });
    this.emit({ type: 'usage', chatId, messageId, round, model, usage: { ...usage }, costUsd });
  }

  private emit(event: TurnEvent): void {
    this.events.emit(event);
  }
}

/** The most characters of a notice built from a server's words. */
const NOTICE_CHARS = 600;

/** A scrubbed notice cut to NOTICE_CHARS (scrubbed first: a cut inside a secret would leave a piece of it). */
function shortened(text: string): string {
  return text.length > NOTICE_CHARS ? `${text.slice(0, NOTICE_CHARS)}…` : text;
}

/** The chat's prompt-cache key: stable for the chat, and not its id (docs/agent-loop.md, "Prompt caching"). */
function promptCacheKey(chatId: string): string {
  return `agenvoy-${createHash('sha256').update(chatId).digest('hex').slice(0, 32)}`;
}
