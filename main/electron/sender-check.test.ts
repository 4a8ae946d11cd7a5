// IPC sender checks, in plain Node: the right window, its top frame, our page.
import { describe, expect, it } from 'vitest';
import { DIALOG_PAGE_URL, MAIN_PAGE_URL } from './app-protocol';
import { senderAllowed } from './sender-check';

const expected = { webContentsId: 7, pageUrl: MAIN_PAGE_URL };

describe('sender checks', () => {
  it('accepts the chat window main frame on its page', () => {
    expect(senderAllowed({ webContentsId: 7, frameUrl: MAIN_PAGE_URL, isMainFrame: true }, expected)).toBe(
      true,
    );
    expect(
      senderAllowed({ webContentsId: 7, frameUrl: `${MAIN_PAGE_URL}#/chat/1`, isMainFrame: true }, expected),
    ).toBe(true);
  });

  it('refuses another window, a sub-frame, a gone frame, another page or origin', () => {
    expect(senderAllowed({ webContentsId: 8, frameUrl: MAIN_PAGE_URL, isMainFrame: true }, expected)).toBe(
      false,
    );
    expect(senderAllowed({ webContentsId: 7, frameUrl: MAIN_PAGE_URL, isMainFrame: false }, expected)).toBe(
      false,
    );
    expect(senderAllowed({ webContentsId: 7, frameUrl: null, isMainFrame: true }, expected)).toBe(false);
    expect(senderAllowed({ webContentsId: 7, frameUrl: DIALOG_PAGE_URL, isMainFrame: true }, expected)).toBe(
      false,
    );
    for (const frameUrl of [
      'https://evil.example/index.html',
      'file:///index.html',
      'app://other/index.html',
      'nonsense',
    ]) {
      expect(senderAllowed({ webContentsId: 7, frameUrl, isMainFrame: true }, expected), frameUrl).toBe(
        false,
      );
    }
  });

  it('a dialog channel accepts only its own dialog window', () => {
    const dialog = { webContentsId: 12, pageUrl: DIALOG_PAGE_URL };
    expect(
      senderAllowed(
        { webContentsId: 12, frameUrl: `${DIALOG_PAGE_URL}?kind=secret`, isMainFrame: true },
        dialog,
      ),
    ).toBe(true);
    expect(senderAllowed({ webContentsId: 7, frameUrl: DIALOG_PAGE_URL, isMainFrame: true }, dialog)).toBe(
      false,
    );
  });
});
