// The open chat's model: the settings' model, or one from the provider's list (asked for when the picker is first
// used, then cached; Refresh asks again). Main keeps the choice with the chat and the chat's next request uses it.
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';
import { providerKey } from './models-slice';

/** A labelled select of models with a Refresh button. */
export function ModelPicker({ chatId, model }: { chatId: string; model: string | null }) {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.settings);
  const list = useAppStore((s) => s.modelList);
  const loading = useAppStore((s) => s.modelsLoading);
  const error = useAppStore((s) => s.modelsError);
  const loadModels = useAppStore((s) => s.loadModels);
  const setChatModel = useAppStore((s) => s.setChatModel);
  const [saving, setSaving] = useState(false);
  if (!settings) return null;
  const listed = list?.key === providerKey(settings) ? list.models : [];
  // The chat's model stays selectable even when the list lacks it (another provider's, or not listed any more).
  const extra = model !== null && !listed.includes(model) ? [model] : [];
  const choose = async (value: string) => {
    setSaving(true);
    await setChatModel(chatId, value === '' ? null : value);
    setSaving(false);
  };
  return (
    <span className="model-picker">
      <label>
        {t('model.label')}
        <select
          value={model ?? ''}
          disabled={saving}
          // Asked for when the picker is about to be used (pointer over it, or focus), not on every chat opened: a
          // provider may rate-limit its model list, and most chats never change model.
          onPointerEnter={() => void loadModels()}
          onFocus={() => void loadModels()}
          onChange={(e) => void choose(e.target.value)}
          aria-describedby={error ? 'model-list-error' : undefined}
        >
          <option value="">{t('model.default', { model: settings.model })}</option>
          {extra.map((id) => (
            <option key={id} value={id}>
              {t('model.notListed', { model: id })}
            </option>
          ))}
          {listed.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="link-button"
        disabled={loading}
        aria-label={t('model.refresh')}
        title={t('model.refresh')}
        onClick={() => void loadModels(true)}
      >
        {loading ? '…' : '↻'}
      </button>
      {error && (
        <span id="model-list-error" className="visually-hidden" role="status">
          {t('model.failed', { message: error })}
        </span>
      )}
    </span>
  );
}
