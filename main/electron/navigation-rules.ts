// What a page may do besides showing itself: nothing. Navigation, new windows and permissions are denied; links to
// http(s) pages open in the user's browser, if the link passes the allowlist.

/** Whether a window may navigate to `url`: never (the app is one page; a reload does not ask). */
export function navigationAllowed(_url: string): boolean {
  return false;
}

/** Hosts a link may never be handed to the browser for (the user's own machine). */
const LOCAL_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;

/** Whether a link may be opened in the user's browser: http(s) only, no credentials, not this machine. */
export function externalLinkAllowed(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.hostname !== '' && !LOCAL_HOSTS.test(parsed.hostname);
}

/** What happens when a page asks for a new window: always denied; an allowed link opens externally instead. */
export function windowOpenDecision(url: string): { action: 'deny'; openExternally: boolean } {
  return { action: 'deny', openExternally: externalLinkAllowed(url) };
}

/** Whether a page may use a permission (camera, notifications, clipboard…): no. */
export function permissionAllowed(_permission: string): boolean {
  return false;
}
