// A real browser-mode stack for tests: temp AGENVOY_HOME, the app host (core, store, gate, dialogs), a local
// OpenAI-compatible provider, and the web server on 127.0.0.1; plus a bridge client over a real WebSocket.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { WebSocket } from 'ws';
import type {
  ChatEvent,
  DialogEvent,
  DialogRequest,
  EventChannel,
  EventPayload,
  Result,
} from '../../../preload/contract';
import type { WebBridge } from '../../../preload/web-bridge';
import { connectWebBridge, socketUrl } from '../../../preload/web-bridge';
import type { ScriptedServer } from '../../agent/providers/testing/scripted-server';
import { startOpenAiTestServer } from '../../agent/providers/testing/openai-test-server';
import type { AppHost } from '../../host/open-app-host';
import { openAppHost } from '../../host/open-app-host';
import type { WebServer } from '../web-server';
import { startWebServer } from '../web-server';

/** The running stack. */
export interface WebFixture {
  home: string;
  workspace: string;
  provider: ScriptedServer;
  host: AppHost;
  web: WebServer;
  /** A page's bridge over a real WebSocket, recording every raw frame it receives. */
  connect(): Promise<TestClient>;
  close(): Promise<void>;
}

/** A connected bridge with what it has seen. */
export interface TestClient {
  bridge: WebBridge;
  frames: string[];
  events: Array<{ channel: EventChannel; payload: unknown }>;
  dialogs: DialogEvent[];
  /** Resolves with the first chat event matching `test` (already seen or still to come). */
  chatEvent<T extends ChatEvent['type']>(
    type: T,
    test?: (event: Extract<ChatEvent, { type: T }>) => boolean,
  ): Promise<Extract<ChatEvent, { type: T }>>;
  /** Resolves with the next dialog that opens of `kind`. */
  dialog<K extends DialogRequest['kind']>(kind: K): Promise<Extract<DialogRequest, { kind: K }>>;
  close(): void;
}

/** Writes a script tool folder under `home`. */
export function writeScript(
  home: string,
  folder: string,
  manifest: Record<string, unknown>,
  script: string,
): void {
  const dir = path.join(home, 'tools', 'script', folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'tool.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(dir, 'script.js'), script);
}

/** A stand-in renderer build: the pages and one asset, enough to test serving. */
export function fakeRendererDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-renderer-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><script type="module" src="./assets/app.js"></script>',
  );
  fs.writeFileSync(path.join(dir, 'dialog.html'), '<!doctype html><p>dialog</p>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log("app");');
  return dir;
}

/**
 * Starts the stack; `prepare` runs before the host starts (to drop script tools or secrets in). `workspace: null`
 * starts the host without one (each chat then gets a folder of its own); `env` adds to the host's environment.
 */
export async function webFixture(
  options: {
    prepare?: (home: string, workspace: string) => void;
    workspace?: null;
    env?: NodeJS.ProcessEnv;
    /** Start mcp.json's servers (default: none are started). */
    mcp?: 'wait';
  } = {},
): Promise<WebFixture> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-web-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-web-ws-'));
  const provider = await startOpenAiTestServer();
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'desktop', 'settings.json'),
    JSON.stringify({ provider: 'openai', baseUrl: provider.baseUrl, model: 'test-model', apiKeyName: null }),
  );
  options.prepare?.(home, workspace);
  // No keychain in tests: secrets go to the temp home's 0600 file, and no D-Bus call can hang.
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: home, ...options.env };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  delete env.AGENVOY_PROVIDER;
  delete env.AGENVOY_BASE_URL;
  delete env.AGENVOY_MODEL;
  // The keychain is probed from process.env on first use: callers unset DBUS_SESSION_BUS_ADDRESS and DISPLAY too.
  const host = await openAppHost({
    mode: 'web',
    home,
    env,
    ...(options.workspace === null ? {} : { workspace }),
    mcp: options.mcp ?? 'off',
    watchScripts: false,
    providerOptions: { retry: { maxAttempts: 1, baseDelayMs: 10, maxDelayMs: 20 } },
  });
  const rendererDir = fakeRendererDir();
  const web = await startWebServer({ host, rendererDir });
  const clients: TestClient[] = [];
  return {
    home,
    workspace,
    provider,
    host,
    web,
    async connect() {
      const client = await testClient(web);
      clients.push(client);
      return client;
    },
    async close() {
      clients.forEach((client) => client.close());
      await web.close();
      await host.close();
      await provider.close();
      fs.rmSync(rendererDir, { recursive: true, force: true });
    },
  };
}

/** Connects a bridge to `web` as its own page would (its Origin, its token). */
export async function testClient(
  web: Pick<WebServer, 'port' | 'token'>,
  origin = `http://127.0.0.1:${web.port}`,
): Promise<TestClient> {
  const frames: string[] = [];
  const events: TestClient['events'] = [];
  const dialogs: DialogEvent[] = [];
  const chatWaiters: Array<{ test: (event: ChatEvent) => boolean; resolve: (event: ChatEvent) => void }> = [];
  const dialogWaiters: Array<{ kind: string; resolve: (dialog: DialogRequest) => void }> = [];
  const { url, token } = socketUrl({
    protocol: 'http:',
    host: `127.0.0.1:${web.port}`,
    search: `?token=${web.token}`,
  });
  const bridge = connectWebBridge({
    url,
    token,
    createSocket: (target) => {
      const socket = new WebSocket(target, { origin });
      socket.on('message', (data) => frames.push(String(data)));
      return socket as never;
    },
  });
  const channels: EventChannel[] = [
    'chat.event',
    'gate.event',
    'task.changed',
    'tools.changed',
    'mcp.changed',
    'rules.changed',
    'notice',
  ];
  for (const channel of channels) {
    bridge.api.on(channel, (payload: EventPayload<typeof channel>) => {
      events.push({ channel, payload });
      if (channel !== 'chat.event') return;
      const event = payload as ChatEvent;
      for (const waiter of [...chatWaiters]) {
        if (waiter.test(event)) {
          chatWaiters.splice(chatWaiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    });
  }
  bridge.dialogs.onEvent((event) => {
    dialogs.push(event);
    if (event.type !== 'dialog.opened') return;
    const waiter = dialogWaiters.find((w) => w.kind === event.dialog.kind);
    if (waiter) {
      dialogWaiters.splice(dialogWaiters.indexOf(waiter), 1);
      waiter.resolve(event.dialog);
    }
  });
  await new Promise<void>((resolve) => {
    const off = bridge.api.on('connection', (state) => {
      if (state.state === 'connected') {
        off();
        resolve();
      }
    });
  });
  return {
    bridge,
    frames,
    events,
    dialogs,
    chatEvent(type, test = () => true) {
      const match = (event: ChatEvent) => event.type === type && test(event as never);
      const seen = events.find((e) => e.channel === 'chat.event' && match(e.payload as ChatEvent));
      if (seen) return Promise.resolve(seen.payload as never);
      return new Promise((resolve) => chatWaiters.push({ test: match, resolve: resolve as never }));
    },
    dialog(kind) {
      return new Promise((resolve) => dialogWaiters.push({ kind, resolve: resolve as never }));
    },
    close: () => bridge.close(),
  };
}

/** The value of an answer that must have succeeded; a failure fails the test with its code and message. */
export function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** A browser-mode stack and one client connected to it for a test file: made before its tests, closed after them. */
export function useWebClient(use: (fixture: WebFixture, client: TestClient) => void): void {
  let fixture: WebFixture | undefined;
  beforeAll(async () => {
    fixture = await webFixture();
    use(fixture, await fixture.connect());
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });
}
