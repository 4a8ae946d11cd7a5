// Opens a URL in the person's default browser for `agenvoy web --open` and `npm start` without an Electron binary
// (docs/hosts.md, "Browser mode"): xdg-open on Linux when there is a display, open on macOS. Never fails: the URL
// is printed anyway, so a missing opener or display only means the person opens it by hand.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** What opening did, in words for the terminal. */
export type OpenOutcome = { opened: true; command: string } | { opened: false; reason: string };

/** Where to look, and what to tell when the opener exits with an error after it started. */
export interface OpenOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Told when the opener exits non-zero (it runs detached; the server does not wait for it). */
  failed?: (why: string) => void;
}

/** The program that opens URLs here, or why there is none. */
export function findOpener(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): { command: string } | { reason: string } {
  if (platform === 'win32') return { reason: 'opening a browser is not supported on Windows' };
  if (platform === 'darwin') return findOnPath('open', env) ?? { reason: 'open is not on PATH' };
  // Linux and the other Unixes: without a display a browser has nowhere to show (a server, an SSH session).
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY)
    return { reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return findOnPath('xdg-open', env) ?? { reason: 'xdg-open is not installed' };
}

/** Starts the opener on `url`, detached and silent; resolves once it started or could not start. */
export function openBrowser(url: string, options: OpenOptions = {}): Promise<OpenOutcome> {
  const opener = findOpener(options.env, options.platform);
  if ('reason' in opener) return Promise.resolve({ opened: false, reason: opener.reason });
  const { command } = opener;
  return new Promise((resolve) => {
    let child;
    try {
      // Its own process group, no pipes: the browser it may start must not die with us or write to our terminal.
      child = spawn(command, [url], { detached: true, stdio: 'ignore', env: options.env ?? process.env });
    } catch (error) {
      resolve({ opened: false, reason: `${command} could not start (${(error as Error).message})` });
      return;
    }
    child.once('error', (error) =>
      resolve({ opened: false, reason: `${command} could not start (${error.message})` }),
    );
    child.once('spawn', () => {
      child.unref();
      resolve({ opened: true, command });
    });
    child.once('exit', (code) => {
      if (code !== null && code !== 0)
        options.failed?.(`${path.basename(command)} exited with status ${code}`);
    });
  });
}

function findOnPath(name: string, env: NodeJS.ProcessEnv): { command: string } | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return { command: candidate };
    } catch {
      // not in this directory
    }
  }
  return null;
}
