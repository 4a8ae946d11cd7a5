// The OS sandbox of run_command, background_command and script tools (docs/security.md), over
// @anthropic-ai/sandbox-runtime used as a library: bubblewrap on Linux, sandbox-exec on macOS, none on Windows.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { quoteWord } from '../../tools/sdk/shell/quote';
import type { WebSettings } from '../../tools/sdk/web/web-settings';
import type { CommandSandbox, SandboxCommand, SandboxState, WrappedCommand } from '../core/sandbox-port';
import { blockedReport } from './blocked-report';
import { BRIDGE_READY_SH } from './bridge-ready';
import type { BridgeSocat } from './bridge-socat';
import { bridgeSocat } from './bridge-socat';
import { networkAsk, proxyNetworkConfig } from './network-policy';
import type { Manager, RuntimeLibrary } from './runtime-library';
import { loadRuntimeLibrary, NO_CWD_SCAN } from './runtime-library';
import { readPolicy } from './secret-locations';
import {
  ancestorSecrets,
  repositorySecrets,
  reviewGitChanges,
  SCAN_DIRS,
  scanWorkspace,
} from './workspace-protection';

/** Where the sandbox learns about the user and the settings. */
export interface RuntimeSandboxOptions {
  /** $AGENVOY_HOME: its secret file, app data and mcp.json are hidden from every sandboxed process. */
  agenvoyHome: string;
  /** The user's home folders (os.homedir() and $HOME): their secret locations are hidden. */
  homes: string[];
  /** settings.json's "web" block, read when needed: which internal addresses commands may reach. */
  web: () => WebSettings | undefined;
  /** Where sandboxed commands keep package-manager caches between calls (default ~/.cache/agenvoy/sandbox). */
  cacheDir?: string;
  /** bubblewrap's path when it is not the one on PATH. */
  bwrapPath?: string;
  /** socat's path when it is not the one on PATH. */
  socatPath?: string;
  log?: { warn(message: string, fields?: Record<string, unknown>): void };
}

// The runtime's own scratch folder, writable in every sandbox it starts when it exists: shared, so refused.
const SHARED_RUNTIME_TMP = '/tmp/claude';

// How long the start-up probe may take: a sandbox that cannot start a `true` in this time is not usable.
const PROBE_TIMEOUT_MS = 15_000;

/** The sandbox: checked once (state), then every command is wrapped on its own policy (wrap). */
export class RuntimeSandbox implements CommandSandbox {
  private library: Promise<RuntimeLibrary> | null = null;
  private checked: Promise<SandboxState> | null = null;
  private online: Promise<Manager> | null = null;
  private onlineNetwork = '';
  private bridge: Promise<BridgeSocat | undefined> | null = null;
  private readonly cacheDir: string;

  constructor(private readonly options: RuntimeSandboxOptions) {
    this.cacheDir =
      options.cacheDir ?? path.join(options.homes[0] ?? os.homedir(), '.cache', 'agenvoy', 'sandbox');
  }

  /** Whether commands can be confined here; checked once, with a real sandboxed `true`. */
  state(): Promise<SandboxState> {
    this.checked ??= this.check();
    return this.checked;
  }

  /** Wraps one command in a sandbox of its own: its policy, its temp folder, its network mode. */
  async wrap(command: SandboxCommand): Promise<WrappedCommand> {
    const library = await this.load();
    const { confinement } = command;
    const manager = confinement.network === 'proxy' ? await this.proxied(library) : library.offline;
    const workspace = await fs.realpath(confinement.workspace);
    const temp = await fs.mkdtemp(path.join(os.tmpdir(), 'agenvoy-run-'));
    try {
      const caches = await this.caches(workspace);
      const writable = [
        workspace,
        temp,
        caches.dir,
        ...(await existing(confinement.writable.filter((dir) => dir !== confinement.workspace))),
      ];
      const scan = await scanWorkspace(workspace, this.options.homes);
      // Past the walk's budget a hostile repository's padding hid the person's own `services/api/.env` and a nested
      // repository's `.git/config` from it: they were shown and writable (scan-budget-attack.test.ts).
      if (scan.truncated) throw new Error(tooLargeToScan());
      // The same holds for the rest of a repository the workspace is one package of (sibling-env-attack.test.ts).
      const repository = await repositorySecrets(workspace, this.options.homes);
      if (repository.truncated) throw new Error(repositoryTooLargeToScan(repository.root ?? workspace));
      const app = await this.appFolders(writable);
      const readOnly = [...scan.readOnly, ...app, ...(await existing(confinement.readOnly ?? []))];
      const reads = await readPolicy({
        homes: this.options.homes,
        agenvoyHome: this.options.agenvoyHome,
        writable,
        workspaceSecrets: [...scan.secrets, ...repository.secrets, ...(await ancestorSecrets(workspace))],
      });
      const config: Partial<SandboxRuntimeConfig> = {
        filesystem: {
          denyRead: reads.denyRead,
          allowRead: [...reads.allowRead, ...(await this.bridgeFolder(confinement.network))],
          allowWrite: writable,
          denyWrite: readOnly,
        },
        // The offline instance has no proxy: an empty allow list unshares the network with nothing bridged in.
        ...(confinement.network === 'none' ? { network: { allowedDomains: [], deniedDomains: [] } } : {}),
      };
      // The runtime sets its own TMPDIR (a folder every sandbox shares): each call gets its own instead.
      // A networked command first waits for the runtime's proxy listeners (bridge-ready.ts).
      const ready = confinement.network === 'proxy' ? `${BRIDGE_READY_SH}\n` : '';
      const line = `${ready}export TMPDIR=${quoteWord(temp)}\n${command.line}`;
      const wrapped = await manager.wrapWithSandbox(line, '/bin/sh', config, command.signal, {
        commandId: command.runId,
        commandText: command.line,
      });
      let released = false;
      return {
        command: '/bin/sh',
        args: ['-c', wrapped],
        env: { ...command.env, ...caches.env, TMPDIR: temp },
        blocked: (stderr) =>
          blockedReport(
            stderr,
            { cwd: command.cwd, writable, readOnly, hidden: reads.denyRead, network: confinement.network },
            manager
              .getSandboxViolationStore()
              .getViolationsForCommand(command.runId)
              .map((violation) => violation.line),
          ),
        review: () => reviewGitChanges(scan, workspace),
        release: async () => {
          if (released) return;
          released = true;
          manager.cleanupAfterCommand();
          await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
        },
      };
    } catch (error) {
      await fs.rm(temp, { recursive: true, force: true }).catch(() => undefined);
      throw error;
    }
  }

  /** Stops the proxy of the networked instance. */
  async close(): Promise<void> {
    const online = this.online;
    this.online = null;
    if (online) await (await online.catch(() => null))?.reset().catch(() => undefined);
    const bridge = await this.bridge?.catch(() => undefined);
    this.bridge = null;
    if (bridge) await fs.rm(bridge.dir, { recursive: true, force: true }).catch(() => undefined);
  }

  private load(): Promise<RuntimeLibrary> {
    this.library ??= loadRuntimeLibrary({
      ...(this.options.bwrapPath ? { bwrapPath: this.options.bwrapPath } : {}),
    });
    return this.library;
  }

  private async check(): Promise<SandboxState> {
    const platform = process.platform;
    if (platform !== 'linux' && platform !== 'darwin')
      return { kind: 'unavailable', reason: `no OS sandbox is supported on ${platform}` };
    const backend = platform === 'linux' ? 'bubblewrap' : 'sandbox-exec';
    let library: RuntimeLibrary;
    try {
      library = await this.load();
    } catch (error) {
      return { kind: 'unavailable', reason: `the sandbox runtime did not load: ${message(error)}` };
    }
    const deps = await library.offline.checkDependenciesAsync().catch((error: unknown) => ({
      errors: [message(error)],
      warnings: [],
    }));
    if (deps.errors.length > 0) {
      const hint = platform === 'linux' ? ' (apt-get install bubblewrap socat)' : '';
      return { kind: 'unavailable', reason: `${deps.errors.join('; ')}${hint}` };
    }
    // The dependencies can be present and still not work (user namespaces off, a restricted container).
    const probe = await this.probe(library.offline).catch((error: unknown) => message(error));
    if (probe !== null) {
      this.options.log?.warn('the OS sandbox cannot start; commands will run unconfined', { reason: probe });
      return { kind: 'unavailable', reason: `${backend} cannot start a sandbox here: ${probe}` };
    }
    return { kind: 'ready', backend };
  }

  // Runs `true` in an offline sandbox; null when it worked, else why not.
  private async probe(manager: Manager): Promise<string | null> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'agenvoy-probe-'));
    try {
      const wrapped = await manager.wrapWithSandbox('true', '/bin/sh', {
        filesystem: { denyRead: [], allowRead: [], allowWrite: [dir], denyWrite: [] },
        network: { allowedDomains: [], deniedDomains: [] },
      });
      return await new Promise<string | null>((resolve) => {
        const child = spawn('/bin/sh', ['-c', wrapped], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(`the probe did not finish within ${PROBE_TIMEOUT_MS / 1000} s`);
        }, PROBE_TIMEOUT_MS);
        child.once('error', (error) => {
          clearTimeout(timer);
          resolve(error.message);
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code === 0 ? null : stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${code}`);
        });
      });
    } finally {
      manager.cleanupAfterCommand();
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  // The networked instance, initialised once with the proxy; its allow lists follow settings.json.
  private async proxied(library: RuntimeLibrary): Promise<Manager> {
    const network = proxyNetworkConfig(this.options.web());
    const key = JSON.stringify(network);
    if (!this.online) {
      const manager = library.online;
      // The bridge's socat dies with the app, even when the app is killed (bridge-socat.ts).
      this.bridge ??= bridgeSocat(this.options.socatPath).catch(() => undefined);
      const bridge = this.bridge;
      this.online = bridge
        .then((made) => {
          const socat = made?.path ?? this.options.socatPath;
          return manager.initialize(
            {
              ...(socat ? { socatPath: socat } : {}),
              network,
              filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
              ripgrep: NO_CWD_SCAN,
              ...(this.options.bwrapPath ? { bwrapPath: this.options.bwrapPath } : {}),
              ...(library.seccomp ? { seccomp: library.seccomp } : {}),
            },
            networkAsk(this.options.web),
          );
        })
        .then(() => manager);
      this.onlineNetwork = key;
      this.online.catch(() => (this.online = null));
    }
    const manager = await this.online;
    if (key !== this.onlineNetwork) {
      const current = manager.getConfig();
      if (current) manager.updateConfig({ ...current, network: { ...current.network, ...network } });
      this.onlineNetwork = key;
    }
    return manager;
  }

  // The proxy's socket and the bridge's socat live in the app's temp folder; where that lies inside a home folder
  // ($TMPDIR=~/tmp), hiding the home hid them too and every networked command got an empty reply. Shown again then.
  private async bridgeFolder(network: SandboxCommand['confinement']['network']): Promise<string[]> {
    if (network !== 'proxy') return [];
    const temp = await fs.realpath(os.tmpdir()).catch(() => null);
    return temp && this.options.homes.some((home) => isInside(temp, home)) ? [temp] : [];
  }

  // Writable places that would let a command change this app or reach other sandboxes: $AGENVOY_HOME when it lies
  // inside a writable folder (a workspace that holds it: its tools and rules), and the runtime's shared /tmp/claude.
  private async appFolders(writable: string[]): Promise<string[]> {
    const home = await fs.realpath(this.options.agenvoyHome).catch(() => null);
    const folders: string[] = [];
    if (home && writable.some((dir) => isInside(home, dir))) folders.push(home);
    return [...folders, ...(await existing([SHARED_RUNTIME_TMP]))];
  }

  // Package managers keep their caches in a folder only sandboxed commands of this workspace use: writable for
  // them, never executed from by a program outside the sandbox (the user's own ~/.npm and ~/.cache stay hidden),
  // and not shared with other workspaces (one hostile repository cannot poison another's builds).
  private async caches(workspace: string): Promise<{ dir: string; env: Record<string, string> }> {
    const dir = path.join(this.cacheDir, createHash('sha256').update(workspace).digest('hex').slice(0, 16));
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    return {
      dir,
      env: {
        npm_config_cache: path.join(dir, 'npm'),
        XDG_CACHE_HOME: path.join(dir, 'xdg'),
        PIP_CACHE_DIR: path.join(dir, 'pip'),
        YARN_CACHE_FOLDER: path.join(dir, 'yarn'),
        GOCACHE: path.join(dir, 'go-build'),
        // The user's ~/.npmrc is hidden (it holds registry tokens), and with it their update-notifier=false.
        npm_config_update_notifier: 'false',
      },
    };
  }
}

async function existing(dirs: string[]): Promise<string[]> {
  const real = await Promise.all(dirs.map((dir) => fs.realpath(dir).catch(() => null)));
  return real.filter((dir): dir is string => dir !== null);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isInside(child: string, parent: string): boolean {
  const root = path.resolve(parent);
  return child === root || child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function repositoryTooLargeToScan(root: string): string {
  return (
    `the repository around the workspace (${root}) holds too many folders outside it (more than ` +
    `${SCAN_DIRS.toLocaleString('en-US')}, installed packages not counted) for the sandbox to find the .env files ` +
    'of its other packages and hide them; open the package in a smaller repository, or call again with "sandbox": ' +
    'false to ask the user to run it unconfined'
  );
}

function tooLargeToScan(): string {
  return (
    `the workspace holds more than ${SCAN_DIRS.toLocaleString('en-US')} folders (installed packages not counted), more than ` +
    'the sandbox looks through for .env files to hide and git config to keep read-only, so it cannot protect them ' +
    'all; open a smaller folder as the workspace, or call again with "sandbox": false to ask the user to run it ' +
    'unconfined'
  );
}
