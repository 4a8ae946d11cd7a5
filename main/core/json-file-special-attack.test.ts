// approval-rules.json or trusted-folders.json that is not a regular file (docs/robustness.md, "The app's own files"):
// a fifo, or a link to /dev/zero. A fifo's size is 0, so it was read: the read waited for a writer forever, holding
// one of libuv's four file threads, and the gate's every decision waited with it (no tool call ever ran or was
// refused). /dev/zero was read until 2 GB of memory. Each is now damaged, at once, naming the file: no rule applies
// and nothing is trusted, as for any damaged file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RuleStore } from '../gate/rule-store';
import { TrustedFolders } from './trust/trusted-folders';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-json-'));
  dirs.push(dir);
  return dir;
}

/** `work`'s result, or 'hung' when it has not settled within `ms`. */
function within<T>(ms: number, work: Promise<T>): Promise<T | 'hung'> {
  return Promise.race([work, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms))]);
}

describe('the app’s JSON files as special files', () => {
  it('approval-rules.json as a fifo is damaged at once, not waited on', async () => {
    const file = path.join(folder(), 'approval-rules.json');
    execFileSync('mkfifo', [file]);
    const state = await within(3000, new RuleStore(file).read());
    expect(state).toEqual({ kind: 'damaged', problem: `cannot read ${file}: it is not a regular file` });
  });

  it('approval-rules.json linked to /dev/zero is damaged without reading it', async () => {
    const file = path.join(folder(), 'approval-rules.json');
    fs.symlinkSync('/dev/zero', file);
    const state = await within(3000, new RuleStore(file).read());
    expect(state).toEqual({ kind: 'damaged', problem: `cannot read ${file}: it is not a regular file` });
  });

  it('trusted-folders.json as a fifo trusts nothing, at once', async () => {
    const file = path.join(folder(), 'trusted-folders.json');
    execFileSync('mkfifo', [file]);
    const check = await within(3000, new TrustedFolders(file).check(os.tmpdir()));
    expect(check).toMatchObject({ trusted: false });
    const answer = check === 'hung' ? check : check.problem;
    expect(answer).toContain('not a regular file');
  });
});
