// The update decisions against electron-updater's real client and a feed on 127.0.0.1 in electron-builder's format:
// check on start and daily, download in the background, "Restart to update" only when no turn or task runs, nothing at
// all with the setting off, and a download that does not match its sha512 never offered.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateView } from '../../preload/contract';
import type { UpdateFeed } from './update-feed-testing';
import {
  debName,
  downloadedFiles,
  installerBytes,
  startUpdateFeed,
  testUpdater,
} from './update-feed-testing';
import type { TestUpdater } from './update-feed-testing';
import { UpdateController } from './updater-controller';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  feed: UpdateFeed;
  updater: TestUpdater;
  controller: UpdateController;
  views: UpdateView[];
  state: { enabled: boolean; busy: boolean; relaunched: number };
}

async function setup(
  options: {
    current?: string;
    feedVersion?: string;
    enabled?: boolean;
    tampered?: boolean;
    intervalMs?: number;
  } = {},
): Promise<Setup> {
  const bytes = installerBytes();
  const feed = await startUpdateFeed({
    version: options.feedVersion ?? '0.2.0',
    bytes,
    ...(options.tampered ? { servedBytes: installerBytes(bytes.length) } : {}),
  });
  cleanups.push(() => feed.close());
  const updater = testUpdater(options.current ?? '0.1.0', feed.url);
  cleanups.push(() => updater.dispose());
  const state = { enabled: options.enabled ?? true, busy: false, relaunched: 0 };
  const controller = new UpdateController({
    client: updater.client,
    currentVersion: options.current ?? '0.1.0',
    readEnabled: () => state.enabled,
    saveEnabled: async (enabled) => {
      state.enabled = enabled;
    },
    busy: () => state.busy,
    relaunch: () => {
      state.relaunched++;
    },
    startDelayMs: 10,
    intervalMs: options.intervalMs ?? 60_000,
  });
  cleanups.push(() => controller.stop());
  const views: UpdateView[] = [];
  controller.onChange((view) => views.push(view));
  return { feed, updater, controller, views, state };
}

async function until<T>(probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const feedRequests = (feed: UpdateFeed) => feed.requests.filter((request) => request.endsWith('.yml'));

describe('UpdateController with electron-updater over a local feed', () => {
  it('checks on start, downloads in the background, verifies it, and offers the restart', async () => {
    const { feed, updater, controller, views, state } = await setup();
    controller.start();
    const ready = await until(() => views.find((view) => view.status.state === 'ready'));
    expect(ready).toEqual({
      enabled: true,
      current: '0.1.0',
      status: { state: 'ready', version: '0.2.0', restartable: true },
    });
    // The same states the window shows, in order (the download's progress repeats 'downloading').
    const states = views.map((view) => view.status.state).filter((s, i, all) => s !== all[i - 1]);
    expect(states).toEqual(['checking', 'downloading', 'ready']);
    expect(feed.requests).toEqual(['/latest-linux.yml', `/${debName('0.2.0')}`]);
    const [file] = downloadedFiles(updater);
    expect(fs.readFileSync(file!).equals(feed.release.bytes)).toBe(true);
    expect(controller.restart()).toEqual({ restarting: true });
    expect(state.relaunched).toBe(1);
  });

  it('never offers or restarts while a turn or a task runs, and offers it once they end', async () => {
    const { controller, views, state } = await setup();
    state.busy = true;
    controller.start();
    await until(() => views.find((view) => view.status.state === 'ready'));
    expect(controller.view().status).toEqual({ state: 'ready', version: '0.2.0', restartable: false });
    expect(controller.restart()).toEqual({
      restarting: false,
      reason: 'a turn or a background task is running; restart when it ends',
    });
    expect(state.relaunched).toBe(0);
    state.busy = false;
    controller.refresh();
    expect(views.at(-1)?.status).toEqual({ state: 'ready', version: '0.2.0', restartable: true });
    // A refresh with nothing new says nothing.
    const count = views.length;
    controller.refresh();
    expect(views).toHaveLength(count);
  });

  it('is up to date when the feed has the running version: nothing is downloaded or offered', async () => {
    const { feed, controller, views } = await setup({ current: '0.2.0', feedVersion: '0.2.0' });
    controller.start();
    const idle = await until(() => views.find((view) => view.status.state === 'idle'));
    expect(idle.status).toEqual({ state: 'idle', checkedAt: expect.any(Number) });
    expect(feed.requests).toEqual(['/latest-linux.yml']);
    expect(controller.restart()).toEqual({ restarting: false, reason: 'no update has been downloaded' });
  });

  it('with the setting off asks the feed nothing, until it is turned on', async () => {
    const { feed, controller, views, state } = await setup({ enabled: false });
    controller.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(feed.requests).toEqual([]);
    expect(controller.view().status).toEqual({ state: 'off' });
    expect(state.enabled).toBe(false);
    await controller.setEnabled(true);
    expect(state.enabled).toBe(true);
    await until(() => views.find((view) => view.status.state === 'ready'));
    expect(feedRequests(feed)).toEqual(['/latest-linux.yml']);
  });

  it('checks again on its interval, and stops when the setting is turned off', async () => {
    const { feed, controller } = await setup({ current: '0.2.0', feedVersion: '0.2.0', intervalMs: 100 });
    controller.start();
    await until(() => feedRequests(feed).length >= 3);
    await controller.setEnabled(false);
    expect(controller.view().status).toEqual({ state: 'off' });
    const seen = feedRequests(feed).length;
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(feedRequests(feed).length).toBe(seen);
  });

  it('refuses a download that does not match the sha512 the feed announced', async () => {
    const { controller, views, state } = await setup({ tampered: true });
    controller.start();
    const failed = await until(() => views.find((view) => view.status.state === 'failed'));
    expect(failed.status.state === 'failed' && failed.status.message).toMatch(/sha512 checksum mismatch/);
    expect(views.some((view) => view.status.state === 'ready')).toBe(false);
    expect(controller.restart().restarting).toBe(false);
    expect(state.relaunched).toBe(0);
  });

  it('says the check failed when the feed cannot be reached, and offers nothing', async () => {
    const { feed, controller, views } = await setup();
    await feed.close();
    controller.start();
    const failed = await until(() => views.find((view) => view.status.state === 'failed'));
    expect(failed.status).toEqual({
      state: 'failed',
      message: expect.stringMatching(/ECONNREFUSED/),
      checkedAt: expect.any(Number),
    });
  });
});

describe('UpdateController where the app cannot update itself', () => {
  it('says why, never checks, never restarts, and still saves the setting', async () => {
    const state = { enabled: true };
    const controller = new UpdateController({
      client: { unsupported: 'not a packaged build' },
      currentVersion: '0.1.0',
      readEnabled: () => state.enabled,
      saveEnabled: async (enabled) => {
        state.enabled = enabled;
      },
      busy: () => false,
      relaunch: () => {
        throw new Error('must not relaunch');
      },
    });
    controller.start();
    expect(controller.view()).toEqual({
      enabled: true,
      current: '0.1.0',
      status: { state: 'unsupported', reason: 'not a packaged build' },
    });
    expect(controller.restart()).toEqual({ restarting: false, reason: 'not a packaged build' });
    expect((await controller.setEnabled(false)).enabled).toBe(false);
    controller.stop();
  });
});
