// The safe writer against a race into a protected place (docs/security.md, "Files the tools write"): a process
// swaps a folder on the way for a link to .git/hooks and back while the writes go on. Where the kernel really put
// the file is checked (/proc/self/fd), so nothing ever lands in .git/hooks.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeWriteFile } from './safe-write';

let workspace: string;

beforeEach(() => {
  workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-protected-race-')));
  fs.mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

describe('a folder flipped into a protected place while the writes go on', () => {
  it('never leaves a byte in .git/hooks', async () => {
    fs.mkdirSync(path.join(workspace, 'd'));
    const hooks = path.join(workspace, '.git', 'hooks');
    // Swaps the real folder `d` for a link to .git/hooks and back until it is killed; recovers from whatever state
    // the writer's own mkdir of a missing `d` leaves.
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('fs');
         for (;;) {
           try { fs.renameSync('d', 'd-real'); } catch { fs.rmSync('d-real', { recursive: true, force: true }); continue; }
           try { fs.symlinkSync('.git/hooks', 'd'); } catch {}
           try { fs.unlinkSync('d'); } catch {}
           try { fs.renameSync('d-real', 'd'); } catch {}
         }`,
      ],
      { cwd: workspace, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => flipper.on('exit', resolve));
    const outcomes = new Map<string, number>();
    const started = Date.now();
    // At least 1.5 s, and on until the race has been caught in the protected place a few times (a loaded machine
    // flips slowly), within a generous bound.
    for (let i = 0; Date.now() - started < 1500 || (outcomes.get('refused: protected') ?? 0) < 3; i++) {
      if (Date.now() - started > 15_000) break;
      const result = await safeWriteFile(
        { workspace, path: `d/pre-commit-${i % 4}`, parameter: 'path', overwrite: i % 2 === 0 },
        'PWNED',
      ).then(
        () => 'written inside',
        (error: Error) =>
          /is refused: .*\.git/.test(error.message)
            ? 'refused: protected'
            : /already exists|ENOENT|no such file|not a folder|EEXIST|moved out|broken symlink/.test(
                  error.message,
                )
              ? 'failed: folder changed'
              : `other: ${error.message}`,
      );
      outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
    }
    flipper.kill();
    await exited;
    expect(fs.readdirSync(hooks)).toEqual([]);
    expect([...outcomes.keys()].filter((k) => k.startsWith('other'))).toEqual([]);
    // The race was really run: writes met the folder as a link into .git/hooks.
    expect(outcomes.get('refused: protected') ?? 0).toBeGreaterThan(0);
  }, 30_000);
});
