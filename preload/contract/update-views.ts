// The IPC contract, part: the desktop app's updates (docs/release.md, "Updates"). Types only; preload/contract.ts
// re-exports every part.

/** Where updating stands. Only `ready` with `restartable` offers "Restart to update". */
export type UpdateStatus =
  /** This app cannot update itself: browser mode, an unpacked build, a build without a feed, a Linux install that is neither AppImage nor deb. */
  | { state: 'unsupported'; reason: string }
  /** The person turned updates off in settings. */
  | { state: 'off' }
  /** Up to date as of `checkedAt` (null: not checked yet since the app started). */
  | { state: 'idle'; checkedAt: number | null }
  | { state: 'checking' }
  /** A newer version is downloading in the background. */
  | { state: 'downloading'; version: string; percent: number }
  /** Downloaded; `restartable` is false while a turn or a background task runs (it never restarts under them). */
  | { state: 'ready'; version: string; restartable: boolean }
  /** The last check or download failed; the next daily check tries again. */
  | { state: 'failed'; message: string; checkedAt: number };

/** The updates as the app shows them. */
export interface UpdateView {
  /** settings.json's `autoUpdate` (default true). */
  enabled: boolean;
  /** The running version. */
  current: string;
  status: UpdateStatus;
}

/** What "Restart to update" did: restarting, or why not (a turn or task started meanwhile, nothing downloaded). */
export type UpdateRestartResult = { restarting: true } | { restarting: false; reason: string };
