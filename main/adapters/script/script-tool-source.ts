// Turns the script-tool folders into registry entries and keeps them in step with the disk (docs/tools.md, "Script tools").
import path from 'node:path';
import type { ToolLogger, ToolSpec } from '../../../tools/sdk/types';
import { Emitter } from '../../core/emitter';
import type { ProcessGroups } from '../../process/process-group';
import type { ToolRegistry } from '../../core/registry';
import { RegistrationError } from '../../core/registry';
import { stableStringify } from '../../core/stable-json';
import { watchDirs } from './dir-watcher';
import type { Discovery } from './discover';
import { resolveTools } from './discover';
import { builtinFolds } from './lookalike-names';
import type { ScriptRunOptions } from './script-handler';
import { scriptHandler } from './script-handler';
import { ToolPinner } from './tool-pin';
import type { ScanDir, ScriptProblem, ScriptTool } from './types';
import { pinGuard, scanTrusted } from './trusted-scan';
import type { FolderTrust } from './workspace-pins';

/** What a ScriptToolSource needs; run options (heartbeat, output cap, python) pass on to every call. */
export interface ScriptToolSourceOptions extends ScriptRunOptions {
  registry: ToolRegistry;
  /** Scan folders, global first; a later workspace folder overrides on the same name. */
  dirs: ScanDir[];
  log: ToolLogger;
  groups: ProcessGroups;
  /** Watch the folders after start (default true; off for one-shot CLI commands). */
  watch?: boolean;
  /** Fallback rescan interval while watching (default 2 s). */
  pollMs?: number;
  /** Quiet time after fs events (default 200 ms). */
  debounceMs?: number;
  /** Which workspace folders the person trusted (docs/security.md); without it every workspace tool is untrusted. */
  trust?: WorkspaceTrust;
  /** The home folder `~` expands to in tool.json's `writable` (default os.homedir()). */
  homeDir?: string;
  /** $AGENVOY_HOME, whose own files `writable` may not reach (default from the environment). */
  agenvoyHome?: string;
}

/**
 * Answers whether a workspace folder is trusted and with which tools (TrustedFolders); `problem` says why nothing
 * could be (a damaged file). A trusted answer without pinned tools trusts none of its tools.
 */
export interface WorkspaceTrust {
  check(folder: string): Promise<FolderTrust & { problem: string | null }>;
}

/** What one rescan changed: registered names, and the full problem list after it. */
export interface ScriptSourceChange {
  added: string[];
  removed: string[];
  /** Re-registered: tool.json or the script changed, or another folder now provides the name. */
  updated: string[];
  problems: ScriptProblem[];
}

/** The script tools of a set of scan folders, registered in a ToolRegistry and kept in step with the disk. */
export class ScriptToolSource {
  private readonly dirs: ScanDir[];
  private readonly registered = new Map<string, { tool: ScriptTool; undo: () => void }>();
  private readonly changes = new Emitter<ScriptSourceChange>();
  private readonly pinner = new ToolPinner();
  private currentProblems: ScriptProblem[] = [];
  private stopWatching: (() => void) | null = null;
  private running: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: ScriptToolSourceOptions) {
    // The same folder listed twice (a workspace at $HOME) would otherwise override itself.
    const seen = new Set<string>();
    this.dirs = options.dirs.filter((scan) => {
      const key = path.resolve(scan.dir);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Loads every folder, then watches them unless `watch` is false. */
  async start(): Promise<void> {
    this.stopped = false;
    if (this.options.watch !== false && !this.stopWatching) {
      this.stopWatching = watchDirs(
        this.dirs.map((scan) => scan.dir),
        () =>
          void this.rescan().catch((error: unknown) =>
            this.options.log.error('script tool rescan failed', { error }),
          ),
        {
          pollMs: this.options.pollMs,
          debounceMs: this.options.debounceMs,
          onWatchError: (dir, error) =>
            this.options.log.warn('cannot watch script folder; polling it', { dir, error }),
        },
      );
    }
    await this.rescan();
  }

  /** Reads the folders again and registers, re-registers or unregisters what changed. */
  rescan(): Promise<void> {
    // Scans run one at a time; callers arriving during one share the single scan queued after it.
    if (this.queued) return this.queued;
    const next = this.running.then(() => {
      this.queued = null;
      return this.scanOnce();
    });
    this.queued = next;
    this.running = next.catch(() => {});
    return next;
  }

  /** Stops watching and unregisters every script tool. */
  stop(): void {
    this.stopped = true;
    this.stopWatching?.();
    this.stopWatching = null;
    const removed = [...this.registered.keys()];
    for (const entry of this.registered.values()) entry.undo();
    this.registered.clear();
    if (removed.length > 0) this.changes.emit({ added: [], removed, updated: [], problems: this.problems() });
  }

  /** The broken folders of the last scan. */
  problems(): ScriptProblem[] {
    return this.currentProblems.map((problem) => ({ ...problem }));
  }

  /** The script tools registered now, by name. */
  tools(): ScriptTool[] {
    return [...this.registered.values()]
      .map((entry) => entry.tool)
      .sort((a, b) => a.toolName.localeCompare(b.toolName));
  }

  /** Subscribes to changes (after a scan that changed tools or problems); returns the unsubscribe. */
  onChange(listener: (change: ScriptSourceChange) => void): () => void {
    return this.changes.on(listener);
  }

  private async scanOnce(): Promise<void> {
    const trustProblems: ScriptProblem[] = [];
    const scans: Discovery[] = await Promise.all(
      this.dirs.map((scan) => scanTrusted(scan, this.options, this.pinner, trustProblems)),
    );
    if (this.stopped) return;
    const builtins = builtinFolds(
      this.options.registry.all().map((entry) => ({
        name: entry.spec.name,
        builtin: entry.spec.source.kind === 'builtin',
      })),
    );
    const { tools, problems, overridden } = resolveTools(scans, builtins);
    // A damaged trust file is only worth saying where it matters: a workspace that has tools.
    problems.push(
      ...trustProblems.filter((problem) => tools.some((tool) => tool.dir.startsWith(problem.dir + path.sep))),
    );
    const next = new Map(tools.map((tool) => [tool.toolName, tool]));
    const change: ScriptSourceChange = { added: [], removed: [], updated: [], problems: [] };

    // Drop what went away or moved to another folder first, so that the new folder can take the name.
    const moved = new Set<string>();
    for (const [name, entry] of this.registered) {
      const tool = next.get(name);
      if (tool?.dir === entry.tool.dir) continue;
      entry.undo();
      this.registered.delete(name);
      if (tool) moved.add(name);
      else change.removed.push(name);
    }
    for (const tool of tools) {
      const entry = this.registered.get(tool.toolName);
      // Trusting or revoking a folder changes what a tool may do without touching its files.
      if (entry && sameLoad(entry.tool, tool)) continue;
      try {
        // Same folder: registering again replaces the entry in place, so the name never disappears.
        const undo = this.options.registry.register(this.toSpec(tool), { warnings: tool.warnings });
        this.registered.set(tool.toolName, { tool, undo });
        (entry || moved.has(tool.toolName) ? change.updated : change.added).push(tool.toolName);
        this.logLoaded(tool, overridden);
      } catch (error) {
        if (!(error instanceof RegistrationError)) throw error;
        // The name belongs to a built-in or an MCP tool: a problem for the author, not a crash.
        problems.push({
          dir: tool.dir,
          file: path.join(tool.dir, 'tool.json'),
          reason: error.message,
          scope: tool.scope,
        });
        if (moved.has(tool.toolName)) change.removed.push(tool.toolName);
      }
    }

    const problemsChanged = stableStringify(problems) !== stableStringify(this.currentProblems);
    if (problemsChanged) {
      const known = new Set(this.currentProblems.map((problem) => stableStringify(problem)));
      for (const problem of problems) {
        if (!known.has(stableStringify(problem)))
          this.options.log.warn('script tool not loaded', { ...problem });
      }
      this.currentProblems = problems;
    }
    for (const name of change.removed) this.options.log.info('script tool removed', { name });
    if (problemsChanged || change.added.length + change.removed.length + change.updated.length > 0) {
      this.changes.emit({ ...change, problems: this.problems() });
    }
  }

  private toSpec(tool: ScriptTool): ToolSpec {
    const { manifest } = tool;
    return {
      name: tool.toolName,
      description: manifest.description,
      parameters: manifest.parameters,
      source: {
        kind: 'script',
        dir: tool.dir,
        scope: tool.scope,
        trusted: tool.trusted,
        ...(tool.untrusted ? { untrusted: tool.untrusted } : {}),
        writable: [...tool.writable],
      },
      flags: {
        // An untrusted tool asks on every call, whatever its tool.json says (docs/security.md).
        alwaysAllow: manifest.alwaysAllow && tool.trusted,
        concurrent: manifest.concurrent,
        background: false,
        systemUse: false,
      },
      timeoutMs: manifest.timeoutMs,
      // An untrusted workspace tool is handed none of its secrets, so no key is asked for in its name.
      secrets: () => (tool.trusted ? manifest.secrets : []),
      handler: pinGuard(tool, scriptHandler(tool, this.options), this.pinner, () => {
        void this.rescan().catch(() => undefined);
      }),
      // Every call runs in the OS sandbox: the approval dialog says so (docs/security.md).
      sandboxed: () => true,
    };
  }

  private logLoaded(tool: ScriptTool, overridden: ScriptTool[]): void {
    const shadowed = overridden.find((other) => other.toolName === tool.toolName);
    this.options.log.info('script tool loaded', {
      name: tool.toolName,
      dir: tool.dir,
      ...(shadowed ? { overrides: shadowed.dir } : {}),
      ...(tool.trusted ? {} : { trusted: false }),
    });
    for (const warning of tool.warnings)
      this.options.log.warn('script tool warning', { name: tool.toolName, warning });
  }
}

function sameLoad(a: ScriptTool, b: ScriptTool): boolean {
  return (
    a.fingerprint === b.fingerprint &&
    a.trusted === b.trusted &&
    a.untrusted === b.untrusted &&
    a.pin === b.pin &&
    a.writable.join('\0') === b.writable.join('\0')
  );
}
