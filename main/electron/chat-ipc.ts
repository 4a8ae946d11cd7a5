// The chat window's IPC: one invoke channel into the app service (sender checked on every message) and the
// service's events sent to that window only.
import type { BrowserWindow } from 'electron';
import { ipcMain } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../preload/ipc-names';
import { fail } from '../host/host-error';
import type { AppHost } from '../host/open-app-host';
import { MAIN_PAGE_URL } from './app-protocol';
import { senderOf } from './electron-sender';
import { senderAllowed } from './sender-check';

/** Binds the chat window to the host; returns the undo. */
export function bindChatWindow(window: BrowserWindow, host: AppHost): () => void {
  const contents = window.webContents;
  const expected = { webContentsId: contents.id, pageUrl: MAIN_PAGE_URL };
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, request: unknown) => {
    if (!senderAllowed(senderOf(event), expected)) {
      host.core.log.warn('refused an IPC message from an unexpected sender', {
        url: event.senderFrame?.url ?? null,
      });
      return fail('forbidden', 'this window may not use the app channel');
    }
    return host.service.invoke(channel, request);
  });
  const offEvents = host.service.on((event) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event.channel, event.payload);
  });
  return () => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    offEvents();
  };
}
