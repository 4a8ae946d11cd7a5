// open_file: opens a file or an http(s) URL with the OS default app, which keeps running after the call.
//
// Paths are resolved against the workspace but may lead outside it (a download in ~/Downloads, say): the
// call is gated and the user sees the target before anything opens. URLs are limited to http and https,
// since other schemes (file:, javascript:, custom app handlers) can run things.
//
// The opener is xdg-open on Linux, `open` on macOS and, on Windows, Windows PowerShell asking the shell to open the
// target, which it reads from an environment variable: never `cmd /c start`, where `&`, `|` or `^` in a URL or a
// file name would run a second command after the person approved opening one thing. The
// environment variable AGENVOY_OPEN_COMMAND names another program to use instead (a path or a name on
// PATH, no arguments); it receives the resolved path or the URL as its one argument. Tests use it.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { requireProcesses } from './command-runner';
import { launcherReason } from './open-launchers';
import { programOutside } from '../sdk/program-path';
import { defineTool, ToolError } from '../sdk/types';
import { requiredString } from '../sdk/workspace-path';

/** The environment variable that replaces the OS opener. */
export const OPEN_COMMAND_ENV = 'AGENVOY_OPEN_COMMAND';

/** open_file's limit (docs/dispatch.md, "Limits of the built-in tools"): 10 seconds. */
export const OPEN_FILE_TIMEOUT_MS = 10_000;

/** The open_file built-in: gated, 10 s. */
export const openFileTool = defineTool({
  name: 'open_file',
  description:
    'Open a file or an http(s) URL with the default app of the OS, for the user to look at.\n' +
    'Use when the user wants to see a result in its app; write_result to create the file.\n' +
    'Needs a desktop session.',
  parameters: {
    type: 'object',
    properties: {
      target: {
        type: 'string',
        minLength: 1,
        description:
          'A file path, relative to the workspace or absolute, e.g. "reports/summary.html"; or an http or https URL, ' +
          'e.g. "https://example.com/docs". Other URL schemes are refused.',
      },
    },
    required: ['target'],
    additionalProperties: false,
  },
  timeoutMs: OPEN_FILE_TIMEOUT_MS,
  handler: async (args, ctx) => {
    const target = await resolveTarget(requiredString(args.target, 'target', '"report.pdf"'), ctx.workspace);
    const port = requireProcesses(ctx);
    const chosen = opener(target);
    // Found on PATH, but never in the workspace: a repository's `bin/xdg-open` would run unconfined instead.
    const command = programOutside(chosen.command, ctx.workspace, process.env.PATH);
    if (command === null) {
      throw new ToolError(
        'opener_missing',
        `cannot open files here: ${chosen.command} was not found on PATH outside the workspace; install it ` +
          `(xdg-open is in xdg-utils) or set ${OPEN_COMMAND_ENV} to a program that opens files`,
      );
    }
    const { args: commandArgs, env } = chosen;
    const cwd = await fs.stat(ctx.workspace).then(
      (stat) => (stat.isDirectory() ? ctx.workspace : os.tmpdir()),
      () => os.tmpdir(),
    );
    const launched = await port
      .launch({ command, args: commandArgs, cwd, signal: ctx.signal, ...(env ? { env } : {}) })
      .catch((error: unknown) => {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new ToolError(
            'opener_missing',
            `cannot open files here: ${command} was not found; install it (xdg-open is in xdg-utils) or set ` +
              `${OPEN_COMMAND_ENV} to a program that opens files`,
          );
        }
        throw new ToolError('open_failed', `${command} could not start: ${(error as Error).message}`);
      });
    if (launched.state === 'exited' && launched.exitCode !== 0) {
      const how =
        launched.exitCode === null ? `killed by ${launched.signal}` : `exit code ${launched.exitCode}`;
      const stderr = launched.stderr.trim();
      throw new ToolError(
        'open_failed',
        `${command} could not open ${target} (${how})${stderr ? `: ${stderr}` : ''}`,
      );
    }
    return {
      content: [{ type: 'text', text: `opened ${target} with ${command}` }],
      data: { target, command },
    };
  },
});

// A URL with an http(s) scheme, or an existing file path; anything else is refused naming `target`.
async function resolveTarget(raw: string, workspace: string): Promise<string> {
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme !== 'http' && scheme !== 'https') {
      throw new ToolError(
        'invalid_arguments',
        `\`target\` must be a file path or an http(s) URL, not a ${scheme}: URL`,
        {
          parameter: 'target',
        },
      );
    }
    try {
      return new URL(raw).href;
    } catch {
      throw new ToolError('invalid_arguments', `\`target\` is not a valid URL: ${raw}`, {
        parameter: 'target',
      });
    }
  }
  const expanded = raw === '~' || raw.startsWith('~/') ? path.join(os.homedir(), raw.slice(1)) : raw;
  const file = path.resolve(workspace, expanded);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) {
    throw new ToolError('invalid_arguments', `\`target\` does not exist: ${file}`, { parameter: 'target' });
  }
  // The opener gets where the path really leads, checked here: a harmless name linked to a launcher must not start it.
  const real = await fs.realpath(file);
  const reason = launcherReason(file, real, stat.isFile() && (stat.mode & 0o111) !== 0);
  if (reason) {
    throw new ToolError(
      'refused_launcher',
      `not opened: ${reason}${real === file ? '' : ` (${raw} leads to ${real})`}; open_file only shows files. To run ` +
        'a program, use run_command, which runs it in the OS sandbox',
      { parameter: 'target' },
    );
  }
  return real;
}

/** The environment variable the Windows opener reads its target from. */
export const OPEN_TARGET_ENV = 'AGENVOY_OPEN_TARGET';

// Windows PowerShell 5.1 (present on every Windows 10 and 11) starts the target through the shell, as a double click
// would. The target is data in an environment variable, so no command-line parser (cmd.exe's `&`, PowerShell's `;`)
// ever reads it.
const WINDOWS_OPEN_SCRIPT =
  '$i = New-Object System.Diagnostics.ProcessStartInfo; ' +
  `$i.FileName = $env:${OPEN_TARGET_ENV}; $i.UseShellExecute = $true; ` +
  '[void][System.Diagnostics.Process]::Start($i)';

/** The program, arguments and added environment that open `target` on `platform`. */
export function opener(
  target: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[]; env?: Record<string, string> } {
  const custom = env[OPEN_COMMAND_ENV]?.trim();
  if (custom) return { command: custom, args: [target] };
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: [target] };
    case 'win32': {
      const root = env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows';
      return {
        command: `${root}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`,
        args: [
          '-NoProfile',
          '-NonInteractive',
          '-ExecutionPolicy',
          'Bypass',
          '-Command',
          WINDOWS_OPEN_SCRIPT,
        ],
        env: { [OPEN_TARGET_ENV]: target },
      };
    }
    default:
      return { command: 'xdg-open', args: [target] };
  }
}
