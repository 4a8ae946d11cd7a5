// A dialog that opens over whatever the person was doing, often typing their next message, must not take that typing
// as its answer (docs/interface.md, "Dialogs"): its answer counts only once it has been on screen a moment.
import { useEffect, useState } from 'react';

/** How long a dialog must have been on screen before its answer counts (the approval dialog's wait, too). */
export const ANSWER_ARMS_AFTER_MS = 500;

/** Whether the dialog showing `key` has been on screen for ANSWER_ARMS_AFTER_MS; false again whenever `key` changes. */
export function useArmed(key: unknown): boolean {
  const [armedFor, setArmedFor] = useState<{ key: unknown } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setArmedFor({ key }), ANSWER_ARMS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return armedFor !== null && armedFor.key === key;
}
