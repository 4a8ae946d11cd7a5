// The first-run page (docs/hosts.md, "First run"): shown while no provider is chosen. The person picks a provider, its
// Base URL, a key (typed into main's masked prompt, never into this page) or "No key", tests the connection (main asks
// the server for its model list), picks a model exactly as the server lists it, and starts chatting.
import type { FormEvent } from 'react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import type { ProviderKind, ProviderPreset, SettingsView } from '../../../preload/contract';
import { invoke } from '../../boot/bridge';
import { useAppStore } from '../../store/app-store';

/** What "Test connection" found. */
type Connection =
  | { state: 'untested' }
  | { state: 'testing' }
  | { state: 'listed'; models: string[]; url: string }
  | { state: 'failed'; message: string };

/** The Welcome page over the loaded settings. */
export function WelcomePage({ settings }: { settings: SettingsView }) {
  const { t } = useTranslation();
  const saveSettings = useAppStore((s) => s.saveSettings);
  const promptSecret = useAppStore((s) => s.promptSecret);
  const presets = settings.presets;
  const initial = presets.find((p) => p.kind === settings.provider) ?? presets[0];
  const [kind, setKind] = useState<ProviderKind>(initial?.kind ?? 'anthropic');
  const preset = presets.find((p) => p.kind === kind) ?? initial;
  const [baseUrl, setBaseUrl] = useState(initial?.baseUrl ?? '');
  const [noKey, setNoKey] = useState(initial?.apiKeyName === null);
  const [connection, setConnection] = useState<Connection>({ state: 'untested' });
  const [model, setModel] = useState(initial?.model ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ids = { provider: useId(), baseUrl: useId(), model: useId(), status: useId() };
  const keyName = noKey ? null : keyNameOf(preset);
  // What "Test connection" asked last.
  const asked = useRef('');

  const choose = (next: ProviderPreset) => {
    asked.current = '';
    setKind(next.kind);
    setBaseUrl(next.baseUrl);
    setNoKey(next.apiKeyName === null);
    setModel(next.model);
    setConnection({ state: 'untested' });
    setError(null);
  };
  const test = async () => {
    const question = JSON.stringify([kind, baseUrl.trim(), keyName]);
    asked.current = question;
    setConnection({ state: 'testing' });
    const result = await invoke('provider.models', {
      provider: kind,
      baseUrl: baseUrl.trim(),
      apiKeyName: keyName,
    });
    // An answer about an older choice (another provider or address) is dropped.
    if (asked.current !== question) return;
    if (!result.ok) return setConnection({ state: 'failed', message: result.error.message });
    setConnection({ state: 'listed', models: result.value.models, url: result.value.url });
    const listed = result.value.models;
    if (!listed.includes(model)) setModel(listed[0] ?? '');
  };
  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (model.trim() === '') return setError(t('welcome.chooseModel'));
    setSaving(true);
    const problem = await saveSettings({
      provider: kind,
      baseUrl: baseUrl.trim(),
      model: model.trim(),
      apiKeyName: keyName,
    });
    setSaving(false);
    setError(problem);
  };

  return (
    <main className="panel welcome" aria-labelledby="welcome-heading">
      <section role="region" aria-labelledby="welcome-heading">
        <h2 id="welcome-heading">{t('welcome.heading')}</h2>
        <p>{t('welcome.intro')}</p>
        <form className="settings-form" onSubmit={(e) => void start(e)}>
          <label htmlFor={ids.provider}>{t('welcome.provider')}</label>
          <ProviderSelect id={ids.provider} presets={presets} kind={kind} choose={choose} />
          <label htmlFor={ids.baseUrl}>{t('welcome.baseUrl')}</label>
          <input
            id={ids.baseUrl}
            value={baseUrl}
            spellCheck={false}
            onChange={(e) => {
              asked.current = '';
              setBaseUrl(e.target.value);
              setConnection({ state: 'untested' });
            }}
          />
          <div className="welcome-key">
            <button
              type="button"
              disabled={noKey || keyName === null}
              onClick={() =>
                keyName &&
                void promptSecret(keyName, t('welcome.keyFor', { provider: preset?.label ?? kind }))
              }
            >
              {t('welcome.enterKey')}
            </button>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={noKey}
                onChange={(e) => {
                  asked.current = '';
                  setNoKey(e.target.checked);
                }}
              />{' '}
              {t('welcome.noKey')}
            </label>
            {keyName && <span className="muted">{t('welcome.keptAs', { key: keyName })}</span>}
          </div>
          <div>
            <button
              type="button"
              disabled={connection.state === 'testing' || baseUrl.trim() === ''}
              onClick={() => void test()}
              aria-describedby={ids.status}
            >
              {t('welcome.test')}
            </button>
          </div>
          <ConnectionStatus id={ids.status} connection={connection} />
          <label htmlFor={ids.model}>{t('welcome.model')}</label>
          <ModelField id={ids.model} connection={connection} model={model} setModel={setModel} />
          {error && (
            <p className="dialog-error" role="alert">
              {error}
            </p>
          )}
          <div>
            <button type="submit" className="primary" disabled={saving}>
              {t('welcome.start')}
            </button>
          </div>
        </form>
      </section>
    </main>
  );
}

function ProviderSelect(props: {
  id: string;
  presets: ProviderPreset[];
  kind: ProviderKind;
  choose: (preset: ProviderPreset) => void;
}) {
  return (
    <select
      id={props.id}
      value={props.kind}
      onChange={(e) => {
        const next = props.presets.find((p) => p.kind === e.target.value);
        if (next) props.choose(next);
      }}
    >
      {props.presets.map((p) => (
        <option key={p.kind} value={p.kind}>
          {p.label}
        </option>
      ))}
    </select>
  );
}

// The server's own ids once listed; a typed id while there is no list.
function ModelField(props: {
  id: string;
  connection: Connection;
  model: string;
  setModel: (model: string) => void;
}) {
  const { t } = useTranslation();
  const { id, connection, model, setModel } = props;
  if (connection.state === 'listed') {
    return (
      <select id={id} value={model} onChange={(e) => setModel(e.target.value)}>
        {connection.models.map((listed) => (
          <option key={listed} value={listed}>
            {listed}
          </option>
        ))}
      </select>
    );
  }
  return (
    <input
      id={id}
      value={model}
      spellCheck={false}
      placeholder={t('welcome.modelPlaceholder')}
      onChange={(e) => setModel(e.target.value)}
    />
  );
}

function ConnectionStatus({ id, connection }: { id: string; connection: Connection }) {
  const { t } = useTranslation();
  switch (connection.state) {
    case 'untested':
      return <p id={id} className="muted" role="status" />;
    case 'testing':
      return (
        <p id={id} className="muted" role="status">
          {t('welcome.asking')}
        </p>
      );
    case 'listed':
      return (
        <p id={id} role="status">
          {t('welcome.connected', { count: connection.models.length, url: connection.url })}
        </p>
      );
    case 'failed':
      return (
        <p id={id} className="dialog-error" role="alert">
          {t('welcome.failed', { message: connection.message })}
        </p>
      );
  }
}

// A local server's preset takes no key; ticking "No key" off then stores one under a generic name.
function keyNameOf(preset: ProviderPreset | undefined): string | null {
  if (!preset) return null;
  return preset.apiKeyName ?? `${preset.kind.toUpperCase()}_API_KEY`;
}
