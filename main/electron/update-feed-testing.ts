// Test support: an update feed served on 127.0.0.1 in the format electron-builder publishes (latest-linux.yml next to
// the installer, sha512 in base64), and electron-updater's own Linux client (DebUpdater) pointed at it through an
// app-update.yml as a packaged app carries. Only Electron itself is replaced: the app adapter (version, cache folder,
// relaunch) and, inside electron-updater's own HTTP client, the request itself (Node's http for Electron's net).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { DebUpdater } from 'electron-updater';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor';

const yaml = createRequire(import.meta.url)('js-yaml') as { dump(value: unknown): string };

/** A release on the feed. */
export interface FeedRelease {
  version: string;
  /** The installer's bytes. */
  bytes: Buffer;
  /** Served instead of `bytes` while the feed still announces the hash of `bytes` (a tampered download). */
  servedBytes?: Buffer;
}

/** The local feed: what it serves and every path it was asked for. */
export interface UpdateFeed {
  url: string;
  requests: string[];
  release: FeedRelease;
  close(): Promise<void>;
}

/** The installer's name, as electron-builder names a deb. */
export const debName = (version: string) => `agenvoy-desktop_${version}_amd64.deb`;

/** Serves latest-linux.yml (and the arm64 name) and the installer it lists. */
export async function startUpdateFeed(release: FeedRelease): Promise<UpdateFeed> {
  const feed = { requests: [] as string[], release } as UpdateFeed;
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://feed').pathname;
    feed.requests.push(pathname);
    const current = feed.release;
    if (pathname === '/latest-linux.yml' || pathname === '/latest-linux-arm64.yml') {
      response.writeHead(200, { 'content-type': 'text/yaml' });
      response.end(feedFile(current));
    } else if (pathname === `/${debName(current.version)}`) {
      const body = current.servedBytes ?? current.bytes;
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      response.end(body);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  feed.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return feed;
}

/** latest-linux.yml as electron-builder writes it. */
export function feedFile(release: FeedRelease): string {
  const sha512 = createHash('sha512').update(release.bytes).digest('base64');
  const name = debName(release.version);
  return yaml.dump({
    version: release.version,
    files: [{ url: name, sha512, size: release.bytes.length }],
    path: name,
    sha512,
    releaseDate: new Date(0).toISOString(),
  });
}

/** Random installer bytes. */
export const installerBytes = (size = 256 * 1024) => randomBytes(size);

/**
 * electron-updater's own HTTP client (its download, checksum and retry logic), with Node's http where Electron's net
 * module would make the request: the one piece of the client that needs Electron.
 */
class NodeNetHttpExecutor extends ElectronHttpExecutor {
  override createRequest(
    ...[options, callback]: Parameters<ElectronHttpExecutor['createRequest']>
  ): ReturnType<ElectronHttpExecutor['createRequest']> {
    const request: ClientRequest = http.request(
      options as RequestOptions,
      callback as (r: IncomingMessage) => void,
    );
    return request as unknown as ReturnType<ElectronHttpExecutor['createRequest']>;
  }

  // Node's responses carry their redirects, which the shared executor follows itself.
  override addRedirectHandlers(): void {}
}

/** The client and the folder it keeps its files in. */
export interface TestUpdater {
  client: DebUpdater;
  dir: string;
  relaunched: number;
  dispose(): void;
}

/** electron-updater's DebUpdater as a packaged app `version` would run it, reading app-update.yml for `feedUrl`. */
export function testUpdater(version: string, feedUrl: string): TestUpdater {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-updater-'));
  const configPath = path.join(dir, 'resources', 'app-update.yml');
  fs.mkdirSync(path.dirname(configPath), { recursive: true });
  fs.writeFileSync(
    configPath,
    yaml.dump({ provider: 'generic', url: feedUrl, updaterCacheDirName: 'agenvoy-desktop-updater' }),
  );
  const state = { relaunched: 0 };
  const app: AppAdapter = {
    version,
    name: 'agenvoy-desktop',
    isPackaged: true,
    appUpdateConfigPath: configPath,
    userDataPath: path.join(dir, 'user-data'),
    baseCachePath: path.join(dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => {
      state.relaunched++;
    },
    quit: () => {},
    onQuit: () => {},
  };
  const client = new DebUpdater(null, app);
  (client as unknown as { httpExecutor: ElectronHttpExecutor }).httpExecutor = new NodeNetHttpExecutor();
  client.logger = null;
  return {
    client,
    dir,
    get relaunched() {
      return state.relaunched;
    },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Files the client downloaded, under its cache folder. */
export function downloadedFiles(updater: TestUpdater): string[] {
  const root = path.join(updater.dir, 'cache', 'agenvoy-desktop-updater');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.deb'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}
