// The quiet "Restart to update" in the header: shown only once an update is downloaded and no turn or background task
// runs (main decides both; docs/release.md, "Updates").
import { useAppStore } from '../../store/app-store';

/** The header's update button, or nothing. */
export function UpdateNotice() {
  const status = useAppStore((s) => s.updates?.status);
  const restart = useAppStore((s) => s.restartToUpdate);
  if (status?.state !== 'ready' || !status.restartable) return null;
  return (
    <button
      type="button"
      className="update-notice"
      title={`Agenvoy ${status.version} is downloaded`}
      onClick={() => void restart()}
    >
      Restart to update
    </button>
  );
}
