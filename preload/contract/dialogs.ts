// The IPC contract, part: Dialogs: approval, secret, question (the DialogApi). Types only; preload/contract.ts re-exports every part.
import type { Result, Unsubscribe } from './result';
import type { ToolFlagsView, ToolSourceView } from './views';
import type { Api } from './channels';

// ---------------------------------------------------------------------------------------------------------
// Dialogs: approval, secret, question

/** One call in an approval dialog, with everything the user is shown (docs/security.md, "Decisions and rules"). */
/** How a call that starts processes would run (docs/security.md). */
export type CallSandboxView = 'none' | 'sandboxed' | 'unconfined_requested' | 'unconfined_unavailable';

/** One call of an approval dialog. */
export interface ApprovalItemView {
  /** Position in the batch; answers name it. */
  index: number;
  callId: string;
  tool: string;
  source: ToolSourceView;
  flags: ToolFlagsView;
  timeoutMs: number | null;
  /** The full arguments as pretty (redacted) JSON. */
  args: string;
  /** The canonical argument rules match (the command line for run_command). */
  canonical: string;
  /** The pattern "always allow/deny" saves when no other is given: the exact command line, or null (any arguments). */
  suggestedPattern: string | null;
  /** Why the call always asks (a sensitive target), or null. */
  sensitive: string | null;
  /** The compound operator no standing approval covers (`&&`, `|`…), or null. */
  compound: string | null;
  /** Rules that no longer apply because the tool's definition changed. */
  voidedRules: string[];
  /** How the call would run: in the OS sandbox, unconfined on request (`sandbox: false`), unconfined for want of one, or 'none' (it starts no process). */
  sandbox: CallSandboxView;
  /** Why only a decision for this very call can allow it (it leaves the sandbox, or an untrusted workspace tool), or null. */
  personOnly: string | null;
  /** Why no standing approval covers it (e.g. commands with no sandbox here), or null. */
  noStanding: string | null;
  /** Which standing approvals may be offered (none for a sensitive target). */
  offers: { chat: boolean; always: boolean };
  /**
   * What "allow for this chat" covers: the call's site, the program a command line runs (and the sites its words
   * name), or the whole tool (docs/security.md, "Data leaving the machine").
   */
  grant: GrantReachView;
}

/** The reach of a chat grant, as the dialog names it. */
export type GrantReachView =
  { kind: 'site'; site: string } | { kind: 'program'; program: string; sites: string[] } | { kind: 'tool' };

/** The user's answer for one approval item (docs/security.md, "Decisions and rules"). */
export type ApprovalChoice =
  | { kind: 'allow_once' }
  | { kind: 'allow_chat' }
  /** `pattern` left out saves the item's suggestion; null covers any arguments. */
  | { kind: 'allow_always'; pattern?: string | null }
  | { kind: 'deny_always'; pattern?: string | null; reason?: string }
  /** `reason` is sent to the model. */
  | { kind: 'deny'; reason?: string }
  | { kind: 'stop' };

/** One ask_user question. */
export interface QuestionView {
  id: string;
  prompt: string;
  /** text: free answer; single: one of options; multiple: any of options. */
  kind: 'text' | 'single' | 'multiple';
  options: string[];
}

/** A dialog main wants answered. */
export type DialogRequest =
  | {
      kind: 'approval';
      id: string;
      chatId: string;
      chatTitle: string;
      items: ApprovalItemView[];
      /** Indexes still to answer (answering one may settle others: a chat grant or a rule covers them). */
      pending: number[];
      /** null: no time-out. */
      timeoutMs: number | null;
      openedAt: number;
    }
  | {
      kind: 'secret';
      id: string;
      /** The key name; the password field is labelled with it. */
      key: string;
      /** Why it is asked. */
      question: string;
      /** The tool that needs it, when one does. */
      forTool: string | null;
      openedAt: number;
    }
  | {
      kind: 'question';
      id: string;
      chatId: string;
      chatTitle: string;
      questions: QuestionView[];
      openedAt: number;
    }
  | {
      /** Trust a folder's workspace tools (docs/security.md): main asks, the chat window cannot trust by itself. */
      kind: 'trust';
      id: string;
      /** The folder's real path: what trust is keyed by. */
      folder: string;
      /** The workspace tools that folder holds now, and what trusting them gives each. */
      tools: TrustToolView[];
      openedAt: number;
    };

/** A workspace tool as the trust dialog shows it. */
export interface TrustToolView {
  name: string;
  /** It declares always_allow: once trusted it runs without asking. */
  alwaysAllow: boolean;
  /** The secrets it declares: once trusted it receives them. */
  secrets: string[];
  /** For a folder trusted before: `new` or `changed` since then (null: unchanged, or the folder was never trusted). */
  change: 'new' | 'changed' | null;
}

/** The answer to a trust dialog. */
export type TrustAnswer = { kind: 'trust' } | { kind: 'cancel' };

/** The answer to a secret dialog: the value (sent once, stored by main, never echoed) or cancel. */
export type SecretAnswer = { kind: 'value'; value: string } | { kind: 'cancel' };

/** The answer to an ask_user dialog. */
export type QuestionAnswer =
  { kind: 'answered'; answers: Record<string, string | string[]> } | { kind: 'dismissed'; reason?: string };

/** Why a dialog closed. */
export type DialogCloseReason = 'answered' | 'timed_out' | 'cancelled';

/** Dialog lifecycle. */
export type DialogEvent =
  | { type: 'dialog.opened'; dialog: DialogRequest }
  /** An approval dialog's remaining items changed. */
  | { type: 'dialog.updated'; id: string; pending: number[] }
  | { type: 'dialog.closed'; id: string; reason: DialogCloseReason };

/**
 * The dialogs' own surface: `window.agenvoyDialog`. In an Electron dialog window it is scoped to that one dialog
 * (`pending()` returns just it); in browser mode it carries every open dialog over the page's WebSocket.
 */
export interface DialogApi {
  /** The dialogs open now, oldest first (after a reload, or when a dialog window loads). */
  pending(): Promise<Result<DialogRequest[]>>;
  /** Listens to dialogs opening, changing and closing; returns the unsubscribe. */
  onEvent(listener: (event: DialogEvent) => void): Unsubscribe;
  /** Answers one item of an approval dialog; resolves with the indexes still pending. */
  answerApproval(request: {
    id: string;
    index: number;
    choice: ApprovalChoice;
  }): Promise<Result<{ pending: number[] }>>;
  /** Answers a secret dialog. Forget the value after the call: do not keep it in state. */
  answerSecret(request: { id: string; answer: SecretAnswer }): Promise<Result<{ accepted: true }>>;
  /** Answers an ask_user dialog. */
  answerQuestion(request: { id: string; answer: QuestionAnswer }): Promise<Result<{ accepted: true }>>;
  /** Answers a trust dialog. */
  answerTrust(request: { id: string; answer: TrustAnswer }): Promise<Result<{ accepted: true }>>;
}

// ---------------------------------------------------------------------------------------------------------
// How a page finds its surfaces

/**
 * The globals of a page. Electron's chat window has `agenvoy` only; an Electron dialog window has `agenvoyDialog`
 * only (render just that dialog); in browser mode neither exists until `installWebBridge(window)` from
 * preload/web-bridge.ts installs both from the page URL's `token`.
 */
export interface AgenvoyGlobals {
  agenvoy?: Api;
  agenvoyDialog?: DialogApi;
}
