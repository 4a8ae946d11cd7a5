// App-wide guards applied to every webContents and session: no navigation, no new windows, no webviews, no
// permissions, no downloads; allowed http(s) links open in the user's browser.
import type { App, Session, WebContents } from 'electron';
import { shell } from 'electron';
import {
  externalLinkOpenable,
  navigationDecision,
  permissionAllowed,
  windowOpenDecision,
} from './navigation-rules';

// A link goes to the user's browser once its host name is known not to lead to this machine (navigation-rules.ts).
function openExternally(url: string): void {
  void externalLinkOpenable(url).then((openable) => (openable ? shell.openExternal(url) : undefined));
}

/** Guards one webContents. */
export function hardenContents(contents: WebContents): void {
  // Only the app's own pages hand a link to the browser; a rendered page's navigations are refused, nothing more.
  const refuse = (event: { preventDefault(): void }, url: string) => {
    const decision = navigationDecision(contents.getURL(), url);
    if (decision.prevent) event.preventDefault();
    if (decision.openExternally) openExternally(url);
  };
  contents.on('will-navigate', (event) => refuse(event, event.url));
  contents.on('will-frame-navigate', (event) => refuse(event, event.url));
  contents.on('will-redirect', (event) => refuse(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const decision = windowOpenDecision(url);
    if (decision.openExternally && navigationDecision(contents.getURL(), url).openExternally)
      openExternally(url);
    return { action: decision.action };
  });
}

/** Guards one session: every permission request and check is refused, downloads are cancelled. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permissionAllowed(permission)),
  );
  session.setPermissionCheckHandler((_contents, permission) => permissionAllowed(permission));
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
}

/** Applies the guards to every webContents the app will ever create. */
export function hardenApp(app: App): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
}
