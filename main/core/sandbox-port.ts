// The OS sandbox as the core sees it (docs/security.md): whether one can start here, and how a command is wrapped
// into it. main/sandbox/ implements it over @anthropic-ai/sandbox-runtime; the core knows nothing of that library.
import type { Confinement } from '../../tools/sdk/process-port';

/** Whether commands can be confined on this machine, and by what. */
export type SandboxState =
  { kind: 'ready'; backend: 'bubblewrap' | 'sandbox-exec' } | { kind: 'unavailable'; reason: string };

/** A command wrapped for the sandbox: what to spawn instead, and what to do once it has ended. */
export interface WrappedCommand {
  /** The program to spawn (a shell running the sandbox) and its arguments. */
  command: string;
  args: string[];
  /** The environment to spawn it with (the sandbox's own variables over the allow-listed ones). */
  env: NodeJS.ProcessEnv;
  /** What the sandbox refused during the run, read from its violation records and the command's stderr. */
  blocked(stderr: string): string[];
  /** After the run: what it changed that runs code later and could not be kept read-only (undone where it can be). */
  review(): Promise<string[]>;
  /** Releases what the wrap holds (mount points, the per-call temp folder); call once the process tree is gone. */
  release(): Promise<void>;
}

/** A command to wrap: a program and its arguments, or a shell line. */
export interface SandboxCommand {
  /** A command line for /bin/sh -c. */
  line: string;
  cwd: string;
  /** The allow-listed environment plus the call's own variables (a script tool's secrets). */
  env: Record<string, string>;
  confinement: Confinement;
  /** A unique id of this run, for attributing what the sandbox refused. */
  runId: string;
  signal?: AbortSignal;
}

/** The sandbox port: main/sandbox/ fills it in; tests and hosts without one leave it out. */
export interface CommandSandbox {
  /** Checked once, then cached: bubblewrap and socat present and user namespaces usable (Linux), sandbox-exec (macOS). */
  state(): Promise<SandboxState>;
  /** Wraps one command; rejects when the sandbox cannot start it (the caller reports that, never runs it unconfined). */
  wrap(command: SandboxCommand): Promise<WrappedCommand>;
  /** Stops the sandbox's proxies. */
  close(): Promise<void>;
}
