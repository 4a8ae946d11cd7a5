// The Settings screen's "Sandbox" section (docs/security.md, "The OS sandbox"): whether commands and script tools
// run confined here, with which backend and what it allows; or why not, and what that means for approvals.
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/i18n';
import { useAppStore } from '../../store/app-store';

/** The sandbox part of the settings screen. */
export function SandboxSection() {
  const { t } = useTranslation();
  const sandbox = useAppStore((s) => s.sandbox);
  const loadSandbox = useAppStore((s) => s.loadSandbox);
  useEffect(() => {
    void loadSandbox();
  }, [loadSandbox]);
  return (
    <section aria-labelledby="sandbox-heading">
      <h2 id="sandbox-heading">{t('settings.sandbox')}</h2>
      {!sandbox ? (
        <p className="muted">{t('settings.checking')}</p>
      ) : sandbox.state === 'ready' ? (
        <>
          <dl className="facts">
            <dt>{t('settings.state')}</dt>
            <dd>
              <strong>{t('settings.ready')}</strong>
              {t('settings.readyDetail')}
            </dd>
            <dt>{t('settings.backend')}</dt>
            <dd>
              <code>{sandbox.backend}</code>
            </dd>
          </dl>
          <ul className="sandbox-policy" aria-label={t('settings.policy')}>
            {sandbox.policy.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <dl className="facts">
            <dt>{t('settings.state')}</dt>
            <dd>
              <strong>{t('settings.unavailable')}</strong>
              {t('settings.unavailableDetail')}
            </dd>
          </dl>
          <p className="warning" role="note" aria-label={t('settings.whyNoSandbox')}>
            <span aria-hidden="true">⚠ </span>
            {t('settings.noSandbox', { reason: sandbox.reason })}
          </p>
          <p>{sandbox.consequence}</p>
        </>
      )}
    </section>
  );
}
