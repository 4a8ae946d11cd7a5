// The offscreen render window's guards (download_file render=true), in plain Node so they are tested without an
// Electron binary. The page's http and https requests are answered by the tool's guarded fetch (protocol.handle);
// everything else the network service would open itself is held to the same address guard
// (docs/security.md, "Rendered pages"):
//  - every proxied connection (WebSocket, WebRTC over TCP, preconnects) goes through the tool's guarded proxy,
//    loopback included (`<-loopback>` removes Chromium's implicit bypass for it);
//  - ws: and wss: URLs are checked before they start and refused with the guard's reason (webRequest does not
//    see a service worker's sockets, hence the proxy as well);
//  - WebRTC may not use UDP outside the proxy nor reveal local addresses (`disable_non_proxied_udp`);
//  - no permission, no download, no new window.
import type { BrowserWindowConstructorOptions, Session } from 'electron';

/** WebRTC's IP handling in the render window: no local addresses, no UDP that bypasses the proxy. */
export const RENDER_WEBRTC_POLICY = 'disable_non_proxied_udp' as const;

/** The URL patterns whose requests are checked before they start. */
export const SOCKET_URL_PATTERNS = ['ws://*/*', 'wss://*/*'];

/** What the render session needs from the tool: its guarded proxy and the guard's verdict on a socket URL. */
export interface RenderGuards {
  proxy: string;
  checkSocket: (url: string) => Promise<string | null>;
  /** Told about each refused socket (for the log). */
  onBlocked?: (url: string, reason: string) => void;
}

/** The parts of an Electron Session the guards use (an in-memory partition of its own). */
export type RenderSession = Pick<
  Session,
  'setProxy' | 'webRequest' | 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'on'
>;

/** The parts of a WebContents the guards use. */
export interface RenderContents {
  setWebRTCIPHandlingPolicy(policy: typeof RENDER_WEBRTC_POLICY): void;
  setWindowOpenHandler(handler: () => { action: 'deny' }): void;
}

/** The proxy settings of the render session: everything through the guarded proxy, loopback too. */
export function renderProxyConfig(proxy: string): {
  mode: 'fixed_servers';
  proxyRules: string;
  proxyBypassRules: string;
} {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(proxy)) throw new Error(`the render proxy must be local: ${proxy}`);
  return { mode: 'fixed_servers', proxyRules: proxy, proxyBypassRules: '<-loopback>' };
}

/** What happens to a ws: or wss: request: cancelled when the guard blocks it. */
export async function socketDecision(
  url: string,
  guards: Pick<RenderGuards, 'checkSocket' | 'onBlocked'>,
): Promise<{ cancel: boolean }> {
  const reason = await guards.checkSocket(url).catch((error: unknown) => String(error));
  if (reason === null) return { cancel: false };
  guards.onBlocked?.(url, reason);
  return { cancel: true };
}

/** Applies the guards to the render session before any page loads. */
export async function guardRenderSession(session: RenderSession, guards: RenderGuards): Promise<void> {
  await session.setProxy(renderProxyConfig(guards.proxy));
  session.webRequest.onBeforeRequest({ urls: SOCKET_URL_PATTERNS }, (details, callback) => {
    void socketDecision(details.url, guards).then(callback, () => callback({ cancel: true }));
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
}

/** Applies the guards to the render window's contents before it loads the page. */
export function guardRenderContents(contents: RenderContents): void {
  contents.setWebRTCIPHandlingPolicy(RENDER_WEBRTC_POLICY);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** The render window: offscreen, hidden, sandboxed, isolated, no Node, in the given session. */
export function renderWindowOptions(session: Session): BrowserWindowConstructorOptions {
  return {
    show: false,
    width: 1280,
    height: 900,
    webPreferences: {
      offscreen: true,
      session,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      experimentalFeatures: false,
      spellcheck: false,
      devTools: false,
      safeDialogs: true,
    },
  };
}
