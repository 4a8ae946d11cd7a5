// The window's appearance: its language and theme, each "system" or the person's choice (kept in localStorage).
import type { LanguageChoice } from '../i18n/i18n';
import { chooseLanguage, languageChoice } from '../i18n/i18n';
import type { SliceCreator } from '../store/app-state';
import type { ThemeChoice } from './theme';
import { applyTheme, themeChoice } from './theme';

/** Language and theme choices. */
export interface PreferencesSlice {
  language: LanguageChoice;
  theme: ThemeChoice;
  setLanguage(choice: LanguageChoice): void;
  setTheme(choice: ThemeChoice): void;
}

/** Creates the preferences slice from what is stored. */
export const createPreferencesSlice: SliceCreator<PreferencesSlice> = (set) => ({
  language: languageChoice(),
  theme: themeChoice(),
  setLanguage(choice) {
    chooseLanguage(choice);
    set({ language: choice });
  },
  setTheme(choice) {
    applyTheme(choice, true);
    set({ theme: choice });
  },
});
