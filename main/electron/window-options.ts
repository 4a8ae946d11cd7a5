// The BrowserWindow options of the chat window and the modal dialogs: isolated, sandboxed, no Node, no extras.
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** The web preferences every window of the app shares. */
export function secureWebPreferences(preload: string, extra: Partial<WebPreferences> = {}): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools: extra.devTools ?? false,
    safeDialogs: true,
    ...extra,
  };
}

/** The one chat window. */
export function mainWindowOptions(
  preload: string,
  options: { devTools?: boolean } = {},
): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'Agenvoy',
    show: false,
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(preload, { devTools: options.devTools ?? false }),
  };
}

const DIALOG_TITLES = {
  approval: 'Approve tool call',
  secret: 'Secret needed',
  question: 'Question',
  trust: 'Trust this folder?',
} as const;

/** A modal dialog window: its own in-memory session partition and a preload that knows only its one-shot channel. */
export function dialogWindowOptions(input: {
  preload: string;
  /** The session partition (in memory: no `persist:` prefix). */
  partition: string;
  /** `--agenvoy-dialog=<channel>`. */
  channelArgument: string;
  kind: 'approval' | 'secret' | 'question' | 'trust';
  parent?: BrowserWindowConstructorOptions['parent'];
}): BrowserWindowConstructorOptions {
  if (input.partition.startsWith('persist:')) throw new Error('a dialog session must not persist');
  const size = input.kind === 'approval' ? { width: 760, height: 640 } : { width: 520, height: 360 };
  return {
    ...size,
    title: DIALOG_TITLES[input.kind],
    modal: input.parent !== undefined,
    ...(input.parent !== undefined ? { parent: input.parent } : {}),
    show: false,
    resizable: true,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    skipTaskbar: input.parent !== undefined,
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(input.preload, {
      partition: input.partition,
      additionalArguments: [input.channelArgument],
    }),
  };
}
