// The UI's one i18next instance, set up when first imported (synchronously: the catalogues are bundled), and the
// language it speaks: the person's choice in Settings, else the OS locale (navigator.languages follows it).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { CatalogueOf } from './catalogue-shape';
import type { Language, en } from './messages';
import { CATALOGUES, LANGUAGE_NAMES } from './messages';
import { readPreference, writePreference } from './preference-storage';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // Keys checked against the English catalogue; texts typed as plain strings (not each literal).
    resources: { translation: CatalogueOf<typeof en> };
  }
}

/** "system" follows the OS locale; otherwise one of the UI's languages. */
export type LanguageChoice = 'system' | Language;

const STORAGE_KEY = 'agenvoy.language';

/** The UI language for a list of locales (first match wins): any Chinese reads zh-TW, anything else English. */
export function languageFor(locales: readonly string[]): Language {
  for (const locale of locales) {
    const lower = locale.toLowerCase();
    if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-TW';
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** The OS's language, as the browser reports it. */
export function systemLanguage(): Language {
  const list =
    typeof navigator === 'undefined'
      ? []
      : navigator.languages?.length
        ? navigator.languages
        : [navigator.language];
  return languageFor(list);
}

/** The stored choice ("system" when none or an unknown one). */
export function languageChoice(): LanguageChoice {
  const stored = readPreference(STORAGE_KEY);
  return stored !== null && stored in LANGUAGE_NAMES ? (stored as Language) : 'system';
}

/** Stores the choice and switches the UI to it at once. */
export function chooseLanguage(choice: LanguageChoice): void {
  writePreference(STORAGE_KEY, choice === 'system' ? null : choice);
  void i18next.changeLanguage(choice === 'system' ? systemLanguage() : choice);
}

/** The language the UI speaks now. */
export function currentLanguage(): Language {
  return i18next.language === 'zh-TW' ? 'zh-TW' : 'en';
}

const startChoice = languageChoice();
void i18next.use(initReactI18next).init({
  resources: Object.fromEntries(
    Object.entries(CATALOGUES).map(([language, catalogue]) => [language, { translation: catalogue }]),
  ),
  lng: startChoice === 'system' ? systemLanguage() : startChoice,
  fallbackLng: 'en',
  supportedLngs: Object.keys(LANGUAGE_NAMES),
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

// The page says which language it is in, for screen readers and fonts.
const markPage = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};
markPage(i18next.language);
i18next.on('languageChanged', markPage);

/** The instance, for code outside components (store slices, formatters). */
export const i18n = i18next;

/** Translates outside React (components use `useTranslation`). */
export const t = i18next.t.bind(i18next);

// Components take the hook and <Trans> from here, so whatever renders text has the instance set up first.
export { Trans, useTranslation } from 'react-i18next';
