// When the desktop app checks for updates, when it offers to restart into one, and never under a running turn or task
// (docs/release.md, "Updates"). Plain Node: it drives anything shaped like electron-updater's AppUpdater, so it is
// tested against the real electron-updater client and a local feed; main/electron/updater.ts binds it to the app.
import type { UpdateRestartResult, UpdateStatus, UpdateView } from '../../preload/contract';
import type { UpdatePort } from '../host/update-handlers';

/** The part of electron-updater's AppUpdater this uses (its events and its check). */
export interface UpdaterClient {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<{ downloadPromise?: Promise<unknown> | null } | null>;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(
    event: 'update-available' | 'update-not-available',
    listener: (info: { version: string }) => void,
  ): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A day: how often a running app checks again. */
export const CHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** How long after start the first check waits, so it never slows the window's first paint. */
export const START_DELAY_MS = 30_000;

/** What the controller works with. */
export interface UpdateControllerOptions {
  /** The updater, or why this app cannot update itself. */
  client: UpdaterClient | { unsupported: string };
  currentVersion: string;
  /** settings.json's `autoUpdate`, read at each decision. */
  readEnabled(): boolean;
  saveEnabled(enabled: boolean): Promise<void>;
  /** Whether a turn or a background task runs now. */
  busy(): boolean;
  /** Quits and starts the downloaded version (electron-updater's quitAndInstall). */
  relaunch(): void;
  log?: (level: 'info' | 'warn', message: string) => void;
  startDelayMs?: number;
  intervalMs?: number;
  now?: () => number;
}

type Phase =
  | Exclude<UpdateStatus, { state: 'ready' } | { state: 'unsupported' } | { state: 'off' }>
  | {
      state: 'ready';
      version: string;
    };

/** Checks on start and daily, downloads in the background, offers a restart only when nothing runs. */
export class UpdateController implements UpdatePort {
  private phase: Phase = { state: 'idle', checkedAt: null };
  private readonly listeners = new Set<(view: UpdateView) => void>();
  private startTimer: NodeJS.Timeout | null = null;
  private dailyTimer: NodeJS.Timeout | null = null;
  private started = false;
  private lastView = '';

  constructor(private readonly options: UpdateControllerOptions) {
    const client = this.client;
    if (!client) return;
    // Downloads run by themselves after a check; a downloaded update also installs when the person quits.
    client.autoDownload = true;
    client.autoInstallOnAppQuit = options.readEnabled();
    client.on('checking-for-update', () => this.move({ state: 'checking' }));
    client.on('update-not-available', () => this.move({ state: 'idle', checkedAt: this.now() }));
    client.on('update-available', (info) =>
      this.move({ state: 'downloading', version: info.version, percent: 0 }),
    );
    client.on('download-progress', (progress) => {
      if (this.phase.state === 'downloading')
        this.move({ ...this.phase, percent: Math.max(0, Math.min(100, Math.round(progress.percent))) });
    });
    client.on('update-downloaded', (info) => {
      this.log('info', `update ${info.version} downloaded`);
      this.move({ state: 'ready', version: info.version });
    });
    client.on('error', (error) => {
      this.log('warn', `update failed: ${error.message}`);
      // A download that finished stays offered; anything else waits for the next daily check.
      if (this.phase.state !== 'ready')
        this.move({ state: 'failed', message: error.message.split('\n')[0] ?? '', checkedAt: this.now() });
    });
  }

  /** Starts the schedule: a first check shortly after start, then one a day. */
  start(): void {
    if (this.started || !this.client) return;
    this.started = true;
    this.schedule();
  }

  /** Stops checking (the app quits). */
  stop(): void {
    this.started = false;
    this.clearTimers();
  }

  /** Checks now, unless updates are off, unsupported, or a check or download is under way. */
  async check(): Promise<void> {
    const client = this.client;
    if (!client || !this.options.readEnabled()) return;
    if (this.phase.state === 'checking' || this.phase.state === 'downloading' || this.phase.state === 'ready')
      return;
    try {
      const result = await client.checkForUpdates();
      // The download reports through events; its rejection is the same error, already reported.
      result?.downloadPromise?.catch(() => {});
    } catch (error) {
      if (this.phase.state !== 'failed')
        this.move({
          state: 'failed',
          message: (error as Error).message.split('\n')[0] ?? '',
          checkedAt: this.now(),
        });
    }
  }

  /** The view the app shows. */
  view(): UpdateView {
    return {
      enabled: this.options.readEnabled(),
      current: this.options.currentVersion,
      status: this.status(),
    };
  }

  /** Restarts into the downloaded update, unless a turn or task runs or there is none. */
  restart(): UpdateRestartResult {
    if (!this.client)
      return { restarting: false, reason: (this.options.client as { unsupported: string }).unsupported };
    if (this.phase.state !== 'ready') return { restarting: false, reason: 'no update has been downloaded' };
    if (!this.options.readEnabled())
      return { restarting: false, reason: 'updates are turned off in settings' };
    if (this.options.busy())
      return { restarting: false, reason: 'a turn or a background task is running; restart when it ends' };
    this.log('info', `restarting into ${this.phase.version}`);
    this.options.relaunch();
    return { restarting: true };
  }

  /** Saves the setting; on: checks again soon and daily; off: no check, no install on quit. */
  async setEnabled(enabled: boolean): Promise<UpdateView> {
    await this.options.saveEnabled(enabled);
    if (this.client) this.client.autoInstallOnAppQuit = enabled;
    this.clearTimers();
    if (enabled && this.started) this.schedule();
    this.emit();
    return this.view();
  }

  /** Tells listeners the view may have changed (a turn or task started or ended). */
  refresh(): void {
    this.emit();
  }

  onChange(listener: (view: UpdateView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private status(): UpdateStatus {
    if (!this.client)
      return { state: 'unsupported', reason: (this.options.client as { unsupported: string }).unsupported };
    if (!this.options.readEnabled()) return { state: 'off' };
    if (this.phase.state === 'ready') return { ...this.phase, restartable: !this.options.busy() };
    return this.phase;
  }

  private schedule(): void {
    if (!this.options.readEnabled()) return;
    this.startTimer = setTimeout(() => void this.check(), this.options.startDelayMs ?? START_DELAY_MS);
    this.dailyTimer = setInterval(() => void this.check(), this.options.intervalMs ?? CHECK_INTERVAL_MS);
    // Timers never keep a quitting app alive.
    this.startTimer.unref();
    this.dailyTimer.unref();
  }

  private clearTimers(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    if (this.dailyTimer) clearInterval(this.dailyTimer);
    this.startTimer = this.dailyTimer = null;
  }

  private move(phase: Phase): void {
    this.phase = phase;
    this.emit();
  }

  // Listeners hear a view once per change: a refresh with nothing new says nothing.
  private emit(): void {
    const view = this.view();
    const key = JSON.stringify(view);
    if (key === this.lastView) return;
    this.lastView = key;
    for (const listener of [...this.listeners]) listener(view);
  }

  private get client(): UpdaterClient | null {
    return 'unsupported' in this.options.client ? null : this.options.client;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private log(level: 'info' | 'warn', message: string): void {
    this.options.log?.(level, message);
  }
}
