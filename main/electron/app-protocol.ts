// The app:// scheme the pages load from (never file://): one origin, CSP on every response, files from the build only.
import { contentSecurityPolicy } from '../host/content-policy';

/** The scheme. */
export const APP_SCHEME = 'app';
/** The one host under it. */
export const APP_HOST = 'renderer';
/** The pages' origin. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The chat window's page. */
export const MAIN_PAGE_URL = `${APP_ORIGIN}/index.html`;
/** The modal dialogs' page. */
export const DIALOG_PAGE_URL = `${APP_ORIGIN}/dialog.html`;

/** The CSP of every Electron page: its own files only, and no connections at all (IPC is not a connection). */
export function electronContentPolicy(): string {
  return contentSecurityPolicy();
}

/** The headers every app:// response carries. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': electronContentPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

/** The URL path of an app:// request, or null when it is not for this app's host. */
export function appRequestPath(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  return parsed.pathname;
}
