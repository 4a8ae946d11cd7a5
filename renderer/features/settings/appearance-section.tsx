// The settings screen's appearance: the window's language and theme, each "System" (the OS's) or a fixed choice.
// Applied at once and kept in this window's profile (app/preferences-slice.ts).
import type { LanguageChoice } from '../../i18n/i18n';
import { systemLanguage, useTranslation } from '../../i18n/i18n';
import { LANGUAGE_NAMES } from '../../i18n/messages';
import type { ThemeChoice } from '../../app/theme';
import { systemTheme } from '../../app/theme';
import { useAppStore } from '../../store/app-store';

const LANGUAGES = Object.keys(LANGUAGE_NAMES) as Array<keyof typeof LANGUAGE_NAMES>;

/** Language and theme selects. */
export function AppearanceSection() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const theme = useAppStore((s) => s.theme);
  const setLanguage = useAppStore((s) => s.setLanguage);
  const setTheme = useAppStore((s) => s.setTheme);
  return (
    <section aria-labelledby="appearance-heading">
      <h2 id="appearance-heading">{t('settings.appearance')}</h2>
      <div className="settings-form">
        <label>
          {t('settings.language')}
          <select value={language} onChange={(e) => setLanguage(e.target.value as LanguageChoice)}>
            <option value="system">
              {t('settings.system', { current: LANGUAGE_NAMES[systemLanguage()] })}
            </option>
            {LANGUAGES.map((id) => (
              <option key={id} value={id} lang={id}>
                {LANGUAGE_NAMES[id]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('settings.theme')}
          <select value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)}>
            <option value="system">
              {t('settings.system', {
                current: t(systemTheme() === 'dark' ? 'settings.dark' : 'settings.light'),
              })}
            </option>
            <option value="light">{t('settings.light')}</option>
            <option value="dark">{t('settings.dark')}</option>
          </select>
        </label>
        <p className="muted">{t('settings.appearanceHint')}</p>
      </div>
    </section>
  );
}
