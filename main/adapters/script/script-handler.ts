// Runs one script tool call (docs/tools.md, "Script tools"): JSON args on stdin, stdout is the result, stderr explains a
// failure, secrets come in as environment variables, and the whole process group dies on abort. Every call runs
// in the OS sandbox (docs/security.md): it writes only in the workspace, a temp folder and, for a global tool,
// its own folder and the folders its tool.json declares; public hosts only; no variable of the app's own.
import path from 'node:path';
import type { Confinement } from '../../../tools/sdk/process-port';
import { boundedSandboxList, SANDBOX_NOTES_BYTES } from '../../../tools/sdk/process-port';
import type { ToolContext, ToolHandler } from '../../../tools/sdk/types';
import { CredentialError, ToolError } from '../../../tools/sdk/types';
import type { KillOptions, ProcessGroups } from '../../process/process-group';
import { capWithinLimit, MAX_OUTPUT_BYTES, ProcessKilledError } from '../../process/process-group';
import { runToolProcess } from '../../process/process-port';
import type { CommandSandbox } from '../../core/sandbox-port';
import { HEARTBEAT_MS, startHeartbeat } from './heartbeat';
import { interpreterPath } from './interpreter-path';
import type { ScriptTool } from './types';

/** How script calls run; every field but `groups` has a default. */
export interface ScriptRunOptions {
  groups: ProcessGroups;
  /** Heartbeat interval (default 30 s). */
  heartbeatMs?: number;
  /** Cap per output stream (default 1 MiB). */
  maxOutputBytes?: number;
  /** The interpreter of script.py (default python3). */
  python?: string;
  /** The environment whose allow-listed part a script starts from (default: process.env at call time). */
  baseEnv?: () => NodeJS.ProcessEnv;
  kill?: KillOptions;
  /** The OS sandbox every call runs in; null or absent runs scripts unconfined. */
  sandbox?: CommandSandbox | null;
}

/** Builds the handler of a loaded script tool. */
export function scriptHandler(tool: ScriptTool, options: ScriptRunOptions): ToolHandler {
  return async (args, ctx) => {
    // Every secret is looked up before anything starts: a missing one must not half-run the script. An untrusted
    // workspace tool gets none and nothing is looked up, so no credential prompt or auto-heal starts for it.
    const env = tool.trusted ? await readSecrets(tool.manifest.secrets, ctx) : withheld(tool, ctx);
    const [command, scriptArgs] = await interpreter(tool, options, env, ctx.workspace);
    const stopBeat = startHeartbeat({
      name: tool.toolName,
      limitMs: tool.manifest.timeoutMs,
      intervalMs: options.heartbeatMs ?? HEARTBEAT_MS,
      log: ctx.log,
      progress: (update) => ctx.progress(update),
    });
    // Once aborted the call is being killed, not running: no beats during the kill grace.
    ctx.signal.addEventListener('abort', stopBeat, { once: true });
    try {
      const result = await runToolProcess(
        {
          command,
          args: scriptArgs,
          cwd: ctx.workspace,
          env,
          input: JSON.stringify(args ?? {}),
          signal: ctx.signal,
          // The truncation note and the sandbox notes count against the result's 1 MiB, so no later cap adds a
          // second note.
          maxOutputBytes: options.maxOutputBytes ?? capWithinLimit(MAX_OUTPUT_BYTES - SANDBOX_NOTES_BYTES),
          confinement: scriptConfinement(tool, ctx.workspace),
        },
        {
          groups: options.groups,
          sandbox: options.sandbox ?? null,
          parentEnv: options.baseEnv,
          kill: options.kill,
        },
      ).catch((error: unknown) => {
        // An abort settles with the signal's reason (timeout or cancel), which the dispatcher classifies;
        // a tree killed by quitting settles with ProcessKilledError; a sandbox that cannot start says so.
        // Anything else failed to start.
        if (ctx.signal.aborted) throw ctx.signal.reason;
        if (error instanceof ProcessKilledError || error instanceof ToolError) throw error;
        throw new ToolError('script_error', `script error: cannot start ${command}: ${describe(error)}`);
      });
      const warnings =
        result.sandbox.warnings.length > 0 ? `\nsandbox: ${boundedSandboxList(result.sandbox.warnings)}` : '';
      if (result.exitCode === 0) return result.stdout.replace(/\r?\n$/, '') + warnings;
      const stderr = result.stderr.trim();
      const exit = result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`;
      const blocked =
        (result.sandbox.blocked.length > 0
          ? `\nsandbox: the OS sandbox blocked ${boundedSandboxList(result.sandbox.blocked)}`
          : '') + warnings;
      throw new ToolError(
        'script_error',
        `script error: ${stderr || `the script failed with ${exit}`}${blocked}`,
        {
          exitCode: result.exitCode,
          signal: result.signal,
          blocked: result.sandbox.blocked,
        },
      );
    } finally {
      stopBeat();
      ctx.signal.removeEventListener('abort', stopBeat);
    }
  };
}

/** The sandbox of a script call: a global tool may also write its own folder and the folders it declares. */
export function scriptConfinement(tool: ScriptTool, workspace: string): Confinement {
  // tool.writable is the tool's own folder plus tool.json's `writable` for a global tool, and empty for a workspace one.
  // Its own tool.json and script stay read-only: a tool must not widen what it may do (always_allow, secrets, writable).
  // (Planting the other script would not help it either: a folder with both is not loaded.)
  return {
    workspace,
    writable: [workspace, ...tool.writable],
    network: 'proxy',
    readOnly: ['tool.json', 'script.js', 'script.py'].map((name) => path.join(tool.dir, name)),
  };
}

// The script still runs (it may not need them for this call); the log says what it did not get and why.
function withheld(tool: ScriptTool, ctx: ToolContext): Record<string, string> {
  if (tool.manifest.secrets.length > 0) {
    ctx.log.warn('secrets withheld from an untrusted workspace tool', {
      name: tool.toolName,
      secrets: tool.manifest.secrets.join(','),
    });
  }
  return {};
}

// Values only ever go into the child's environment: process.env is never touched.
async function readSecrets(keys: readonly string[], ctx: ToolContext): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const key of keys) {
    const value = await ctx.getSecret(key);
    if (value === undefined || value === '') throw new CredentialError(key, 'missing');
    values[key] = value;
  }
  return values;
}

async function interpreter(
  tool: ScriptTool,
  options: ScriptRunOptions,
  env: Record<string, string>,
  workspace: string,
): Promise<[string, string[]]> {
  switch (tool.script.language) {
    case 'js':
      // Inside Electron, process.execPath is the app binary: this makes it behave as plain node.
      if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
      return [process.execPath, [tool.script.path]];
    case 'py':
      // No __pycache__ beside the script: a workspace tool's folder is pinned when its folder is trusted, and a
      // write there would make it count as changed.
      env.PYTHONDONTWRITEBYTECODE = '1';
      // Found on PATH as the script will see it, but never in the workspace: a repository's `bin/python3` would get
      // the tool's secrets.
      return [
        await interpreterPath(
          options.python ?? 'python3',
          workspace,
          (options.baseEnv?.() ?? process.env).PATH,
        ),
        [tool.script.path],
      ];
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
