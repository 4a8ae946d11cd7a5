// The content pin of a workspace tool (docs/security.md, "Workspace trust"): the same files pin the same wherever
// and whenever they were written; any change of a name, a byte or a link text changes it; links are never followed,
// fifos never opened, and a folder too large to pin says so.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PinResult } from './tool-pin';
import { MAX_PIN_FILES, ToolPinner } from './tool-pin';

let tmp: string;
let scan: string;
let tool: string;

beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-pin-')));
  scan = path.join(tmp, 'scripts');
  tool = path.join(scan, 'deploy');
  fs.mkdirSync(path.join(tool, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(tool, 'tool.json'), '{"name":"deploy","description":"d"}');
  fs.writeFileSync(path.join(tool, 'script.js'), 'require("./lib/a.js")');
  fs.writeFileSync(path.join(tool, 'lib', 'a.js'), 'module.exports = 1');
  fs.mkdirSync(path.join(scan, '_shared'));
  fs.writeFileSync(path.join(scan, '_shared', 'util.js'), 'module.exports = 2');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const pinOf = async (dir = tool, pinner = new ToolPinner()): Promise<string> => {
  const result: PinResult = await pinner.pin(dir);
  if (!result.ok) throw new Error(result.reason);
  return result.pin;
};

describe('ToolPinner', () => {
  it('pins content, not times or inodes: a copy elsewhere, touched later, pins the same', async () => {
    const first = await pinOf();
    const copy = path.join(tmp, 'clone', 'scripts');
    fs.mkdirSync(path.dirname(copy));
    execFileSync('cp', ['-r', scan, copy]);
    const later = new Date(Date.now() + 3_600_000);
    for (const file of ['tool.json', 'script.js', 'lib/a.js'])
      fs.utimesSync(path.join(copy, 'deploy', file), later, later);
    expect(await pinOf(path.join(copy, 'deploy'))).toBe(first);
    // Other tools beside it are part of it (its script may load their files): one arriving changes it.
    fs.mkdirSync(path.join(scan, 'other'));
    fs.writeFileSync(path.join(scan, 'other', 'tool.json'), '{}');
    expect(await pinOf()).not.toBe(first);
  });

  it('changes with any byte, name or link text in the tool folder or a helper folder', async () => {
    const pinner = new ToolPinner();
    const base = await pinOf(tool, pinner);
    const files = ['tool.json', 'script.js', 'lib/a.js', '../_shared/util.js'];
    // Property: flipping any byte of any file changes the pin; putting it back restores it (same pinner, so the
    // cache must notice every rewrite, even one that keeps the size and the mtime).
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        async (relative, at, delta) => {
          const file = path.join(tool, relative);
          const original = fs.readFileSync(file);
          const stat = fs.statSync(file);
          const changed = Buffer.from(original);
          const index = at % changed.length;
          changed[index] = ((changed[index] as number) + delta) % 256;
          fs.writeFileSync(file, changed);
          fs.utimesSync(file, stat.atime, stat.mtime);
          const pinned = await pinOf(tool, pinner);
          fs.writeFileSync(file, original);
          fs.utimesSync(file, stat.atime, stat.mtime);
          expect(pinned).not.toBe(base);
          expect(await pinOf(tool, pinner)).toBe(base);
        },
      ),
      { seed: 20_260_101, numRuns: 40 },
    );
    for (const change of [
      () => fs.renameSync(path.join(tool, 'lib', 'a.js'), path.join(tool, 'lib', 'b.js')),
      () => fs.writeFileSync(path.join(tool, 'new.py'), ''),
      () => fs.mkdirSync(path.join(tool, '__pycache__')),
      () => fs.writeFileSync(path.join(scan, '.hidden-helper.js'), ''),
      () => fs.symlinkSync('lib/a.js', path.join(tool, 'link.js')),
      () => fs.symlinkSync('../_shared/util.js', path.join(tool, 'link.js')),
    ]) {
      const snapshot = path.join(tmp, 'snapshot');
      execFileSync('cp', ['-a', scan, snapshot]);
      change();
      expect(await pinOf(tool, pinner)).not.toBe(base);
      fs.rmSync(scan, { recursive: true });
      fs.renameSync(snapshot, scan);
      expect(await pinOf(tool, pinner)).toBe(base);
    }
  });

  it('records a link inside by its text (its target is pinned as itself), and never opens a fifo', async () => {
    fs.symlinkSync('lib/a.js', path.join(tool, 'linked.js'));
    const pinned = await pinOf();
    fs.writeFileSync(path.join(tool, 'lib', 'a.js'), 'module.exports = 3');
    expect(await pinOf()).not.toBe(pinned);
    execFileSync('mkfifo', [path.join(tool, 'pipe')]);
    const started = Date.now();
    expect(await pinOf()).not.toBe(pinned);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('does not pin a tool with a link out of what it reads, whose target could change unpinned', async () => {
    const outside = path.join(tmp, 'src', 'hello.js');
    fs.mkdirSync(path.dirname(outside));
    fs.writeFileSync(outside, 'console.log("v1")');
    const cases: Array<[string, () => void]> = [
      ['the script', () => fs.symlinkSync('../../src/hello.js', path.join(tool, 'script.js'))],
      ['a helper file', () => fs.symlinkSync(outside, path.join(tool, 'lib', 'b.js'))],
      ['a folder', () => fs.symlinkSync('../../../src', path.join(tool, 'lib', 'more'))],
      ['a helper folder of the scan folder', () => fs.symlinkSync('../src', path.join(scan, '_vendor'))],
      ['a link to nothing yet', () => fs.symlinkSync('../../later.js', path.join(tool, 'later.js'))],
      [
        'a link inside to a link out',
        () => {
          fs.symlinkSync(outside, path.join(tool, 'lib', 'out.js'));
          fs.symlinkSync('lib/out.js', path.join(tool, 'in.js'));
        },
      ],
    ];
    for (const [what, plant] of cases) {
      const snapshot = path.join(tmp, 'snapshot');
      execFileSync('cp', ['-a', scan, snapshot]);
      if (what === 'the script') fs.rmSync(path.join(tool, 'script.js'));
      plant();
      const result = await new ToolPinner().pin(tool);
      expect(result.ok, what).toBe(false);
      if (!result.ok)
        expect(result.reason, what).toMatch(/is a link (to nothing|to .*), outside the files trusting pins/);
      fs.rmSync(scan, { recursive: true });
      fs.renameSync(snapshot, scan);
    }
    expect((await new ToolPinner().pin(tool)).ok).toBe(true);
  });

  it('a folder too large to pin is not pinned, and says why', async () => {
    const many = path.join(tool, 'many');
    fs.mkdirSync(many);
    for (let i = 0; i <= MAX_PIN_FILES; i++) fs.writeFileSync(path.join(many, `f${i}`), '');
    expect(await new ToolPinner().pin(tool)).toEqual({
      ok: false,
      reason: `it holds more than ${MAX_PIN_FILES} files and folders`,
    });
  });

  it('a scan folder too large to pin (a shared node_modules) is named as such, not as the tool', async () => {
    const many = path.join(scan, 'node_modules', 'pkg');
    fs.mkdirSync(many, { recursive: true });
    for (let i = 0; i <= MAX_PIN_FILES; i++) fs.writeFileSync(path.join(many, `f${i}.js`), '');
    expect(await new ToolPinner().pin(tool)).toEqual({
      ok: false,
      reason: `its scan folder holds more than ${MAX_PIN_FILES} files and folders`,
    });
  });
});
