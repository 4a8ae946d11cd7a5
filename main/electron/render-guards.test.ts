// The offscreen render window's guards, in plain Node (no Electron binary here): the window's options, the
// session's proxy and socket check as the Electron code applies them, and the WebRTC policy.
import { describe, expect, it } from 'vitest';
import { AddressGuard } from '../../tools/sdk/web/address-guard';
import { socketBlockReason } from '../../tools/builtin/web/guarded-proxy';
import type { RenderContents, RenderSession } from './render-guards';
import {
  guardRenderContents,
  guardRenderSession,
  RENDER_WEBRTC_POLICY,
  renderProxyConfig,
  renderWindowOptions,
  SOCKET_URL_PATTERNS,
  socketDecision,
} from './render-guards';

const guard = new AddressGuard({
  allowedHosts: [],
  allowPrivateNetwork: false,
  resolve: async (host) => [
    { address: host === 'internal.example' ? '10.0.0.7' : '93.184.216.34', family: 4 },
  ],
});
const checkSocket = (url: string) => socketBlockReason(guard, url);

// Records what the guards do to a session, as Electron's Session would receive it.
function recordingSession() {
  const seen: {
    proxy?: unknown;
    filter?: { urls: string[] };
    listener?: (details: { url: string }, callback: (response: { cancel?: boolean }) => void) => void;
    permission?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
    check?: () => boolean;
    download?: (event: { preventDefault(): void }) => void;
  } = {};
  const session = {
    setProxy: async (config: unknown) => void (seen.proxy = config),
    webRequest: {
      onBeforeRequest: (filter: { urls: string[] }, listener: typeof seen.listener) => {
        seen.filter = filter;
        seen.listener = listener;
      },
    },
    setPermissionRequestHandler: (handler: typeof seen.permission) => void (seen.permission = handler),
    setPermissionCheckHandler: (handler: typeof seen.check) => void (seen.check = handler),
    on: (event: string, handler: typeof seen.download) => {
      if (event === 'will-download') seen.download = handler;
    },
  };
  return { session: session as unknown as RenderSession, seen };
}

const decide = (
  listener: NonNullable<ReturnType<typeof recordingSession>['seen']['listener']>,
  url: string,
) => new Promise<{ cancel?: boolean }>((resolve) => listener({ url }, resolve));

describe('the render window', () => {
  it('is offscreen, hidden, sandboxed and isolated, with no Node, in its own session', () => {
    const session = { partition: 'render-x' } as never;
    const options = renderWindowOptions(session);
    expect(options.show).toBe(false);
    expect(options.webPreferences).toMatchObject({
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
      devTools: false,
    });
    expect(options.webPreferences).not.toHaveProperty('preload');
  });

  it('WebRTC reveals no local address and sends no UDP outside the proxy; new windows are denied', () => {
    const calls: string[] = [];
    let opened: unknown;
    const contents: RenderContents = {
      setWebRTCIPHandlingPolicy: (policy) => void calls.push(policy),
      setWindowOpenHandler: (handler) => void (opened = handler()),
    };
    guardRenderContents(contents);
    expect(calls).toEqual(['disable_non_proxied_udp']);
    expect(RENDER_WEBRTC_POLICY).toBe('disable_non_proxied_udp');
    expect(opened).toEqual({ action: 'deny' });
  });
});

describe('the render session', () => {
  it('sends every connection, loopback included, through the local guarded proxy', async () => {
    expect(renderProxyConfig('http://127.0.0.1:41234')).toEqual({
      mode: 'fixed_servers',
      proxyRules: 'http://127.0.0.1:41234',
      proxyBypassRules: '<-loopback>',
    });
    for (const bad of ['http://10.0.0.1:8080', 'socks5://127.0.0.1:1080', 'http://127.0.0.1:1;direct://', ''])
      expect(() => renderProxyConfig(bad), bad).toThrow(/must be local/);
  });

  it('cancels ws: and wss: requests the address guard blocks, before they start, and says why', async () => {
    const { session, seen } = recordingSession();
    const blocked: string[] = [];
    await guardRenderSession(session, {
      proxy: 'http://127.0.0.1:5555',
      checkSocket,
      onBlocked: (url, reason) => blocked.push(`${url}: ${reason}`),
    });
    expect(seen.proxy).toEqual(renderProxyConfig('http://127.0.0.1:5555'));
    expect(seen.filter).toEqual({ urls: SOCKET_URL_PATTERNS });
    expect(SOCKET_URL_PATTERNS).toEqual(['ws://*/*', 'wss://*/*']);
    const listener = seen.listener;
    if (!listener) throw new Error('no onBeforeRequest listener');
    for (const url of [
      'ws://127.0.0.1:9222/devtools/browser/x',
      'ws://localhost:6463/rpc',
      'ws://app.localhost./rpc',
      'wss://[::1]:8443/',
      'ws://192.168.0.1/',
      'ws://169.254.169.254/',
      'wss://internal.example/feed',
      'ws://0x7f.1/',
    ]) {
      expect(await decide(listener, url), url).toEqual({ cancel: true });
    }
    expect(await decide(listener, 'wss://stream.example.com/live')).toEqual({ cancel: false });
    expect(blocked).toHaveLength(8);
    expect(blocked[6]).toMatch(/internal\.example \(10\.0\.0\.7\) is a private address/);
  });

  it('a failing check cancels; permissions are refused; downloads are stopped', async () => {
    expect(await socketDecision('ws://x/', { checkSocket: () => Promise.reject(new Error('boom')) })).toEqual(
      {
        cancel: true,
      },
    );
    const { session, seen } = recordingSession();
    await guardRenderSession(session, { proxy: 'http://127.0.0.1:1', checkSocket });
    const granted = await new Promise<boolean>((resolve) => seen.permission?.({}, 'media', resolve));
    expect(granted).toBe(false);
    expect(seen.check?.()).toBe(false);
    let prevented = false;
    seen.download?.({ preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
  });
});
