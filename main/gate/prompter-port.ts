// The ApprovalPrompter port (docs/security.md, "Decisions and rules"): the gate presents a batch, the host's prompter answers item by item.
import type { ApprovalRequest } from '../core/gate-port';
import type { GrantReach } from './call-site';

/** One call the user is asked about, with what the gate worked out for the prompt. */
export interface PromptItem {
  request: ApprovalRequest;
  /** The canonical argument string rules match (the command line for run_command). */
  canonical: string;
  /** The pattern "always allow/deny" would save: the exact command line for commands, null (any arguments) otherwise. */
  suggestedPattern: string | null;
  /** Why the call always asks (a sensitive target), or null. */
  sensitive: string | null;
  /** The compound operator of a command line that no standing approval covers, or null. */
  compound: string | null;
  /** Ids of allow rules that no longer apply because the tool's definition changed. */
  voidedRules: string[];
  /**
   * Why only a person's decision for this very call can allow it (it leaves the OS sandbox, or it is a tool of a
   * workspace the person has not trusted), or null. Such a call is never covered by a rule, a chat grant or a policy.
   */
  personOnly: string | null;
  /** Why no standing approval covers it although one could exist (e.g. no sandbox here for commands), or null. */
  noStanding: string | null;
  /** Which standing approvals can be offered: none for a sensitive target or a chained (compound) command line. */
  offers: { chat: boolean; always: boolean };
  /** What "allow for this chat" would cover (call-site.ts); absent: the whole tool. */
  grant?: GrantReach;
}

/** The user's answer to one item. */
export type PromptChoice =
  | { kind: 'allow_once' }
  | { kind: 'allow_chat' }
  /** `pattern` undefined uses the item's suggestion; null covers any arguments. */
  | { kind: 'allow_always'; pattern?: string | null }
  | { kind: 'deny_always'; pattern?: string | null; reason?: string }
  | { kind: 'deny'; reason?: string }
  | { kind: 'stop' };

/** One batch being decided. Answering one item may settle others (a chat grant or a rule that covers them too). */
export interface PromptSession {
  chatId: string;
  items: PromptItem[];
  /** Fires when the answer is no longer wanted: the time-out passed or the turn was cancelled. */
  signal: AbortSignal;
  /** Milliseconds the batch waits for answers, or null for no limit. */
  timeoutMs: number | null;
  /** Whether item `index` still needs an answer. */
  isPending(index: number): boolean;
  /** Records the answer for item `index` and applies its effect (grant, rule); resolves once saved. */
  answer(index: number, choice: PromptChoice): Promise<void>;
}

/** Something the user should be told outside a prompt. */
export type PromptNotice =
  | { kind: 'timed_out'; chatId: string; tools: string[]; afterMs: number }
  | { kind: 'rule_saved'; ruleId: string; tool: string; pattern: string | null; effect: 'allow' | 'deny' }
  | { kind: 'rule_not_saved'; tool: string; message: string }
  | { kind: 'settled'; chatId: string; tool: string; by: 'rule' | 'chat_grant'; allowed: boolean };

/** A host's way of asking the user: the terminal now, the desktop and browser dialogs with the app. */
export interface ApprovalPrompter {
  /** Presents the batch and answers pending items through `session.answer` until none is pending or the signal fires. */
  prompt(session: PromptSession): Promise<void>;
  /** Tells the user something happened (a time-out, a saved rule). */
  notify(notice: PromptNotice): void;
}
