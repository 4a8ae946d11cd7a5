// The home folder as a workspace needs the person's explicit yes (docs/security.md, "Default workspace"): main
// refuses it with `confirm_required`, the person is asked, and only their click resends with `confirmHome: true`.
import type { Result } from '../../preload/contract';

/** Sends `send(false)`; on `confirm_required` asks the person and, only if they agree, sends `send(true)`. Null: they declined. */
export async function sendConfirmingHome<T>(
  send: (confirmHome: boolean) => Promise<Result<T>>,
): Promise<Result<T> | null> {
  const first = await send(false);
  if (first.ok || first.error.code !== 'confirm_required') return first;
  if (!window.confirm(`${first.error.message}.\n\nUse the home folder anyway?`)) return null;
  return send(true);
}
