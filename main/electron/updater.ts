// The desktop app's updates (docs/release.md, "Updates"): electron-updater's autoUpdater, reading the feed
// electron-builder wrote into resources/app-update.yml, under the UpdateController's rules, with the host's turns and
// tasks as the work it never restarts under.
import fs from 'node:fs';
import path from 'node:path';
import { app } from 'electron';
import electronUpdater from 'electron-updater';
import { agenvoyHome } from '../core/paths';
import type { AppHost } from '../host/open-app-host';
import { readAutoUpdate, saveAutoUpdate } from '../settings/update-setting';
import type { UpdaterClient } from './updater-controller';
import { UpdateController } from './updater-controller';
import { WorkWatch } from './updater-work';

/** The updater before and after the host exists. */
export interface DesktopUpdates {
  /** The host's UpdatePort. */
  controller: UpdateController;
  /** Starts checking once the host runs; returns the stop. */
  attach(host: AppHost): () => void;
}

/** Builds the updater for this run of the app (no check yet). */
export function desktopUpdates(env: NodeJS.ProcessEnv = process.env): DesktopUpdates {
  const home = agenvoyHome(env);
  let work: WorkWatch | null = null;
  let log: AppHost['core']['log'] | null = null;
  const client = updaterClient();
  const controller = new UpdateController({
    client,
    currentVersion: app.getVersion(),
    readEnabled: () => readAutoUpdate(home),
    saveEnabled: (enabled) => saveAutoUpdate(home, enabled),
    busy: () => work?.busy() ?? false,
    // Quits through the app's own quit (every turn, task and child stopped), then the installer runs.
    relaunch: () => electronUpdater.autoUpdater.quitAndInstall(false, true),
    log: (level, message) => log?.[level](message),
  });
  return {
    controller,
    attach(host) {
      const watch = new WorkWatch(() => host.runningTasks());
      work = watch;
      log = host.core.log;
      const off = host.service.on((event) => {
        if (watch.observe(event)) controller.refresh();
      });
      controller.start();
      return () => {
        off();
        controller.stop();
      };
    },
  };
}

/** electron-updater's client, or why this run cannot update itself. */
function updaterClient(): UpdaterClient | { unsupported: string } {
  if (!app.isPackaged) return { unsupported: 'not a packaged build: update with git and npm' };
  if (!fs.existsSync(path.join(process.resourcesPath, 'app-update.yml')))
    return { unsupported: 'this build carries no update feed' };
  const updater = electronUpdater.autoUpdater;
  // The app log gets the lines; electron-updater would otherwise print to the console.
  updater.logger = null;
  if (!updater.isUpdaterActive())
    return { unsupported: 'this install cannot update itself (on Linux only the AppImage and the deb can)' };
  return updater;
}
