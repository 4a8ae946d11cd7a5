// The real app for a test: `agenvoy web` (browser mode's host: the same core, store, gate and dialogs as the desktop
// app) in its own process over a temp AGENVOY_HOME, with a local OpenAI-compatible server in this process speaking
// the real SSE wire format as the model, recording every request.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startOpenAiTestServer } from '../../main/agent/providers/testing/openai-test-server';
import type { ScriptedServer } from '../../main/agent/providers/testing/scripted-server';

/** A running app and its model. */
export interface AppUnderTest {
  /** The page URL, token included. */
  url: string;
  /** The URL of another page of the app (e.g. dialog.html), token included. */
  pageUrl(page: string): string;
  home: string;
  workspace: string;
  /** The host's $HOME when the test gave it one of its own (`ownFolders`), else null. */
  userHome: string | null;
  model: ScriptedServer;
  /** What the host printed on stdout and stderr so far. */
  output(): string;
  /** The SQLite files (database, WAL, shared memory). */
  databaseFiles(): string[];
  /** The app's log files. */
  logFiles(): string[];
  close(): Promise<void>;
}

/** What a test sets up before the app starts. */
export interface AppOptions {
  /** Runs before the host starts: drop script tools into `home`, files into `workspace`. */
  prepare?: (dirs: { home: string; workspace: string }) => void;
  /** A factor on every tool limit (AGENVOY_TIMEOUT_SCALE). */
  timeoutScale?: number;
  /**
   * No default workspace (settings name none and no --workspace), with a temp $HOME: each new chat gets a folder
   * of its own under `userHome`/Agenvoy, as the desktop app does by default (docs/security.md).
   */
  ownFolders?: boolean;
  /** A first run: no settings.json at all, so no provider is chosen and the app opens on its Welcome page. */
  firstRun?: boolean;
}

const AGENVOY = path.resolve('bin', 'agenvoy');
const START_TIMEOUT_MS = 30_000;

/** Starts the model server and `agenvoy web` over fresh temp folders; resolves once it printed its URL. */
export async function startAppUnderTest(options: AppOptions = {}): Promise<AppUnderTest> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-e2e-home-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-e2e-ws-'));
  const model = await startOpenAiTestServer();
  const userHome = options.ownFolders ? fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-e2e-user-')) : null;
  fs.mkdirSync(path.join(home, 'desktop'), { recursive: true });
  if (!options.firstRun)
    fs.writeFileSync(
      path.join(home, 'desktop', 'settings.json'),
      JSON.stringify({
        provider: 'openai',
        baseUrl: model.baseUrl,
        model: 'test-model',
        apiKeyName: null,
        ...(userHome ? {} : { defaultWorkspace: workspace }),
      }),
    );
  options.prepare?.({ home, workspace });
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: home };
  // No keychain in these tests (secrets go to the 0600 file under the temp home): with a D-Bus address or a
  // display, keytar may try to autolaunch D-Bus and hang (docs/hosts.md, "Building and testing on these machines").
  for (const name of [
    'DBUS_SESSION_BUS_ADDRESS',
    'DISPLAY',
    'AGENVOY_PROVIDER',
    'AGENVOY_BASE_URL',
    'AGENVOY_MODEL',
    'AGENVOY_APPROVAL_TIMEOUT',
  ]) {
    delete env[name];
  }
  if (options.timeoutScale) env.AGENVOY_TIMEOUT_SCALE = String(options.timeoutScale);
  if (userHome) env.HOME = userHome;
  const port = await freePort();
  const args = [AGENVOY, 'web', '--port', String(port), ...(userHome ? [] : ['--workspace', workspace])];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let url: string;
  try {
    url = await waitForUrl(child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    await model.close();
    throw error;
  }
  const { origin, searchParams } = new URL(url);
  const desktop = path.join(home, 'desktop');
  return {
    url,
    pageUrl: (page) => `${origin}/${page}?token=${searchParams.get('token') ?? ''}`,
    home,
    workspace,
    userHome,
    model,
    output: () => output,
    databaseFiles: () => filesUnder(desktop).filter((f) => /\.db(-wal|-shm)?$/.test(f)),
    logFiles: () => filesUnder(path.join(desktop, 'logs')),
    async close() {
      await stop(child);
      await model.close();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(workspace, { recursive: true, force: true });
      if (userHome) fs.rmSync(userHome, { recursive: true, force: true });
    },
  };
}

function waitForUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`agenvoy web printed no URL in ${START_TIMEOUT_MS} ms:\n${output()}`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output());
      if (match) done(null, match[1]);
    };
    const exited = (code: number | null) =>
      done(new Error(`agenvoy web exited (${code}) before it listened:\n${output()}`));
    const done = (error: Error | null, url?: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve(url as string);
    };
    child.stdout?.on('data', check);
    child.once('exit', exited);
  });
}

// SIGTERM lets the host cancel turns and tasks and close the store; a host stuck past the grace is killed.
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
  await exited;
  clearTimeout(timer);
}

// A port the OS just handed out and released (a fixed --port, as people run it).
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}
