// The window's own preferences (language, theme) in localStorage: per profile, and readable before the first render
// so the page never flashes in the wrong language or colours. A storage that throws (disabled, full) keeps defaults.

/** The stored value, or null. */
export function readPreference(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores the value (null removes it). */
export function writePreference(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Not stored: the choice still holds for this session.
  }
}
