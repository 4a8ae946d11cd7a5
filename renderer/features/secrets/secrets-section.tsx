// Which secrets are stored and where, and the active backend. Key names only: values never reach this page.
import { useState } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

/** The secrets part of the settings screen. */
export function SecretsSection() {
  const { t } = useTranslation();
  const secrets = useAppStore((s) => s.secrets);
  const apiKeyName = useAppStore((s) => s.settings?.apiKeyName ?? null);
  const promptSecret = useAppStore((s) => s.promptSecret);
  const [newKey, setNewKey] = useState('');
  return (
    <section aria-labelledby="secrets-heading">
      <h2 id="secrets-heading">{t('settings.secrets')}</h2>
      {!secrets ? (
        <p className="muted">{t('settings.loading')}</p>
      ) : (
        <>
          <p>
            {t('settings.secretsBackend')}{' '}
            <strong>
              {secrets.backend === 'keychain'
                ? t('settings.keychain')
                : secrets.backend === 'file'
                  ? t('settings.secretsFile')
                  : t('settings.envOnly')}
            </strong>{' '}
            <span className="muted">— {secrets.reason}</span>
          </p>
          {secrets.file && <p className="muted path">{t('settings.fallbackFile', { file: secrets.file })}</p>}
          {secrets.interopNote && <p className="muted">{secrets.interopNote}</p>}
          <ul className="secret-keys" aria-label={t('settings.storedKeys')}>
            {secrets.keys.map((k) => (
              <li key={k.key}>
                <code>{k.key}</code> <span className="muted">{k.locations.join(', ')}</span>{' '}
                <button type="button" className="link-button" onClick={() => void promptSecret(k.key)}>
                  {t('settings.replace')}
                </button>
              </li>
            ))}
            {secrets.keys.length === 0 && <li className="muted">{t('settings.noKeys')}</li>}
          </ul>
        </>
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const key = newKey.trim() || apiKeyName;
          if (key) void promptSecret(key, t('settings.enterValue', { key }));
          setNewKey('');
        }}
      >
        <label>
          {t('settings.keyNameField')}{' '}
          <input
            value={newKey}
            placeholder={apiKeyName ?? t('settings.keyNamePlaceholder')}
            onChange={(e) => setNewKey(e.target.value)}
            spellCheck={false}
          />
        </label>
        <button type="submit">{t('settings.setSecret')}</button>
      </form>
    </section>
  );
}
