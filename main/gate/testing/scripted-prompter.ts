// A prompter for tests that answers from a script, recording what it was shown (the terminal one is tested by its input).
import type {
  ApprovalPrompter,
  PromptChoice,
  PromptItem,
  PromptNotice,
  PromptSession,
} from '../prompter-port';

/** An answer source: a queue of choices, or a function of the item; `null` leaves the item unanswered (a user who walked away). */
export type Answers = Array<PromptChoice | null> | ((item: PromptItem, index: number) => PromptChoice | null);

/** Answers prompts from `answers` and records the items and notices. */
export class ScriptedPrompter implements ApprovalPrompter {
  /** Every batch presented, as the items shown. */
  readonly shown: PromptItem[][] = [];
  /** Every item actually put to the user (still pending when its turn came). */
  readonly questions: PromptItem[] = [];
  readonly notices: PromptNotice[] = [];

  constructor(private readonly answers: Answers) {}

  /** Answers pending items in order; waits on the session signal for an item left unanswered. */
  async prompt(session: PromptSession): Promise<void> {
    this.shown.push(session.items);
    for (const [index, item] of session.items.entries()) {
      if (!session.isPending(index)) continue;
      this.questions.push(item);
      const choice = Array.isArray(this.answers) ? (this.answers.shift() ?? null) : this.answers(item, index);
      if (choice === null) {
        await new Promise<void>((resolve) =>
          session.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        return;
      }
      await session.answer(index, choice);
    }
  }

  /** Records a notice. */
  notify(notice: PromptNotice): void {
    this.notices.push(notice);
  }
}
