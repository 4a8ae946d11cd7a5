// The modal dialog windows: one per approval, secret or question, owned by main, each with its own in-memory
// session, the strict CSP, a minimal preload and a one-shot IPC channel that dies with it. The secret window
// talks only to main: its value goes to the waiting prompt and from there straight to the store.
import { randomUUID } from 'node:crypto';
import type { BrowserWindow as BrowserWindowType } from 'electron';
import { BrowserWindow, ipcMain, session } from 'electron';
import type { DialogEvent, DialogRequest } from '../../preload/contract';
import { DIALOG_ARGUMENT, DIALOG_CHANNEL_PREFIX, DIALOG_EVENT_SUFFIX } from '../../preload/ipc-names';
import type { DialogPresenter } from '../host/dialog-hub';
import { fail, ok, toFailure } from '../host/host-error';
import type { AppHost } from '../host/open-app-host';
import { requestObject, requiredIndex } from '../host/request-fields';
import { DIALOG_PAGE_URL } from './app-protocol';
import { serveAppProtocol } from './app-protocol-handler';
import type { AppFiles } from './app-files';
import { senderOf } from './electron-sender';
import { hardenSession } from './harden';
import { senderAllowed } from './sender-check';
import { dialogWindowOptions } from './window-options';

interface OpenWindow {
  window: BrowserWindowType;
  channel: string;
  /** Set once main closes it, so closing is not read as the user dismissing it. */
  closedByMain: boolean;
}

/** Shows the host's dialogs as modal windows over `parent()`. */
export class DialogWindows implements DialogPresenter {
  private readonly windows = new Map<string, OpenWindow>();

  constructor(
    private readonly host: AppHost,
    private readonly files: AppFiles,
    private readonly parent: () => BrowserWindowType | null,
  ) {}

  /** Opens, updates or closes the window of a dialog. */
  present(event: DialogEvent): void {
    switch (event.type) {
      case 'dialog.opened':
        void this.open(event.dialog);
        return;
      case 'dialog.updated': {
        const open = this.windows.get(event.id);
        if (open && !open.window.isDestroyed())
          open.window.webContents.send(open.channel + DIALOG_EVENT_SUFFIX, event);
        return;
      }
      case 'dialog.closed':
        this.close(event.id);
        return;
    }
  }

  /** Brings a dialog's window forward (a notification was clicked); false when it has none. */
  focus(id: string): boolean {
    const open = this.windows.get(id);
    if (!open || open.window.isDestroyed()) return false;
    if (open.window.isMinimized()) open.window.restore();
    open.window.show();
    open.window.focus();
    return true;
  }

  /** Closes every dialog window (quitting). */
  closeAll(): void {
    for (const id of [...this.windows.keys()]) this.close(id);
  }

  private async open(dialog: DialogRequest): Promise<void> {
    // A dialog shown again (a new chat window) keeps its one window.
    if (this.windows.has(dialog.id)) return;
    const channel = `${DIALOG_CHANNEL_PREFIX}${randomUUID()}`;
    const partition = `agenvoy-dialog-${randomUUID()}`;
    const dialogSession = session.fromPartition(partition, { cache: false });
    hardenSession(dialogSession);
    serveAppProtocol(dialogSession, this.files.rendererDir);
    const parent = this.parent();
    const window = new BrowserWindow(
      dialogWindowOptions({
        preload: this.files.dialogPreload,
        partition,
        channelArgument: `${DIALOG_ARGUMENT}${channel}`,
        kind: dialog.kind,
        ...(parent ? { parent } : {}),
      }),
    );
    window.removeMenu();
    const open: OpenWindow = { window, channel, closedByMain: false };
    this.windows.set(dialog.id, open);
    const expected = { webContentsId: window.webContents.id, pageUrl: DIALOG_PAGE_URL };
    ipcMain.handle(channel, async (event, raw: unknown) => {
      if (!senderAllowed(senderOf(event), expected)) return fail('forbidden', 'not this dialog window');
      return this.answer(dialog.id, raw);
    });
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      ipcMain.removeHandler(channel);
      this.windows.delete(dialog.id);
      // Closing the window without answering: deny / cancel / no answer.
      if (!open.closedByMain) void this.host.dialogs.dismiss(dialog.id);
    });
    await window.loadURL(`${DIALOG_PAGE_URL}?kind=${dialog.kind}`);
  }

  private async answer(id: string, raw: unknown) {
    const dialogs = this.host.dialogs;
    try {
      const message = requestObject(raw);
      switch (message.op) {
        case 'pending': {
          const dialog = dialogs.get(id);
          return ok(dialog ? [dialog] : []);
        }
        case 'approval':
          return ok({
            pending: await dialogs.answerApproval(id, requiredIndex(message, 'index'), message.choice),
          });
        case 'secret':
          dialogs.answerSecret(id, message.answer);
          return ok({ accepted: true });
        case 'question':
          dialogs.answerQuestion(id, message.answer);
          return ok({ accepted: true });
        case 'trust':
          dialogs.answerTrust(id, message.answer);
          return ok({ accepted: true });
        default:
          return fail('invalid_request', 'unknown dialog operation');
      }
    } catch (error) {
      return toFailure(error, (text) => this.host.core.redactor.redact(text));
    }
  }

  private close(id: string): void {
    const open = this.windows.get(id);
    if (!open) return;
    open.closedByMain = true;
    ipcMain.removeHandler(open.channel);
    this.windows.delete(id);
    if (!open.window.isDestroyed()) open.window.close();
  }
}
