// Test helper: runs a command on a real pseudo-terminal through util-linux `script`, so a test can type into it
// and see exactly what the terminal shows (including anything echoed).
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A command running on a pty: what it has shown so far, a way to type, and its exit. */
export interface PtyRun {
  /** Everything the terminal showed so far (output and echo). */
  screen(): string;
  /** Resolves once the screen contains `text`. */
  waitFor(text: string, limitMs?: number): Promise<void>;
  type(keys: string): void;
  exit: Promise<number | null>;
}

/** Whether util-linux `script` is installed (Debian: the essential bsdutils package). */
export function hasScript(): boolean {
  if (process.platform !== 'linux') return false;
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && fs.existsSync(path.join(dir, 'script')));
}

/** Runs `argv` on a pty with `env`; killed with its pty after `limitMs`. */
export function runOnPty(argv: string[], env: NodeJS.ProcessEnv, limitMs = 20_000): PtyRun {
  const command = argv.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', command, '/dev/null'], {
    env,
    detached: true,
  });
  let screen = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    for (const check of [...waiters]) check();
  });
  const timer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), limitMs);
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return {
    screen: () => screen,
    waitFor: (text, waitMs = 15_000) =>
      new Promise((resolve, reject) => {
        const giveUp = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `the terminal never showed ${JSON.stringify(text)}; it showed ${JSON.stringify(screen)}`,
            ),
          );
        }, waitMs);
        const check = () => {
          if (!screen.includes(text)) return;
          clearTimeout(giveUp);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    type: (keys) => child.stdin.write(keys),
    exit,
  };
}
