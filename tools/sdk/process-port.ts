// The port through which tools start child processes: the core runs them in their own process group,
// tracks them and kills the whole tree on abort (docs/dispatch.md, "Process-tree kill"), which tools/ cannot do without importing main/.

/** Which output stream a chunk came from. */
export type OutputStream = 'stdout' | 'stderr';

/**
 * The OS sandbox a command runs in (docs/security.md): writes only in `writable` and a per-call temp folder
 * (TMPDIR), secret locations unreadable, the network as `network` says, and the tree dies with it.
 */
export interface Confinement {
  /** The workspace: writable, except its .git/config, .git/hooks and dotfiles. */
  workspace: string;
  /** More writable folders (a global script tool's own folder and its declared paths). */
  writable: string[];
  /** 'none': no network at all; 'proxy': public hosts through the sandbox's proxy (internal addresses refused). */
  network: 'none' | 'proxy';
  /** Files inside `writable` that stay read-only (a global script tool's tool.json and script). */
  readOnly?: string[];
}

/** A command to run to completion. */
export interface ProcessRunRequest {
  /** The program; with `shell: true` a whole command line for /bin/sh -c. */
  command: string;
  /** Arguments of `command` (ignored with `shell: true`). */
  args?: readonly string[];
  /** Run `command` through /bin/sh -c, so pipes, globs and `&&` work. */
  shell?: boolean;
  /** Absolute working directory; it must exist. */
  cwd: string;
  /** Variables set over the short allow-listed environment (PATH, HOME, LANG…); nothing else of the app's is passed on. */
  env?: Record<string, string>;
  /** The sandbox to run in; null runs unconfined (a person approved `sandbox: false`, or no sandbox can start here). */
  confinement: Confinement | null;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  input?: string;
  /** Aborting kills the whole tree (SIGTERM, 500 ms, SIGKILL); the run then rejects with `signal.reason`. */
  signal: AbortSignal;
  /** Cap per stream in bytes; the rest is cut from the middle with a note. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Every decoded chunk as it arrives (never capped), for streamed progress. */
  onOutput?: (chunk: string, stream: OutputStream) => void;
}

/** How a command ended. */
export interface ProcessRunResult {
  /** Null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  /** Each capped at `maxOutputBytes`, with a note where it was cut. */
  stdout: string;
  stderr: string;
  /** Whether either stream was cut. */
  truncated: boolean;
  durationMs: number;
  /** Whether it ran in the sandbox, and what the sandbox refused it (in words, for the model). */
  sandbox: SandboxReport;
}

/** What the sandbox did to one run. */
export interface SandboxReport {
  /** False when the run was unconfined (asked for, or no sandbox here). */
  confined: boolean;
  /** What the sandbox refused, e.g. "write to /home/u/.bashrc (outside the workspace)"; empty when nothing was seen. */
  blocked: string[];
  /** What the run changed that runs code later (a git repository it created…), and what was undone; for the model and the person. */
  warnings: string[];
}

/** Longest list of refusals or warnings a result carries, in characters; the rest is cut with an ellipsis. */
export const SANDBOX_NOTE_CHARS = 4096;

/**
 * Bytes a result keeps free for its sandbox notes (a blocked list and a warnings list, each SANDBOX_NOTE_CHARS at
 * up to 4 UTF-8 bytes per character, with their words): captured output is capped this much lower, so the notes
 * never push a result past its 1 MiB and no later cap cuts it a second time.
 */
export const SANDBOX_NOTES_BYTES = 2 * (SANDBOX_NOTE_CHARS * 4 + 256);

/** A sandbox list as one bounded line. */
export function boundedSandboxList(items: readonly string[]): string {
  const text = items.join('; ');
  return text.length > SANDBOX_NOTE_CHARS ? `${text.slice(0, SANDBOX_NOTE_CHARS)}…` : text;
}

/** A program to start and leave running (a viewer that outlives the call and the app). */
export interface ProcessLaunchRequest {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Aborting during the settle wait kills what was started. */
  signal: AbortSignal;
  /** How long to watch for an early failure before letting it go (default 1 s). */
  settleMs?: number;
  /** Variables added to the program's environment (how open_file hands Windows its target: never on a command line). */
  env?: Readonly<Record<string, string>>;
}

/** What is known of a launched program once the settle wait is over. */
export type ProcessLaunchResult =
  | { state: 'running'; pid: number }
  | { state: 'exited'; exitCode: number | null; signal: string | null; stderr: string };

/** Runs child processes for tools; a host without one cannot offer command tools. */
export interface ProcessPort {
  /** Runs a command in its own process group until it (and everything it left in its group) has ended. */
  run(request: ProcessRunRequest): Promise<ProcessRunResult>;
  /**
   * Starts a program detached and untracked, so it outlives the call; resolves after `settleMs` or at
   * its exit if sooner. Rejects with an error whose `code` is 'ENOENT' when the program does not exist.
   */
  launch(request: ProcessLaunchRequest): Promise<ProcessLaunchResult>;
}
