import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundCommandTool } from './background-command';
import { COMMAND_OUTPUT_BYTES } from './command-runner';
import { SANDBOX_NOTES_BYTES } from '../sdk/process-port';
import { runCommandTool } from './run-command';
import { localProcessPort } from '../sdk/testing/process-port';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolContext, ToolResult } from '../sdk/types';

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-run-command-'));
});
afterEach(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
});

function setup(overrides: Partial<ToolContext> = {}) {
  const port = localProcessPort();
  const test = testContext({ workspace, services: { processes: port }, ...overrides });
  return { port, ...test };
}

const text = (result: ToolResult) =>
  typeof result === 'string' ? result : result.content.map((p) => ('text' in p ? p.text : '')).join('');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForFile(file: string): Promise<string> {
  for (let i = 0; i < 250 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
  return fs.readFileSync(file, 'utf8').trim();
}

describe('run_command', () => {
  it('runs a shell line in the workspace and returns exit code, stdout and stderr', async () => {
    const { ctx, port } = setup();
    const result = await runCommandTool.handler(
      { command: "printf 'b\\na\\n' | sort && pwd && echo warned >&2" },
      ctx,
    );
    const [head, ...rest] = text(result).split('\n');
    expect(head).toMatch(/^exit code 0 after [\d.]+ s in /);
    expect(head?.endsWith(` in ${workspace}`)).toBe(true);
    // The test port cannot confine, and says so: the model is told the command ran unconfined.
    expect(rest.join('\n')).toBe(
      `stdout:\na\nb\n${fs.realpathSync(workspace)}\nstderr:\nwarned\n` +
        'note: no OS sandbox can start on this machine, so this command ran unconfined',
    );
    const real = fs.realpathSync(workspace);
    // A person approved it (the test context), so the sandbox would give it the proxied network.
    expect(port.runs[0]?.confinement).toEqual({ workspace: real, writable: [real], network: 'proxy' });
    expect(result).toMatchObject({ data: { exitCode: 0, signal: null, truncated: false, cwd: workspace } });
    // Both streams together, with their notes, the lines around them and the sandbox notes, stay within 1 MiB.
    const cap = port.runs[0]?.maxOutputBytes ?? 0;
    expect((cap + 64) * 2 + 8 * 1024 + SANDBOX_NOTES_BYTES).toBe(COMMAND_OUTPUT_BYTES);
    expect(port.runs[0]).toMatchObject({ shell: true, cwd: workspace });
  });

  it('reports a non-zero exit as a normal result that states the exit code', async () => {
    const { ctx } = setup();
    const result = await runCommandTool.handler({ command: 'echo broken >&2; exit 3' }, ctx);
    expect(text(result)).toMatch(/^exit code 3 \(failed\) after [\d.]+ s in /);
    expect(text(result)).toContain('stderr:\nbroken');
    expect(result).toMatchObject({ data: { exitCode: 3 } });
    const quiet = await runCommandTool.handler({ command: 'true' }, ctx);
    expect(text(quiet)).toMatch(/\(no output\)\nnote: /);
  });

  it('runs in `cwd` below the workspace and refuses one outside it or missing, naming the parameter', async () => {
    fs.mkdirSync(path.join(workspace, 'sub', 'dir'), { recursive: true });
    const { ctx, port } = setup();
    const result = await runCommandTool.handler({ command: 'pwd', cwd: 'sub/dir' }, ctx);
    expect(text(result)).toContain(`stdout:\n${fs.realpathSync(path.join(workspace, 'sub', 'dir'))}`);
    await expect(runCommandTool.handler({ command: 'pwd', cwd: '../' }, ctx)).rejects.toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringMatching(/^`cwd` must stay inside the workspace/),
    });
    await expect(runCommandTool.handler({ command: 'pwd', cwd: 'missing' }, ctx)).rejects.toThrow(
      /^`cwd` is not an existing directory/,
    );
    expect(port.runs).toHaveLength(1);
  });

  it('rejects a missing, blank or non-string command naming `command`, without starting anything', async () => {
    const { ctx, port } = setup();
    for (const command of [undefined, null, '', '   ', 42]) {
      await expect(runCommandTool.handler({ command }, ctx)).rejects.toMatchObject({
        code: 'invalid_arguments',
        message: expect.stringContaining('`command`'),
      });
    }
    expect(port.runs).toHaveLength(0);
  });

  it('says so in a host without a process port', async () => {
    const { ctx } = testContext({ workspace });
    await expect(runCommandTool.handler({ command: 'true' }, ctx)).rejects.toMatchObject({
      code: 'unavailable',
    });
  });

  it('streams output as progress while the command runs', async () => {
    const { ctx, progress } = setup();
    let firstAt = 0;
    const progressed = ctx.progress;
    ctx.progress = (update) => {
      firstAt ||= Date.now();
      progressed(update);
    };
    await runCommandTool.handler({ command: 'echo one; sleep 0.6; echo two' }, ctx);
    const endedAt = Date.now();
    expect(progress.map((u) => u.output).join('')).toBe('one\ntwo\n');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(endedAt - firstAt).toBeGreaterThan(300);
  });

  it('stops the command on cancel: it rejects with the reason and the process is gone', async () => {
    const controller = new AbortController();
    const { ctx } = setup({ signal: controller.signal });
    const pidFile = path.join(workspace, 'pid');
    const run = runCommandTool.handler({ command: `echo $$ > ${pidFile}; exec sleep 30` }, ctx);
    const pid = Number(await waitForFile(pidFile));
    expect(alive(pid)).toBe(true);
    const reason = new Error('cancelled by the user');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    expect(alive(pid)).toBe(false);
  });
});

describe('background_command', () => {
  it('returns the result of a command that exits 0', async () => {
    const { ctx, progress } = setup();
    const result = await backgroundCommandTool.handler({ command: 'echo done', timeout_min: 5 }, ctx);
    expect(text(result)).toContain('stdout:\ndone');
    expect(progress.map((u) => u.output).join('')).toBe('done\n');
  });

  it('fails the task on a non-zero exit, with the exit code and the output', async () => {
    const { ctx } = setup();
    const run = backgroundCommandTool.handler({ command: 'echo partial; exit 7' }, ctx);
    await expect(run).rejects.toMatchObject({
      code: 'command_failed',
      message: expect.stringMatching(/^exit code 7 \(failed\)[^]*stdout:\npartial\nnote: /),
    });
  });

  it('takes its task limit from timeout_min, 1 to 60 minutes, 60 by default', () => {
    const limit = backgroundCommandTool.taskLimitMs;
    expect(limit?.({})).toBe(60 * 60_000);
    expect(limit?.({ timeout_min: 5 })).toBe(5 * 60_000);
    expect(limit?.({ timeout_min: null })).toBe(60 * 60_000);
    // The schema refuses these before the handler runs; the limit still never leaves 1–60.
    expect(limit?.({ timeout_min: 0 })).toBe(60_000);
    expect(limit?.({ timeout_min: 500 })).toBe(60 * 60_000);
  });
});
