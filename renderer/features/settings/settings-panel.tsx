// The settings screen: provider, model, base URL, key name and default workspace; reasoning and the price table;
// then the OS sandbox's state, the trusted folders and the secrets.
import type { FormEvent } from 'react';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from '../../i18n/i18n';
import type { ProviderKind, SettingsView } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';
import { AppearanceSection } from './appearance-section';
import { PriceSection } from './price-table';
import { ReasoningSection } from './reasoning-section';
import { SandboxSection } from './sandbox-section';
import { UpdateSection } from '../updates/update-section';
import { SecretsSection } from '../secrets/secrets-section';
import { TrustSection } from '../trust/trust-section';

/** The settings panel. */
export function SettingsPanel() {
  const { t } = useTranslation();
  const settings = useAppStore((s) => s.settings);
  const loadSettings = useAppStore((s) => s.loadSettings);
  const loadSecrets = useAppStore((s) => s.loadSecrets);
  useEffect(() => {
    void loadSettings();
    void loadSecrets();
  }, [loadSettings, loadSecrets]);
  return (
    <main className="panel" aria-label={t('settings.label')}>
      <section aria-labelledby="settings-heading">
        <h2 id="settings-heading">{t('settings.provider')}</h2>
        {settings ? (
          <SettingsForm key={providerKey(settings)} settings={settings} />
        ) : (
          <p className="muted">{t('settings.loading')}</p>
        )}
      </section>
      <AppearanceSection />
      {settings && <ReasoningSection settings={settings} />}
      {settings && <PriceSection prices={settings.prices} />}
      <SandboxSection />
      <TrustSection />
      <SecretsSection />
      <UpdateSection />
    </main>
  );
}

// Each section's form starts over when its own saved fields change, not when another section is saved.
function providerKey(settings: SettingsView): string {
  const { provider, baseUrl, model, apiKeyName, defaultWorkspace, overridden } = settings;
  return JSON.stringify([provider, baseUrl, model, apiKeyName, defaultWorkspace, overridden]);
}

function SettingsForm({ settings }: { settings: SettingsView }) {
  const { t } = useTranslation();
  const save = useAppStore((s) => s.saveSettings);
  const saving = useAppStore((s) => s.settingsSaving);
  const [provider, setProvider] = useState<ProviderKind>(settings.provider);
  const [baseUrl, setBaseUrl] = useState(settings.baseUrl);
  const [model, setModel] = useState(settings.model);
  const [noKey, setNoKey] = useState(settings.apiKeyName === null);
  const [keyName, setKeyName] = useState(settings.apiKeyName ?? '');
  const [workspace, setWorkspace] = useState(settings.defaultWorkspace);
  const [error, setError] = useState<string | null>(null);
  const overridden = (field: 'provider' | 'baseUrl' | 'model') =>
    settings.overridden.includes(field) ? <span className="muted">{t('settings.overridden')}</span> : null;

  // Another provider brings its own address, model and key name; what was typed for the old one means nothing there.
  const choose = (kind: ProviderKind) => {
    const preset = settings.presets.find((p) => p.kind === kind);
    setProvider(kind);
    if (!preset) return;
    setBaseUrl(preset.baseUrl);
    setModel(preset.model);
    setNoKey(preset.apiKeyName === null);
    setKeyName(preset.apiKeyName ?? '');
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(
      await save({
        provider,
        baseUrl: baseUrl.trim(),
        model: model.trim(),
        apiKeyName: noKey ? null : keyName.trim(),
        defaultWorkspace: workspace.trim(),
      }),
    );
  };
  return (
    <form className="settings-form" onSubmit={(e) => void submit(e)}>
      <label>
        {t('settings.providerField')}
        {overridden('provider')}
        <select value={provider} onChange={(e) => choose(e.target.value as ProviderKind)}>
          {settings.presets.map((p) => (
            <option key={p.kind} value={p.kind}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('settings.baseUrl')}
        {overridden('baseUrl')}
        <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} spellCheck={false} />
      </label>
      <label>
        {t('settings.model')}
        {overridden('model')}
        <input value={model} onChange={(e) => setModel(e.target.value)} spellCheck={false} />
      </label>
      <label>
        {t('settings.keyName')}
        <input
          value={keyName}
          disabled={noKey}
          onChange={(e) => setKeyName(e.target.value)}
          spellCheck={false}
        />
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={noKey} onChange={(e) => setNoKey(e.target.checked)} />{' '}
        {t('settings.noKey')}
      </label>
      <label>
        {t('settings.workspace')}
        <input
          value={workspace}
          onChange={(e) => setWorkspace(e.target.value)}
          placeholder={t('settings.workspacePlaceholder')}
          spellCheck={false}
          aria-describedby="default-workspace-hint"
        />
      </label>
      <p id="default-workspace-hint" className="muted">
        {workspace.trim() === '' ? (
          <Trans
            i18nKey="settings.ownFolder"
            values={{ folder: settings.chatsFolder }}
            components={{ path: <span className="path" /> }}
          />
        ) : (
          t('settings.sharedFolder')
        )}{' '}
        {t('settings.homeAsks')}
      </p>
      {error && (
        <p className="dialog-error" role="alert">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="primary" disabled={saving}>
          {t('settings.save')}
        </button>
      </div>
    </form>
  );
}
