// Which secrets are stored and where, and the active backend. Key names only: values never reach this page.
import { useState } from 'react';
import { useAppStore } from '../../store/app-store';

/** The secrets part of the settings screen. */
export function SecretsSection() {
  const secrets = useAppStore((s) => s.secrets);
  const apiKeyName = useAppStore((s) => s.settings?.apiKeyName ?? null);
  const promptSecret = useAppStore((s) => s.promptSecret);
  const [newKey, setNewKey] = useState('');
  return (
    <section aria-labelledby="secrets-heading">
      <h2 id="secrets-heading">Secrets</h2>
      {!secrets ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <p>
            Backend:{' '}
            <strong>
              {secrets.backend === 'keychain'
                ? 'OS keychain'
                : secrets.backend === 'file'
                  ? 'secrets file'
                  : 'environment only'}
            </strong>{' '}
            <span className="muted">— {secrets.reason}</span>
          </p>
          {secrets.file && <p className="muted path">Fallback file: {secrets.file}</p>}
          {secrets.interopNote && <p className="muted">{secrets.interopNote}</p>}
          <ul className="secret-keys" aria-label="Stored keys">
            {secrets.keys.map((k) => (
              <li key={k.key}>
                <code>{k.key}</code> <span className="muted">{k.locations.join(', ')}</span>{' '}
                <button type="button" className="link-button" onClick={() => void promptSecret(k.key)}>
                  Replace…
                </button>
              </li>
            ))}
            {secrets.keys.length === 0 && <li className="muted">No keys stored.</li>}
          </ul>
        </>
      )}
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const key = newKey.trim() || apiKeyName;
          if (key) void promptSecret(key, `Enter the value for ${key}.`);
          setNewKey('');
        }}
      >
        <label>
          Key name{' '}
          <input
            value={newKey}
            placeholder={apiKeyName ?? 'e.g. GITHUB_TOKEN'}
            onChange={(e) => setNewKey(e.target.value)}
            spellCheck={false}
          />
        </label>
        <button type="submit">Set a secret…</button>
      </form>
    </section>
  );
}
