// The Settings screen's "Updates" section: the setting that turns checking off, and where updating stands.
import type { UpdateStatus } from '../../../preload/contract';
import { useAppStore } from '../../store/app-store';

/** The updates part of the settings screen. */
export function UpdateSection() {
  const updates = useAppStore((s) => s.updates);
  const setEnabled = useAppStore((s) => s.setUpdatesEnabled);
  return (
    <section aria-labelledby="updates-heading">
      <h2 id="updates-heading">Updates</h2>
      {!updates ? (
        <p className="muted">Loading…</p>
      ) : (
        <>
          <label className="check">
            <input
              type="checkbox"
              checked={updates.enabled}
              onChange={(event) => void setEnabled(event.currentTarget.checked)}
            />
            Check for updates on start and daily, and download them in the background
          </label>
          <p role="status" aria-label="Update status">
            Version {updates.current}: {describe(updates.status)}
          </p>
        </>
      )}
    </section>
  );
}

function describe(status: UpdateStatus): string {
  switch (status.state) {
    case 'unsupported':
      return `updates are not available here (${status.reason}).`;
    case 'off':
      return 'updates are turned off.';
    case 'idle':
      return status.checkedAt === null
        ? 'not checked yet.'
        : `up to date (checked ${time(status.checkedAt)}).`;
    case 'checking':
      return 'checking…';
    case 'downloading':
      return `downloading ${status.version} (${status.percent}%).`;
    case 'ready':
      return status.restartable
        ? `${status.version} is ready: restart to update.`
        : `${status.version} is ready; the restart is offered once no turn or task runs.`;
    case 'failed':
      return `the last check failed at ${time(status.checkedAt)}: ${status.message}`;
  }
}

const time = (at: number) => new Date(at).toLocaleTimeString();
