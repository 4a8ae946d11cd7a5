// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { formatDuration, formatLimit } from '../shared/time/format-duration';
import { formatBytes } from '../shared/format/intl-format';
import { chooseLanguage, currentLanguage, i18n, languageChoice, languageFor, t } from './i18n';
import { en, zhTW } from './messages';

// Every text of a catalogue by its dotted key.
function flatten(node: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value as object, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{[^}]+\}\}|<(\w+)>/g)].map((m) => m[0]).sort();

afterEach(() => chooseLanguage('system'));

describe('the catalogues', () => {
  it('zh-TW has every English key, with text of its own and the same placeholders and tags', () => {
    const english = flatten(en);
    const chinese = flatten(zhTW);
    expect([...chinese.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      const translated = chinese.get(key) ?? '';
      expect(translated.trim(), key).not.toBe('');
      expect(placeholders(translated), key).toEqual(placeholders(text));
    }
    // Translated, not copied: only names and formats that read the same in both may match.
    const same = [...english].filter(([key, text]) => chinese.get(key) === text).map(([key]) => key);
    expect(same.sort()).toEqual(['app.name', 'time.kb', 'time.mb']);
  });
});

describe('the language', () => {
  it('follows the OS locale: any Chinese reads zh-TW, anything else English', () => {
    expect(languageFor(['zh-TW', 'en-US'])).toBe('zh-TW');
    expect(languageFor(['zh-Hant-HK'])).toBe('zh-TW');
    expect(languageFor(['zh'])).toBe('zh-TW');
    expect(languageFor(['en-GB', 'zh-TW'])).toBe('en');
    expect(languageFor(['fr-FR'])).toBe('en');
    expect(languageFor([])).toBe('en');
  });

  it('switches at once when chosen, is kept, and marks the page', () => {
    chooseLanguage('zh-TW');
    expect(currentLanguage()).toBe('zh-TW');
    expect(languageChoice()).toBe('zh-TW');
    expect(localStorage.getItem('agenvoy.language')).toBe('zh-TW');
    expect(document.documentElement.lang).toBe('zh-TW');
    expect(t('chats.newChat')).toBe('新對話');
    chooseLanguage('system');
    expect(localStorage.getItem('agenvoy.language')).toBeNull();
    expect(i18n.language).toBe('en'); // jsdom's navigator says en-US
    expect(t('chats.newChat')).toBe('New chat');
  });

  it('formats durations, sizes and plurals in the chosen language', () => {
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(3_997_000)).toBe('3.81 MB');
    expect(t('tools.toolCount', { count: 1 })).toBe('1 tool');
    expect(t('tools.toolCount', { count: 12_345 })).toBe('12,345 tools');
    chooseLanguage('zh-TW');
    expect(formatDuration(245_000)).toBe('4 分 05 秒');
    expect(formatDuration(3_720_000)).toBe('1 小時 02 分');
    expect(formatLimit(null)).toBe('無時限');
    expect(formatBytes(12)).toBe('12 位元組');
    expect(t('tools.toolCount', { count: 1 })).toBe('1 個工具');
  });
});
