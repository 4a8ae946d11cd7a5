// The open dialogs of a host: the gate's approval prompter, the masked secret prompt, ask_user and trusting a
// folder all open one here; the host's DialogPresenter shows them (Electron: modal windows; browser mode: the
// page), and answers come back through answerApproval / answerSecret / answerQuestion / answerTrust. A secret value
// passes through once and is not kept.
import { randomUUID } from 'node:crypto';
import type { AskResult, AskUserPort, Question } from '../../tools/sdk/chat-ports';
import type {
  AppNotice,
  DialogCloseReason,
  DialogEvent,
  DialogRequest,
  TrustToolView,
} from '../../preload/contract';
import type { ApprovalPrompter, PromptSession } from '../gate/prompter-port';
import type { SecretPrompt, SecretRequest } from '../secrets/secret-prompt';
import { appNotice, approvalItemView } from './approval-items';
import {
  parseApprovalChoice,
  parseQuestionAnswer,
  parseSecretAnswer,
  parseTrustAnswer,
  unofferedChoice,
} from './dialog-answers';
import { HostError } from './host-error';
import { shownText } from './shown-text';

/** How a host shows dialogs: told of every dialog opening, changing and closing. */
export interface DialogPresenter {
  present(event: DialogEvent): void;
}

/** What the hub needs from its host. */
export interface DialogHubOptions {
  redact: (text: string) => string;
  chatTitle: (chatId: string) => string;
  /** Gate notices (a time-out, a saved rule) for the app's notice channel. */
  notice: (notice: AppNotice) => void;
}

type OpenDialog =
  | {
      kind: 'approval';
      view: Extract<DialogRequest, { kind: 'approval' }>;
      session: PromptSession;
      finish: (reason: DialogCloseReason) => void;
    }
  | {
      kind: 'secret';
      view: Extract<DialogRequest, { kind: 'secret' }>;
      finish: (value: string | null, reason: DialogCloseReason) => void;
    }
  | {
      kind: 'question';
      view: Extract<DialogRequest, { kind: 'question' }>;
      finish: (result: AskResult, reason: DialogCloseReason) => void;
    }
  | {
      kind: 'trust';
      view: Extract<DialogRequest, { kind: 'trust' }>;
      finish: (trusted: boolean, reason: DialogCloseReason) => void;
    };

/** The host's open dialogs and the ports that open them. */
export class DialogHub {
  private readonly open = new Map<string, OpenDialog>();
  private readonly presenters = new Set<DialogPresenter>();

  constructor(private readonly options: DialogHubOptions) {}

  /** Adds a presenter (a window manager, a connected page); returns the undo. */
  attach(presenter: DialogPresenter): () => void {
    this.presenters.add(presenter);
    return () => this.presenters.delete(presenter);
  }

  /** The dialogs open now, oldest first. */
  pending(): DialogRequest[] {
    return [...this.open.values()].map((dialog) => structuredClone(dialog.view));
  }

  /** One open dialog, or undefined. */
  get(id: string): DialogRequest | undefined {
    const dialog = this.open.get(id);
    return dialog && structuredClone(dialog.view);
  }

  /** Answers approval item `index`; resolves with the items still pending. */
  async answerApproval(id: string, index: number, rawChoice: unknown): Promise<number[]> {
    const dialog = this.find(id, 'approval');
    const choice = parseApprovalChoice(rawChoice);
    if (index >= dialog.view.items.length)
      throw new HostError('invalid_request', `no item ${index} in this dialog`);
    if (!dialog.session.isPending(index)) throw new HostError('busy', `item ${index} is already decided`);
    const item = dialog.session.items[index];
    const refused = item ? unofferedChoice(item, choice) : null;
    if (refused) throw new HostError('invalid_request', refused);
    await dialog.session.answer(index, choice);
    if (!this.open.has(id)) return [];
    const pending = pendingOf(dialog);
    dialog.view.pending = pending;
    if (pending.length === 0 || choice.kind === 'stop') dialog.finish('answered');
    else this.present({ type: 'dialog.updated', id, pending });
    return pending;
  }

  /** Answers a secret dialog; the value goes to the waiting prompt and nowhere else. */
  answerSecret(id: string, rawAnswer: unknown): void {
    const dialog = this.find(id, 'secret');
    const answer = parseSecretAnswer(rawAnswer);
    dialog.finish(answer.kind === 'value' ? answer.value : null, 'answered');
  }

  /** Answers an ask_user dialog. */
  answerQuestion(id: string, rawAnswer: unknown): void {
    const dialog = this.find(id, 'question');
    const answer = parseQuestionAnswer(rawAnswer, dialog.view.questions);
    dialog.finish(
      answer.kind === 'answered'
        ? { answered: true, answers: answer.answers }
        : { answered: false, reason: answer.reason ?? 'the user dismissed the question' },
      'answered',
    );
  }

  /** Answers a trust dialog. */
  answerTrust(id: string, rawAnswer: unknown): void {
    const dialog = this.find(id, 'trust');
    dialog.finish(parseTrustAnswer(rawAnswer).kind === 'trust', 'answered');
  }

  /**
   * Asks the person whether to trust `folder`'s workspace tools; resolves true only on their "Trust". The chat
   * window's trust.add comes here, so a page cannot trust a folder by itself (docs/security.md).
   */
  confirmTrust(folder: string, tools: TrustToolView[], signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    const id = randomUUID();
    const view: Extract<DialogRequest, { kind: 'trust' }> = {
      kind: 'trust',
      id,
      folder,
      tools: tools.map((tool) => ({ ...tool, secrets: [...tool.secrets] })),
      openedAt: Date.now(),
    };
    return new Promise<boolean>((resolve) => {
      const onAbort = () => finish(false, 'cancelled');
      const finish = (trusted: boolean, reason: DialogCloseReason) => {
        if (!this.open.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.present({ type: 'dialog.closed', id, reason });
        resolve(trusted);
      };
      this.open.set(id, { kind: 'trust', view, finish });
      signal.addEventListener('abort', onAbort, { once: true });
      this.present({ type: 'dialog.opened', dialog: structuredClone(view) });
    });
  }

  /** Closes a dialog the user dismissed without answering (its window was closed): deny, cancel, no answer. */
  async dismiss(id: string): Promise<void> {
    const dialog = this.open.get(id);
    if (!dialog) return;
    switch (dialog.kind) {
      case 'approval':
        for (const index of pendingOf(dialog)) await dialog.session.answer(index, { kind: 'deny' });
        dialog.finish('cancelled');
        return;
      case 'secret':
        dialog.finish(null, 'cancelled');
        return;
      case 'question':
        dialog.finish(
          { answered: false, reason: 'the user closed the question without answering' },
          'cancelled',
        );
        return;
      case 'trust':
        dialog.finish(false, 'cancelled');
        return;
    }
  }

  /** The gate's prompter: one dialog per batch, answered item by item. */
  approvalPrompter(): ApprovalPrompter {
    return {
      prompt: (session) => this.promptApproval(session),
      notify: (notice) => this.options.notice(appNotice(notice)),
    };
  }

  /** The masked secret prompt behind store_secret and auto-heal. */
  secretPrompt(): SecretPrompt {
    return { read: (request, signal) => this.readSecret(request, signal) };
  }

  /** ask_user's port. */
  askUser(): AskUserPort {
    return { ask: (chatId, questions, signal) => this.askQuestions(chatId, questions, signal) };
  }

  private promptApproval(session: PromptSession): Promise<void> {
    const id = randomUUID();
    const view: Extract<DialogRequest, { kind: 'approval' }> = {
      kind: 'approval',
      id,
      chatId: session.chatId,
      chatTitle: this.options.chatTitle(session.chatId),
      items: session.items.map((item, index) => approvalItemView(item, index, this.options.redact)),
      pending: session.items.map((_, index) => index).filter((index) => session.isPending(index)),
      timeoutMs: session.timeoutMs,
      openedAt: Date.now(),
    };
    return new Promise<void>((resolve) => {
      const onAbort = () => finish(abortReason(session.signal));
      const finish = (reason: DialogCloseReason) => {
        if (!this.open.delete(id)) return;
        session.signal.removeEventListener('abort', onAbort);
        this.present({ type: 'dialog.closed', id, reason });
        resolve();
      };
      this.open.set(id, { kind: 'approval', view, session, finish });
      session.signal.addEventListener('abort', onAbort, { once: true });
      this.present({ type: 'dialog.opened', dialog: structuredClone(view) });
      if (session.signal.aborted) onAbort();
    });
  }

  private readSecret(request: SecretRequest, signal: AbortSignal): Promise<string | null> {
    signal.throwIfAborted();
    const id = randomUUID();
    const view: Extract<DialogRequest, { kind: 'secret' }> = {
      kind: 'secret',
      id,
      key: request.key,
      // The model wrote both: shown with hidden characters as escapes, as in the approval dialog.
      question: shownText(this.options.redact(request.question)),
      forTool: request.forTool ? shownText(request.forTool) : null,
      openedAt: Date.now(),
    };
    return new Promise<string | null>((resolve, reject) => {
      const onAbort = () => {
        if (!this.open.delete(id)) return;
        this.present({ type: 'dialog.closed', id, reason: 'cancelled' });
        reject(signal.reason);
      };
      const finish = (value: string | null, reason: DialogCloseReason) => {
        if (!this.open.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.present({ type: 'dialog.closed', id, reason });
        resolve(value);
      };
      this.open.set(id, { kind: 'secret', view, finish });
      signal.addEventListener('abort', onAbort, { once: true });
      this.present({ type: 'dialog.opened', dialog: structuredClone(view) });
    });
  }

  private askQuestions(chatId: string, questions: Question[], signal: AbortSignal): Promise<AskResult> {
    if (signal.aborted) return Promise.resolve({ answered: false, reason: 'the turn was cancelled' });
    const id = randomUUID();
    const view: Extract<DialogRequest, { kind: 'question' }> = {
      kind: 'question',
      id,
      chatId,
      chatTitle: this.options.chatTitle(chatId),
      questions: questions.map((q) => ({
        id: q.id,
        // The model wrote both: shown with hidden characters as escapes, as in the approval dialog; the choice the
        // person picks, as shown, is what the model is told.
        prompt: shownText(this.options.redact(q.prompt)),
        kind: q.kind,
        options: q.options.map((option) => shownText(this.options.redact(option))),
      })),
      openedAt: Date.now(),
    };
    return new Promise<AskResult>((resolve) => {
      const onAbort = () => finish({ answered: false, reason: 'the turn was cancelled' }, 'cancelled');
      const finish = (result: AskResult, reason: DialogCloseReason) => {
        if (!this.open.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.present({ type: 'dialog.closed', id, reason });
        resolve(result);
      };
      this.open.set(id, { kind: 'question', view, finish });
      signal.addEventListener('abort', onAbort, { once: true });
      this.present({ type: 'dialog.opened', dialog: structuredClone(view) });
    });
  }

  private find<K extends OpenDialog['kind']>(id: string, kind: K): Extract<OpenDialog, { kind: K }> {
    const dialog = this.open.get(id);
    if (!dialog) throw new HostError('not_found', `no open dialog ${id}`);
    if (dialog.kind !== kind) throw new HostError('invalid_request', `dialog ${id} is not a ${kind} dialog`);
    return dialog as Extract<OpenDialog, { kind: K }>;
  }

  private present(event: DialogEvent): void {
    for (const presenter of [...this.presenters]) {
      try {
        presenter.present(event);
      } catch {
        // One broken page or window must not keep the others from seeing the dialog.
      }
    }
  }
}

function pendingOf(dialog: Extract<OpenDialog, { kind: 'approval' }>): number[] {
  return dialog.view.items.map((item) => item.index).filter((index) => dialog.session.isPending(index));
}

// The gate aborts its session with "the approval timed out" or "the turn was cancelled".
function abortReason(signal: AbortSignal): DialogCloseReason {
  const reason: unknown = signal.reason;
  return reason instanceof Error && /timed out/.test(reason.message) ? 'timed_out' : 'cancelled';
}
