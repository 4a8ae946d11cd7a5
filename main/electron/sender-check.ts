// Every IPC message's sender is checked: the expected window (webContents id), its main frame, and our page URL.
import { APP_ORIGIN } from './app-protocol';

/** What main knows of a message's sender. */
export interface SenderInfo {
  /** The sending webContents' id. */
  webContentsId: number;
  /** The sending frame's URL (null when the frame is gone). */
  frameUrl: string | null;
  /** Whether the sending frame is the top frame of its webContents. */
  isMainFrame: boolean;
}

/** Who may use a channel. */
export interface SenderExpectation {
  webContentsId: number;
  /** The page's URL (e.g. app://renderer/index.html); query and hash are ignored. */
  pageUrl: string;
}

/** Whether a message comes from the expected window's own page. */
export function senderAllowed(sender: SenderInfo, expected: SenderExpectation): boolean {
  if (sender.webContentsId !== expected.webContentsId || !sender.isMainFrame || sender.frameUrl === null)
    return false;
  let url: URL;
  let page: URL;
  try {
    url = new URL(sender.frameUrl);
    page = new URL(expected.pageUrl);
  } catch {
    return false;
  }
  // URL.origin is "null" for a custom scheme, so the scheme and host are compared instead.
  const originOf = (u: URL) => `${u.protocol}//${u.host}`;
  return originOf(url) === APP_ORIGIN && originOf(page) === APP_ORIGIN && url.pathname === page.pathname;
}
