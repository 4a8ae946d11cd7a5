// The Settings screen's trusted folders (docs/security.md, "Workspace trust"): the list with Revoke, and the
// workspace the app loads tools from, with "Trust this folder" when it is not trusted (or "again" when tools are new
// or changed since, or it was trusted before tools were recorded).
import { useEffect } from 'react';
import { Trans, useTranslation } from '../../i18n/i18n';
import { formatDateTime } from '../../shared/format/intl-format';
import { useAppStore } from '../../store/app-store';

/** The trusted-folders part of the settings screen. */
export function TrustSection() {
  const { t } = useTranslation();
  const folders = useAppStore((s) => s.trustedFolders);
  const problem = useAppStore((s) => s.trustProblem);
  const busy = useAppStore((s) => s.trustBusy);
  const loadTrustedFolders = useAppStore((s) => s.loadTrustedFolders);
  const loadWorkspaceTrust = useAppStore((s) => s.loadWorkspaceTrust);
  const revokeTrust = useAppStore((s) => s.revokeTrust);
  useEffect(() => {
    void loadTrustedFolders();
    void loadWorkspaceTrust();
  }, [loadTrustedFolders, loadWorkspaceTrust]);
  return (
    <section aria-labelledby="trust-heading">
      <h2 id="trust-heading">{t('settings.trusted')}</h2>
      <p className="muted">{t('settings.trustedHint')}</p>
      {problem && (
        <p className="warning" role="note">
          {problem}
        </p>
      )}
      <CurrentWorkspace />
      <ul className="trusted-folders" aria-label={t('settings.trusted')}>
        {folders.map((folder) => (
          <li key={folder.path} aria-label={t('settings.trustedFolder', { path: folder.path })}>
            <span className="path">{folder.path}</span>{' '}
            <span className="muted">{t('settings.since', { when: formatDateTime(folder.trustedAt) })}</span>{' '}
            {!folder.exists && <span className="badge">{t('settings.gone')}</span>}{' '}
            {folder.tools === null ? (
              <span className="badge">{t('settings.beforeRecorded')}</span>
            ) : (
              <span className="muted">{t('settings.toolsTrusted', { count: folder.tools.length })}</span>
            )}{' '}
            <button
              type="button"
              className="small"
              disabled={busy}
              onClick={() => void revokeTrust(folder.path)}
            >
              {t('settings.revoke')}
            </button>
          </li>
        ))}
        {folders.length === 0 && !problem && <li className="muted">{t('settings.noTrusted')}</li>}
      </ul>
    </section>
  );
}

function CurrentWorkspace() {
  const { t } = useTranslation();
  const view = useAppStore((s) => s.workspaceTrust);
  const busy = useAppStore((s) => s.trustBusy);
  const trustFolder = useAppStore((s) => s.trustFolder);
  if (!view) return null;
  const tools = view.tools.length;
  return (
    <p className="current-workspace">
      <Trans
        i18nKey="settings.loadedFrom"
        values={{
          folder: view.folder ?? view.workspace,
          state: view.trusted
            ? view.changedTools.length > 0
              ? t('settings.trustedButChanged', { count: view.changedTools.length })
              : t('settings.isTrusted')
            : t('settings.notTrusted'),
          tools:
            tools > 0
              ? t('settings.ownTools', { count: tools, tools: view.tools.join(', ') })
              : t('settings.noOwnTools'),
        }}
        components={{ path: <span className="path" />, strong: <strong /> }}
      />{' '}
      {(!view.trusted || view.untrustedTools.length > 0) && view.folder && (
        <button
          type="button"
          className="small"
          disabled={busy}
          onClick={() => void trustFolder(view.folder as string)}
        >
          {view.trusted || view.retrust ? t('trust.trustAgain') : t('trust.trustFolder')}
        </button>
      )}
    </p>
  );
}
