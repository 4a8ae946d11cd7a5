// The settings screen's reasoning: the level every chat uses unless it picks its own, and Anthropic's thinking budget.
import type { FormEvent } from 'react';
import { useState } from 'react';
import type { ReasoningLevel, SettingsView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { REASONING_LABELS } from '../chat/reasoning-picker';
import { checkBudget } from './settings-input';

const LEVELS = Object.keys(REASONING_LABELS) as ReasoningLevel[];

/** The reasoning part of the settings screen. */
export function ReasoningSection({ settings }: { settings: SettingsView }) {
  return (
    <section aria-labelledby="reasoning-heading">
      <h2 id="reasoning-heading">Reasoning</h2>
      <ReasoningForm
        key={`${settings.reasoning}/${settings.thinkingBudgetTokens}`}
        level={settings.reasoning}
        budget={settings.thinkingBudgetTokens}
      />
    </section>
  );
}

function ReasoningForm(props: { level: ReasoningLevel; budget: number | null }) {
  const save = useAppStore((s) => s.saveSettings);
  const saving = useAppStore((s) => s.settingsSaving);
  const [level, setLevel] = useState(props.level);
  const [budget, setBudget] = useState(props.budget === null ? '' : String(props.budget));
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkBudget(budget);
    if (!checked.ok) return setError(checked.errors.join(' '));
    setError(await save({ reasoning: level, thinkingBudgetTokens: checked.value }));
  };
  return (
    <form className="settings-form" onSubmit={(e) => void submit(e)} noValidate>
      <label>
        Reasoning
        <select value={level} onChange={(e) => setLevel(e.target.value as ReasoningLevel)}>
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {REASONING_LABELS[l]}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">How much the model reasons before it answers; a chat may pick its own level.</p>
      <label>
        Thinking budget (tokens)
        <input
          value={budget}
          inputMode="numeric"
          placeholder="empty: the level's own"
          onChange={(e) => {
            setBudget(e.target.value);
            setError(null);
          }}
          aria-invalid={error !== null}
          aria-describedby="thinking-budget-hint"
        />
      </label>
      <p id="thinking-budget-hint" className="muted">
        Anthropic only, for any level but Off: 1,024 to 127,999 tokens. Empty: the level&apos;s own (2,048 /
        8,192 / 24,576).
      </p>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={saving}>
          Save reasoning
        </button>
      </div>
    </form>
  );
}
