// The settings screen's reasoning: the level every chat uses unless it picks its own, and Anthropic's thinking budget.
import type { FormEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { ReasoningLevel, SettingsView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { reasoningLabel, REASONING_LEVELS } from '../chat/reasoning-picker';
import { checkBudget } from './settings-input';

/** The reasoning part of the settings screen. */
export function ReasoningSection({ settings }: { settings: SettingsView }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="reasoning-heading">
      <h2 id="reasoning-heading">{t('settings.reasoningHeading')}</h2>
      <ReasoningForm
        key={`${settings.reasoning}/${settings.thinkingBudgetTokens}`}
        level={settings.reasoning}
        budget={settings.thinkingBudgetTokens}
      />
    </section>
  );
}

function ReasoningForm(props: { level: ReasoningLevel; budget: number | null }) {
  const { t } = useTranslation();
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
        {t('reasoning.label')}
        <select value={level} onChange={(e) => setLevel(e.target.value as ReasoningLevel)}>
          {REASONING_LEVELS.map((l) => (
            <option key={l} value={l}>
              {reasoningLabel(l)}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">{t('settings.reasoningHint')}</p>
      <label>
        {t('settings.budget')}
        <input
          value={budget}
          inputMode="numeric"
          placeholder={t('settings.budgetPlaceholder')}
          onChange={(e) => {
            setBudget(e.target.value);
            setError(null);
          }}
          aria-invalid={error !== null}
          aria-describedby="thinking-budget-hint"
        />
      </label>
      <p id="thinking-budget-hint" className="muted">
        {t('settings.budgetHint')}
      </p>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={saving}>
          {t('settings.saveReasoning')}
        </button>
      </div>
    </form>
  );
}
