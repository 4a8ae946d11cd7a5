// Browser mode's attention for waiting dialogs (an approval, a secret prompt, a question, a trust prompt): the tab's
// title counts them, and one that opens while the page is hidden or unfocused raises a system notification (the
// Notification API, permission asked once, on the person's first click or key). Clicking it brings the tab forward
// with focus in the dialog. Electron's chat window has its dialogs as windows of their own: main notifies there
// (main/electron/dialog-attention.ts).
import type { DialogRequest } from '../../preload/contract';
import { t } from '../i18n/i18n';
import { readPreference, writePreference } from '../i18n/preference-storage';
import { useAppStore } from '../store/app-store';

const ASKED_KEY = 'agenvoy.notifications.asked';
const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled])';

/** The notification's title and body for a dialog, in the UI's language. */
export function notificationText(dialog: DialogRequest): { title: string; body: string } {
  switch (dialog.kind) {
    case 'approval':
      return {
        title: t('notify.approval', { tool: dialog.items.map((item) => item.tool).join(', ') }),
        body: t('notify.inChat', { title: dialog.chatTitle }),
      };
    case 'secret':
      return { title: t('notify.secret', { key: dialog.key }), body: dialog.question };
    case 'question':
      return {
        title: t('notify.question'),
        body: dialog.chatId ? t('notify.inChat', { title: dialog.chatTitle }) : t('notify.answer'),
      };
    case 'trust':
      return { title: t('notify.trust'), body: dialog.folder };
  }
}

/** The title with the count of waiting items in front, or the title alone. */
export function titleWithCount(base: string, count: number): string {
  return count > 0 ? t('app.titleWaiting', { count, title: base }) : base;
}

const supported = () => typeof Notification === 'function';

// Asked once per profile, from a gesture (browsers ignore or demote a request that comes without one).
function askOnce(): () => void {
  if (!supported() || Notification.permission !== 'default' || readPreference(ASKED_KEY)) return () => {};
  const ask = () => {
    stop();
    writePreference(ASKED_KEY, 'yes');
    void Notification.requestPermission();
  };
  const stop = () => {
    document.removeEventListener('pointerdown', ask, true);
    document.removeEventListener('keydown', ask, true);
  };
  document.addEventListener('pointerdown', ask, true);
  document.addEventListener('keydown', ask, true);
  return stop;
}

// Focus moves into the dialog once React has shown it (it may be waiting behind an older one).
function focusDialog(): void {
  requestAnimationFrame(() => {
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    const target =
      dialog?.querySelector<HTMLElement>('[data-autofocus]') ?? dialog?.querySelector<HTMLElement>(FOCUSABLE);
    target?.focus();
  });
}

/** Starts watching the store's dialogs; returns the undo. */
export function watchAttention(): () => void {
  const base = document.title;
  const shown = new Map<string, Notification>();
  let seen = new Set(useAppStore.getState().dialogs.map((d) => d.id));
  const stopAsking = askOnce();
  const update = (dialogs: DialogRequest[]) => {
    document.title = titleWithCount(base, dialogs.length);
    const away = document.visibilityState === 'hidden' || !document.hasFocus();
    for (const dialog of dialogs) {
      if (seen.has(dialog.id) || !away || !supported() || Notification.permission !== 'granted') continue;
      const { title, body } = notificationText(dialog);
      const note = new Notification(title, { body, tag: dialog.id, requireInteraction: true });
      note.onclick = () => {
        window.focus();
        useAppStore.getState().setHelpOpen(false);
        focusDialog();
        note.close();
      };
      shown.set(dialog.id, note);
    }
    seen = new Set(dialogs.map((d) => d.id));
    // An answered (or timed-out) dialog's notification goes with it.
    for (const [id, note] of shown) {
      if (seen.has(id)) continue;
      note.close();
      shown.delete(id);
    }
  };
  update(useAppStore.getState().dialogs);
  const unsubscribe = useAppStore.subscribe((state, previous) => {
    if (state.dialogs !== previous.dialogs) update(state.dialogs);
  });
  return () => {
    unsubscribe();
    stopAsking();
    for (const note of shown.values()) note.close();
    document.title = base;
  };
}
