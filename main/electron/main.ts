// The Electron shell's entry: one chat window over the app host, dialogs as modal windows, everything guarded,
// and a quit that stops every turn, task, MCP server and child process (asking first if tasks run).
import type { BrowserWindow as BrowserWindowType } from 'electron';
import { app, BrowserWindow, dialog, protocol, session } from 'electron';
import type { AppHost } from '../host/open-app-host';
import { openAppHost } from '../host/open-app-host';
import { offscreenRenderer } from './offscreen-render';
import { APP_SCHEME, MAIN_PAGE_URL } from './app-protocol';
import { serveAppProtocol } from './app-protocol-handler';
import { appFiles } from './app-files';
import { bindChatWindow } from './chat-ipc';
import { DialogAttention } from './dialog-attention';
import { DialogWindows } from './dialog-windows';
import { hardenApp, hardenSession } from './harden';
import { QUIT_BUTTONS, quitStep } from './quit-rules';
import { desktopUpdates } from './updater';
import { mainWindowOptions } from './window-options';

// Must happen before `ready`: app:// behaves like a secure standard origin (relative URLs, CSP 'self').
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false },
  },
]);
app.enableSandbox();
hardenApp(app);

const files = appFiles();
let host: AppHost | null = null;
let mainWindow: BrowserWindowType | null = null;
let dialogs: DialogWindows | null = null;
let unbindChat: (() => void) | null = null;
let stopUpdates: (() => void) | null = null;
let quitting: 'no' | 'stopping' | 'done' = 'no';

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => fatal(error));
}

async function start(): Promise<void> {
  hardenSession(session.defaultSession);
  serveAppProtocol(session.defaultSession, files.rendererDir);
  // No workspace: each new chat gets a folder of its own under ~/Agenvoy unless settings name one.
  // Checks on start and daily, never restarts under a turn or task (docs/release.md, "Updates").
  const updates = desktopUpdates();
  host = await openAppHost({
    mode: 'electron',
    hostServices: { pageRenderer: offscreenRenderer() },
    updates: updates.controller,
  });
  stopUpdates = updates.attach(host);
  dialogs = new DialogWindows(host, files, () => mainWindow);
  host.dialogs.attach(dialogs);
  const windows = dialogs;
  host.dialogs.attach(
    new DialogAttention(
      () => mainWindow,
      (id) => windows.focus(id),
    ),
  );
  createMainWindow(host);
}

function createMainWindow(current: AppHost): void {
  const window = new BrowserWindow(mainWindowOptions(files.preload, { devTools: !app.isPackaged }));
  mainWindow = window;
  unbindChat = bindChatWindow(window, current);
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    unbindChat?.();
    unbindChat = null;
    mainWindow = null;
  });
  void window.loadURL(MAIN_PAGE_URL);
  // Dialogs opened before a page was there (a reload, a second window) are shown again.
  for (const open of current.dialogs.pending()) dialogs?.present({ type: 'dialog.opened', dialog: open });
}

app.on('window-all-closed', () => app.quit());

app.on('activate', () => {
  if (host && !mainWindow && quitting === 'no') createMainWindow(host);
});

app.on('before-quit', (event) => {
  if (quitting === 'done' || !host) return;
  event.preventDefault();
  if (quitting === 'stopping') return;
  const step = quitStep(host.runningTasks());
  switch (step.kind) {
    case 'stop_now':
      void stopAndQuit();
      return;
    case 'ask': {
      const answer = dialog.showMessageBoxSync({
        type: 'question',
        buttons: [...QUIT_BUTTONS],
        defaultId: 1,
        cancelId: 1,
        message: step.message,
        detail: step.detail,
      });
      if (answer === 0) void stopAndQuit();
      return;
    }
  }
});

async function stopAndQuit(): Promise<void> {
  quitting = 'stopping';
  try {
    stopUpdates?.();
    dialogs?.closeAll();
    unbindChat?.();
    await host?.close();
  } catch (error) {
    console.error('agenvoy: error while stopping:', error);
  } finally {
    quitting = 'done';
    app.quit();
  }
}

function fatal(error: unknown): void {
  dialog.showErrorBox('Agenvoy could not start', error instanceof Error ? error.message : String(error));
  app.exit(1);
}
