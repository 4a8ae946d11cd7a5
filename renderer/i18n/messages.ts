// The message catalogue: English (whose keys i18next types from) and Traditional Chinese, each joined from its parts.
import type { CatalogueOf } from './catalogue-shape';
import { enCore } from './messages-en-core';
import { enPanels } from './messages-en-panels';
import { enSettings } from './messages-en-settings';
import { zhTwCore } from './messages-zh-tw-core';
import { zhTwPanels } from './messages-zh-tw-panels';
import { zhTwSettings } from './messages-zh-tw-settings';

/** The English catalogue. */
export const en = { ...enCore, ...enPanels, ...enSettings } as const;

/** The Traditional Chinese (Taiwan) catalogue: every key of `en`. */
export const zhTW: CatalogueOf<typeof en> = { ...zhTwCore, ...zhTwPanels, ...zhTwSettings };

/** The languages the UI speaks, each with its name in itself (as a language menu shows it). */
export const LANGUAGE_NAMES = { en: 'English', 'zh-TW': '繁體中文' } as const;

/** One of the UI's languages. */
export type Language = keyof typeof LANGUAGE_NAMES;

/** Each language's catalogue. */
export const CATALOGUES: Record<Language, CatalogueOf<typeof en>> = { en, 'zh-TW': zhTW };
