// The open chat's reasoning level: the settings' default or its own.
import { useState } from 'react';
import type { ChatReasoning, ReasoningLevel } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';

/** How each level is named to a person. */
export const REASONING_LABELS: Record<ReasoningLevel, string> = {
  off: 'Off',
  low: 'Low',
  medium: 'Medium',
  high: 'High',
};

const LEVELS = Object.keys(REASONING_LABELS) as ReasoningLevel[];

/** A labelled select that sets the chat's reasoning through main and shows what main answered. */
export function ReasoningPicker({ chatId, reasoning }: { chatId: string; reasoning: ChatReasoning }) {
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
      Reasoning
      <select
        value={reasoning}
        disabled={saving}
        onChange={(e) => void choose(e.target.value as ChatReasoning)}
      >
        <option value="default">
          {fallback ? `Default (settings: ${REASONING_LABELS[fallback].toLowerCase()})` : 'Default'}
        </option>
        {LEVELS.map((level) => (
          <option key={level} value={level}>
            {REASONING_LABELS[level]}
          </option>
        ))}
      </select>
    </label>
  );
}
