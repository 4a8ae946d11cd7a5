// Light or dark: the person's choice in Settings, else the OS's (prefers-color-scheme, followed live). The resolved
// theme is written to <html data-theme>, which base.css's colour variables key on.
import { readPreference, writePreference } from '../i18n/preference-storage';

/** "system" follows prefers-color-scheme. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'agenvoy.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The stored choice ("system" when none). */
export function themeChoice(): ThemeChoice {
  const stored = readPreference(STORAGE_KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** The OS's theme now. */
export function systemTheme(): 'light' | 'dark' {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

let following: (() => void) | null = null;

/** Applies the choice to the page (and follows the OS while it is "system"); stores it when `store` is set. */
export function applyTheme(choice: ThemeChoice, store = false): void {
  if (store) writePreference(STORAGE_KEY, choice === 'system' ? null : choice);
  following?.();
  following = null;
  const set = (theme: 'light' | 'dark') => {
    document.documentElement.dataset.theme = theme;
  };
  if (choice !== 'system') return set(choice);
  set(systemTheme());
  if (typeof matchMedia !== 'function') return;
  const query = matchMedia(DARK_QUERY);
  const onChange = () => set(query.matches ? 'dark' : 'light');
  query.addEventListener('change', onChange);
  following = () => query.removeEventListener('change', onChange);
}
