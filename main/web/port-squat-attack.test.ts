// Another local user against an open browser-mode page: `agenvoy web` dies without closing its sockets (a crash,
// `kill -9`, the terminal window closed), and the page, which reconnects by itself, keeps knocking on
// ws://127.0.0.1:PORT/ws. The other user binds that port as soon as it is free and answers. The page must not hand
// the impostor its token, show what it sends (a "secret needed" dialog the person would fill in) or send it anything
// the person does; the host that served the page has to prove it holds the token first.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { AgenvoyGlobals, ConnectionState, DialogEvent } from '../../preload/contract';
import { installWebBridge } from '../../preload/web-bridge';

const here = path.dirname(new URL(import.meta.url).pathname);
let dir: string;
let host: ChildProcess | null = null;

// The real host and server in a child process of their own, so it can die as a crashed one does.
const CHILD = (root: string) => `
import { openAppHost } from ${JSON.stringify(pathToFileURL(path.join(root, 'main/host/open-app-host.ts')).href)};
import { startWebServer } from ${JSON.stringify(pathToFileURL(path.join(root, 'main/web/web-server.ts')).href)};
import { fakeRendererDir } from ${JSON.stringify(pathToFileURL(path.join(root, 'main/web/testing/web-fixture.ts')).href)};
const host = await openAppHost({ mode: 'web', home: process.env.AGENVOY_HOME, env: process.env, workspace: process.env.WORKSPACE, mcp: 'off', watchScripts: false });
const web = await startWebServer({ host, rendererDir: fakeRendererDir() });
console.log(JSON.stringify({ port: web.port, token: web.token }));
`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-squat-'));
});
afterAll(() => {
  host?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

async function startHost(): Promise<{ port: number; token: string }> {
  const script = path.join(dir, 'host.mts');
  fs.writeFileSync(script, CHILD(path.resolve(here, '../..')));
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: path.join(dir, 'home'), WORKSPACE: dir };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'AGENVOY_PROVIDER', 'AGENVOY_BASE_URL'])
    delete env[name];
  host = spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    host?.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(JSON.parse(line) as { port: number; token: string });
    });
    host?.once('exit', (code) => reject(new Error(`the host exited (${code})`)));
  });
}

// Binds the port the moment it is free, as a squatter polling for it would.
async function squat(
  port: number,
  onSocket: (socket: WebSocket, url: string) => void,
): Promise<WebSocketServer> {
  for (;;) {
    const server = await new Promise<WebSocketServer | null>((resolve) => {
      const candidate = new WebSocketServer({ host: '127.0.0.1', port });
      candidate.once('listening', () => resolve(candidate));
      candidate.once('error', () => resolve(null));
    });
    if (server) {
      server.on('connection', (socket, request) => onSocket(socket, request.url ?? ''));
      return server;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('an impostor on the port of a browser-mode page whose host died', () => {
  it('learns no token, shows the page no dialog and receives nothing the person does', async () => {
    const { port, token } = await startHost();
    const origin = `http://127.0.0.1:${port}`;
    // The page, as browser mode installs it: its location, the DOM's WebSocket (ws with the page's Origin).
    const savedSocket = (globalThis as { WebSocket?: unknown }).WebSocket;
    (globalThis as { WebSocket?: unknown }).WebSocket = class extends WebSocket {
      constructor(url: string) {
        super(url, { origin });
      }
    };
    const page = {
      location: { protocol: 'http:', host: `127.0.0.1:${port}`, search: `?token=${token}` },
    } as unknown as AgenvoyGlobals & { location: Location };
    const states: ConnectionState[] = [];
    const bridge = installWebBridge(page);
    const dialogs: DialogEvent[] = [];
    const seen: { urls: string[]; frames: string[] } = { urls: [], frames: [] };
    let impostor: WebSocketServer | null = null;
    try {
      page.agenvoy?.on('connection', (state) => states.push(state));
      await expect.poll(() => states.at(-1)?.state, { timeout: 20_000 }).toBe('connected');
      // What the page does with a dialog: the person answers it (here at once, with what they would type).
      page.agenvoyDialog?.onEvent((event) => {
        dialogs.push(event);
        if (event.type === 'dialog.opened' && event.dialog.kind === 'secret')
          void page.agenvoyDialog?.answerSecret({
            id: event.dialog.id,
            answer: { kind: 'value', value: 'sk-typed-by-the-person' },
          });
      });
      host?.kill('SIGKILL');
      impostor = await squat(port, (socket, url) => {
        seen.urls.push(url);
        socket.on('message', (data) => seen.frames.push(String(data)));
        // It knows the protocol (the source is public) and claims to be the host.
        socket.send(JSON.stringify({ type: 'hello', proof: 'x'.repeat(43) }));
        socket.send(
          JSON.stringify({
            type: 'dialog',
            event: {
              type: 'dialog.opened',
              dialog: {
                kind: 'secret',
                id: 'fake',
                key: 'OPENAI_API_KEY',
                question: 'Agenvoy restarted: enter your OpenAI key again',
                forTool: null,
                openedAt: Date.now(),
              },
            },
          }),
        );
      });
      // The page reconnects (its delays top out at 4 s) and meets the impostor.
      await expect.poll(() => seen.urls.length, { timeout: 15_000 }).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500));
      void page.agenvoy?.invoke('chats.list', {});
      await new Promise((r) => setTimeout(r, 500));
      expect(seen.urls.join(' ')).not.toContain(token);
      expect(dialogs).toEqual([]);
      expect(seen.frames).toEqual([]);
      // The page says it lost the app for good, rather than knocking again.
      expect(states.at(-1)).toMatchObject({ state: 'closed' });
    } finally {
      bridge.close();
      (globalThis as { WebSocket?: unknown }).WebSocket = savedSocket;
      await new Promise<void>((resolve) => (impostor ? impostor.close(() => resolve()) : resolve()));
    }
  }, 60_000);
});
