// The words of the desktop app's attention signals — a notification for a dialog that waits while no window of the app
// has focus, and the window title's count — in the UI's two languages (the renderer's catalogue holds the same
// sentences under notify.*; main cannot import the renderer). Plain Node: tested without Electron.
import type { DialogRequest } from '../../preload/contract';

type Language = 'en' | 'zh-TW';

const WORDS = {
  en: {
    approval: (tool: string) => `Approval needed: ${tool}`,
    secret: (key: string) => `Secret needed: ${key}`,
    question: 'The agent asks you something',
    trust: 'Trust this folder?',
    inChat: (title: string) => `In chat “${title}”. Click to answer.`,
    answer: 'Click to answer.',
    title: (count: number, base: string) => `(${count}) ${base}`,
  },
  'zh-TW': {
    approval: (tool: string) => `需要核准：${tool}`,
    secret: (key: string) => `需要密鑰：${key}`,
    question: '助理有問題要問你',
    trust: '要信任此資料夾嗎？',
    inChat: (title: string) => `於對話「${title}」。按一下即可回覆。`,
    answer: '按一下即可回覆。',
    title: (count: number, base: string) => `（${count}）${base}`,
  },
} as const;

/** The UI language for an OS locale (app.getLocale()): any Chinese reads zh-TW, anything else English. */
export function languageOf(locale: string): Language {
  const lower = locale.toLowerCase();
  return lower === 'zh' || lower.startsWith('zh-') ? 'zh-TW' : 'en';
}

/** A notification's title and body for a waiting dialog. */
export function attentionWords(dialog: DialogRequest, locale: string): { title: string; body: string } {
  const words = WORDS[languageOf(locale)];
  switch (dialog.kind) {
    case 'approval':
      return {
        title: words.approval(dialog.items.map((item) => item.tool).join(', ')),
        body: words.inChat(dialog.chatTitle),
      };
    case 'secret':
      return { title: words.secret(dialog.key), body: dialog.question };
    case 'question':
      return { title: words.question, body: dialog.chatId ? words.inChat(dialog.chatTitle) : words.answer };
    case 'trust':
      return { title: words.trust, body: dialog.folder };
  }
}

/** The window title: the count of waiting dialogs in front of the app's name, or the name alone. */
export function windowTitle(count: number, locale: string, base = 'Agenvoy'): string {
  return count > 0 ? WORDS[languageOf(locale)].title(count, base) : base;
}
