// Runs one script tool call (SPEC §10): JSON args on stdin, stdout is the result, stderr explains a
// failure, secrets come in as environment variables, and the whole process group dies on abort.
import type { ToolContext, ToolHandler } from '../../../tools/types';
import { CredentialError, ToolError } from '../../../tools/types';
import type { KillOptions, ProcessGroups } from '../../core/process-group';
import { MAX_OUTPUT_BYTES, ProcessKilledError, runInGroup } from '../../core/process-group';
import { HEARTBEAT_MS, startHeartbeat } from './heartbeat';
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
  /** The environment a script starts from (default: process.env at call time), before its secrets. */
  baseEnv?: () => NodeJS.ProcessEnv;
  kill?: KillOptions;
}

/** Builds the handler of a loaded script tool. */
export function scriptHandler(tool: ScriptTool, options: ScriptRunOptions): ToolHandler {
  return async (args, ctx) => {
    // Every secret is looked up before anything starts: a missing one must not half-run the script.
    const env = {
      ...(options.baseEnv?.() ?? process.env),
      ...(await readSecrets(tool.manifest.secrets, ctx)),
    };
    const [command, scriptArgs] = interpreter(tool, options, env);
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
      const result = await runInGroup({
        command,
        args: scriptArgs,
        cwd: ctx.workspace,
        env,
        input: JSON.stringify(args ?? {}),
        signal: ctx.signal,
        maxOutputBytes: options.maxOutputBytes ?? MAX_OUTPUT_BYTES,
        groups: options.groups,
        kill: options.kill,
      }).catch((error: unknown) => {
        // An abort settles with the signal's reason (timeout or cancel), which the dispatcher classifies;
        // a tree killed by quitting settles with ProcessKilledError. Anything else failed to start.
        if (ctx.signal.aborted) throw ctx.signal.reason;
        if (error instanceof ProcessKilledError) throw error;
        throw new ToolError('script_error', `script error: cannot start ${command}: ${describe(error)}`);
      });
      if (result.exitCode === 0) return result.stdout.replace(/\r?\n$/, '');
      const stderr = result.stderr.trim();
      const exit = result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`;
      throw new ToolError('script_error', `script error: ${stderr || `the script failed with ${exit}`}`, {
        exitCode: result.exitCode,
        signal: result.signal,
      });
    } finally {
      stopBeat();
      ctx.signal.removeEventListener('abort', stopBeat);
    }
  };
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

function interpreter(
  tool: ScriptTool,
  options: ScriptRunOptions,
  env: NodeJS.ProcessEnv,
): [string, string[]] {
  switch (tool.script.language) {
    case 'js':
      // Inside Electron, process.execPath is the app binary: this makes it behave as plain node.
      if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
      return [process.execPath, [tool.script.path]];
    case 'py':
      return [options.python ?? 'python3', [tool.script.path]];
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
