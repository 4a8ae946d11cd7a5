// The CLI's streams, passed in so commands are testable in-process.

/** Where a command reads and writes. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdin: NodeJS.ReadableStream;
  /** Whether a person can answer prompts (stdin and stderr are terminals). */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The real process streams. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdin: process.stdin,
    interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** An error that ends a command with a message and an exit status. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
