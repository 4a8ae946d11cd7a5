// The open chat's reasoning level: the settings' default or its own.
import { useState } from 'react';
import { t as translate, useTranslation } from '../../i18n/i18n';
import type { ChatReasoning, ReasoningLevel } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';

/** The levels, lowest first. */
export const REASONING_LEVELS: readonly ReasoningLevel[] = ['off', 'low', 'medium', 'high'];

/** How a level is named to a person, in the UI's language. */
export function reasoningLabel(level: ReasoningLevel): string {
  return translate(`reasoning.${level}`);
}

/** A labelled select that sets the chat's reasoning through main and shows what main answered. */
export function ReasoningPicker({ chatId, reasoning }: { chatId: string; reasoning: ChatReasoning }) {
  const { t } = useTranslation();
  const fallback = useAppStore((s) => s.settings?.reasoning ?? null);
  const setChatReasoning = useAppStore((s) => s.setChatReasoning);
  const [saving, setSaving] = useState(false);
  const choose = async (value: ChatReasoning) => {
    setSaving(true);
    await setChatReasoning(chatId, value);
    setSaving(false);
  };
  return (
    <label className="reasoning-picker">
      {t('reasoning.label')}
      <select
        value={reasoning}
        disabled={saving}
        onChange={(e) => void choose(e.target.value as ChatReasoning)}
      >
        <option value="default">
          {fallback
            ? t('reasoning.defaultFrom', { level: reasoningLabel(fallback).toLowerCase() })
            : t('reasoning.default')}
        </option>
        {REASONING_LEVELS.map((level) => (
          <option key={level} value={level}>
            {reasoningLabel(level)}
          </option>
        ))}
      </select>
    </label>
  );
}
