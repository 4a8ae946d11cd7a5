// Loads @anthropic-ai/sandbox-runtime (docs/security.md). Its SandboxManager is one module-level singleton whose
// proxy decides every sandboxed request by the same global policy, so "no network at all" for one command and
// "public hosts through the proxy" for another cannot share it. Two instances of the manager module are loaded
// under distinct URLs (ES modules are cached by URL): `offline` is given a configuration but never initialised, so
// no proxy runs and its wraps unshare the network with nothing bridged in; `online` is initialised (by the
// sandbox) with the proxy and our ask callback.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SandboxManager as SandboxManagerType } from '@anthropic-ai/sandbox-runtime';

/** The library's manager, as one loaded instance. */
export type Manager = typeof SandboxManagerType;

/** The two instances: one that is never initialised (no network), one with the proxy. */
export interface RuntimeLibrary {
  offline: Manager;
  online: Manager;
  /** The seccomp helper's real path when the app runs from an archive (packagedSeccomp); else the runtime finds it. */
  seccomp?: { applyPath: string };
}

/** Loads the two manager instances (each import runs the module once); `bwrapPath` overrides PATH's bwrap. */
export async function loadRuntimeLibrary(options: { bwrapPath?: string } = {}): Promise<RuntimeLibrary> {
  const entry = createRequire(import.meta.url).resolve('@anthropic-ai/sandbox-runtime');
  const managerUrl = new URL('./sandbox/sandbox-manager.js', pathToFileURL(entry)).href;
  const load = async (instance: string): Promise<Manager> => {
    const module = (await import(/* @vite-ignore */ `${managerUrl}?instance=${instance}`)) as {
      SandboxManager: Manager;
    };
    return module.SandboxManager;
  };
  const [offline, online] = await Promise.all([load('offline'), load('online')]);
  const seccomp = packagedSeccomp(entry);
  // updateConfig sets the configuration without starting the network stack that initialize() starts.
  offline.updateConfig({
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
    ripgrep: NO_CWD_SCAN,
    ...(options.bwrapPath ? { bwrapPath: options.bwrapPath } : {}),
    ...(seccomp ? { seccomp } : {}),
  });
  return { offline, online, ...(seccomp ? { seccomp } : {}) };
}

/**
 * In the packaged desktop app the runtime loads from app.asar, and finds its seccomp helper under that path: a path
 * Electron's fs can read but bubblewrap cannot run. electron-builder keeps the helper unpacked next to the archive
 * (build/electron-builder.config.cjs), so the unpacked copy is named instead; outside an archive, undefined.
 */
export function packagedSeccomp(
  entry: string,
  arch: string = process.arch,
): { applyPath: string } | undefined {
  const archive = `${path.sep}app.asar${path.sep}`;
  const at = entry.indexOf(archive);
  if (at < 0 || (arch !== 'x64' && arch !== 'arm64')) return undefined;
  const packageRoot = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  const helper = path.join(packageRoot, 'vendor', 'seccomp', arch, 'apply-seccomp');
  return { applyPath: helper.replace(archive, `${path.sep}app.asar.unpacked${path.sep}`) };
}

/**
 * The runtime scans process.cwd() with ripgrep on every wrap for files to keep read-only. The app's cwd is not the
 * workspace (a desktop app may even start in `/`), and the sandbox passes the workspace's own list
 * (workspace-protection.ts), so that scan is pointed at `true`, which lists nothing, in a few ms instead of tens.
 */
export const NO_CWD_SCAN = { command: 'true' };
