// The desktop app's attention for waiting dialogs: while no window of the app has focus, a dialog that opens (an
// approval, a secret prompt, a question, a trust prompt) raises a system notification (Electron's Notification);
// clicking it brings the app forward with that dialog's window focused. The chat window's title and the dock or
// taskbar badge count what waits. A second presenter on the dialog hub, beside the dialog windows.
import type { BrowserWindow as BrowserWindowType } from 'electron';
import { app, BrowserWindow, Notification } from 'electron';
import type { DialogEvent, DialogRequest } from '../../preload/contract';
import type { DialogPresenter } from '../host/dialog-hub';
import { attentionWords, windowTitle } from './attention-words';

/** Notifies and counts; `focusDialog` brings a dialog's own window forward (false when it has none). */
export class DialogAttention implements DialogPresenter {
  private readonly waiting = new Map<string, Notification | null>();

  constructor(
    private readonly mainWindow: () => BrowserWindowType | null,
    private readonly focusDialog: (id: string) => boolean,
  ) {}

  /** Follows the hub's dialogs. */
  present(event: DialogEvent): void {
    switch (event.type) {
      case 'dialog.opened':
        if (this.waiting.has(event.dialog.id)) return;
        this.waiting.set(event.dialog.id, this.notify(event.dialog));
        break;
      case 'dialog.updated':
        return;
      case 'dialog.closed':
        this.waiting.get(event.id)?.close();
        this.waiting.delete(event.id);
        break;
    }
    this.showCount();
  }

  /** Shows the count again (a new chat window). */
  showCount(): void {
    const main = this.mainWindow();
    if (main && !main.isDestroyed()) main.setTitle(windowTitle(this.waiting.size, app.getLocale()));
    app.setBadgeCount(this.waiting.size);
  }

  // Checked before the dialog's own window shows (and takes focus): is the person somewhere else?
  private notify(dialog: DialogRequest): Notification | null {
    if (BrowserWindow.getFocusedWindow() !== null || !Notification.isSupported()) return null;
    const { title, body } = attentionWords(dialog, app.getLocale());
    const note = new Notification({ title, body });
    note.on('click', () => {
      const main = this.mainWindow();
      if (main && !main.isDestroyed()) {
        if (main.isMinimized()) main.restore();
        main.show();
      }
      if (!this.focusDialog(dialog.id)) main?.focus();
    });
    note.show();
    return note;
  }
}
