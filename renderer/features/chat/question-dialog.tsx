// The ask_user dialog: each question as a text field, a single choice or a multiple choice.
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { DialogRequest, QuestionAnswer, QuestionView } from '../../../preload/contract';
import { DialogFrame } from '../../shared/ui/dialog-frame';
import { useArmed } from '../../shared/ui/use-armed';

type QuestionRequest = Extract<DialogRequest, { kind: 'question' }>;
type Answers = Record<string, string | string[]>;

/** Props of QuestionDialog. */
export interface QuestionDialogProps {
  request: QuestionRequest;
  onAnswer: (answer: QuestionAnswer) => Promise<string | null>;
  overlay: boolean;
}

/** The agent's questions, answered together. */
export function QuestionDialog({ request, onAnswer, overlay }: QuestionDialogProps) {
  const { t } = useTranslation();
  const [answers, setAnswers] = useState<Answers>(() => initial(request.questions));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The dialog opens while the person may be typing their next message: a space and Enter typed on would check the
  // first option and answer (ask_user may open at any moment). The answer counts only once the dialog was seen.
  const armed = useArmed(request.id);
  const complete = request.questions.every(
    (q) => q.kind === 'multiple' || String(answers[q.id] ?? '').trim() !== '',
  );

  const send = async (answer: QuestionAnswer) => {
    setBusy(true);
    setError(null);
    const problem = await onAnswer(answer);
    setBusy(false);
    if (problem) setError(problem);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!armed) return;
    if (complete) void send({ kind: 'answered', answers });
  };
  const set = (id: string, value: string | string[]) => setAnswers((a) => ({ ...a, [id]: value }));

  return (
    <DialogFrame
      // A question with no chat is the app's own (where to send a provider key), not the agent's.
      title={request.chatId ? t('question.agentAsks') : t('question.appAsks')}
      overlay={overlay}
      onEscape={() => void send({ kind: 'dismissed', reason: 'the user closed the dialog' })}
      className="question-dialog"
      // A choice gets no focus on open: the next space typed would check it. A text field may (Enter adds a line).
      focusOnOpen={request.questions[0]?.kind === 'text' ? 'control' : 'dialog'}
    >
      {request.chatId && <p className="muted">{t('approval.inChat', { title: request.chatTitle })}</p>}
      <form
        onSubmit={submit}
        // A held Enter repeats: its repeats would answer before anything was read.
        onKeyDown={(event) => {
          if (event.key === 'Enter' && event.repeat) event.preventDefault();
        }}
      >
        {request.questions.map((q, i) => (
          <QuestionField
            key={q.id}
            question={q}
            value={answers[q.id]}
            onChange={(v) => set(q.id, v)}
            autoFocus={i === 0}
          />
        ))}
        {error && (
          <p className="dialog-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit" className="primary" disabled={busy || !complete || !armed}>
            {t('question.answer')}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void send({ kind: 'dismissed', reason: 'the user chose not to answer' })}
          >
            {t('question.dismiss')}
          </button>
        </div>
      </form>
    </DialogFrame>
  );
}

function QuestionField(props: {
  question: QuestionView;
  value: string | string[] | undefined;
  onChange: (value: string | string[]) => void;
  autoFocus: boolean;
}) {
  const { question, value, onChange } = props;
  if (question.kind === 'text') {
    return (
      <label className="question-field">
        <span className="question">{question.prompt}</span>
        <textarea
          rows={2}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
          {...(props.autoFocus ? { 'data-autofocus': true } : {})}
        />
      </label>
    );
  }
  const multiple = question.kind === 'multiple';
  const selected = Array.isArray(value) ? value : value ? [value] : [];
  const toggle = (option: string, on: boolean) => {
    if (!multiple) return onChange(option);
    onChange(on ? [...selected, option] : selected.filter((o) => o !== option));
  };
  return (
    <fieldset className="question-field">
      <legend className="question">{question.prompt}</legend>
      {question.options.map((option) => (
        <label key={option} className="option">
          <input
            type={multiple ? 'checkbox' : 'radio'}
            name={question.id}
            checked={selected.includes(option)}
            onChange={(e) => toggle(option, e.target.checked)}
          />
          {option}
        </label>
      ))}
    </fieldset>
  );
}

function initial(questions: QuestionView[]): Answers {
  const answers: Answers = {};
  for (const q of questions) answers[q.id] = q.kind === 'multiple' ? [] : '';
  return answers;
}
