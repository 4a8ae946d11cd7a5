// The windows' options, in plain Node: isolated, sandboxed, no Node, no webview, dialogs in their own sessions.
import { describe, expect, it } from 'vitest';
import { dialogWindowOptions, mainWindowOptions, secureWebPreferences } from './window-options';

describe('window options', () => {
  it('the chat window is isolated, sandboxed and has no Node', () => {
    const options = mainWindowOptions('/app/preload.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      devTools: false,
    });
    expect(options.show).toBe(false);
  });

  it('extra preferences cannot be forgotten, only added', () => {
    const prefs = secureWebPreferences('/p.cjs', { devTools: true });
    expect(prefs).toMatchObject({
      devTools: true,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
  });

  it('a dialog window is modal over its parent, with its own session and its one-shot channel argument', () => {
    const parent = {} as never;
    const options = dialogWindowOptions({
      preload: '/app/dialog-preload.cjs',
      partition: 'agenvoy-dialog-1234',
      channelArgument: '--agenvoy-dialog=agenvoy:dialog:1234',
      kind: 'secret',
      parent,
    });
    expect(options.modal).toBe(true);
    expect(options.parent).toBe(parent);
    expect(options.webPreferences).toMatchObject({
      preload: '/app/dialog-preload.cjs',
      partition: 'agenvoy-dialog-1234',
      additionalArguments: ['--agenvoy-dialog=agenvoy:dialog:1234'],
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      devTools: false,
    });
  });

  it('refuses a persistent dialog session', () => {
    expect(() =>
      dialogWindowOptions({
        preload: '/p',
        partition: 'persist:x',
        channelArgument: '--agenvoy-dialog=x',
        kind: 'approval',
      }),
    ).toThrow(/persist/);
  });
});
