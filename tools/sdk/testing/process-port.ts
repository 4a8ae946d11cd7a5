// A small real ProcessPort for tool tests: tools/ may not import the core's runner, so this one spawns
// real children in their own process group and kills the group on abort. The core's adapter
// (main/process/process-port.ts) has its own tests, and the tools run through it in main/core too.
import { spawn } from 'node:child_process';
import type { ProcessLaunchResult, ProcessPort, ProcessRunRequest, ProcessRunResult } from '../process-port';

/** A recording of the requests a port was given. */
export interface LocalProcessPort extends ProcessPort {
  runs: ProcessRunRequest[];
}

/** Runs commands for real (own group, SIGKILL of the group on abort); output is cut at the cap with a note. */
export function localProcessPort(): LocalProcessPort {
  const runs: ProcessRunRequest[] = [];
  return {
    runs,
    run(request) {
      runs.push(request);
      return runLocal(request);
    },
    async launch(request) {
      if (request.signal.aborted) throw request.signal.reason;
      const child = spawn(request.command, [...request.args], {
        cwd: request.cwd,
        detached: true,
        ...(request.env ? { env: { ...process.env, ...request.env } } : {}),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const result = await new Promise<ProcessLaunchResult>((resolve) => {
        const timer = setTimeout(
          () => resolve({ state: 'running', pid: child.pid as number }),
          request.settleMs ?? 1000,
        );
        child.once('close', (exitCode, signal) => {
          clearTimeout(timer);
          resolve({ state: 'exited', exitCode, signal, stderr });
        });
      });
      child.stderr.destroy();
      child.unref();
      return result;
    },
  };
}

function runLocal(request: ProcessRunRequest): Promise<ProcessRunResult> {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason);
  const started = Date.now();
  const [command, args] = request.shell
    ? ['/bin/sh', ['-c', request.command]]
    : [request.command, request.args ?? []];
  const child = spawn(command, [...args], {
    cwd: request.cwd,
    env: { ...process.env, ...request.env },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const cap = request.maxOutputBytes ?? 1024 * 1024;
  const output = { stdout: '', stderr: '' };
  let truncated = false;
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk: string) => {
      request.onOutput?.(chunk, stream);
      const room = cap - output[stream].length;
      if (chunk.length > room) truncated = true;
      output[stream] += chunk.slice(0, Math.max(0, room));
    });
  }
  child.stdin.on('error', () => {});
  child.stdin.end(request.input ?? '');
  const onAbort = () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(signal.reason);
      const note = (text: string) => (truncated ? `${text}\n[output truncated]` : text);
      resolve({
        exitCode,
        signal: exitSignal,
        stdout: note(output.stdout),
        stderr: output.stderr,
        truncated,
        durationMs: Date.now() - started,
        sandbox: { confined: false, blocked: [], warnings: [] },
      });
    });
  });
}
