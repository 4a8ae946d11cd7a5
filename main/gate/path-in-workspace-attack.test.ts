// The default read-only rules let `git status`, `ls`… run unasked, trusting that the name runs the system's program.
// A relative PATH entry is refused, but an absolute one inside the workspace is as bad: direnv's `PATH_add bin`, a
// project's `export PATH=$PWD/node_modules/.bin:$PATH`, or a person who keeps tools in ~/work/tools/bin and opens
// ~/work. A hostile repository ships `bin/git`; a model's `git status` then runs the repository's program under a
// rule that promised a read-only git. Played through `agenvoy tools call` with no terminal: whatever runs, ran unasked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

let root: string;
let workspace: string;
let place: CliPlace;
let savedPath: string | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-path-in-ws-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(path.join(workspace, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(root, 'home'));
  for (const name of ['git', 'ls']) {
    fs.writeFileSync(
      path.join(workspace, 'bin', name),
      `#!/bin/sh\necho "repository program ran" > "$PWD/ran-${name}.txt"\n`,
      { mode: 0o755 },
    );
  }
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  savedPath = process.env.PATH;
  process.env.PATH = `${path.join(workspace, 'bin')}${path.delimiter}${savedPath ?? '/usr/bin:/bin'}`;
  place.env = { ...place.env, PATH: process.env.PATH };
});

afterEach(() => {
  process.env.PATH = savedPath;
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a PATH folder inside the workspace', () => {
  it.each([
    ['git', 'git status'],
    ['ls', 'ls -la'],
  ])(
    '%s is not run unasked under its default rule',
    async (name, command) => {
      const run = await runCli(
        ['tools', 'call', 'run_command', JSON.stringify({ command }), '--json'],
        place,
      );
      expect(fs.existsSync(path.join(workspace, `ran-${name}.txt`)), run.stdout + run.stderr).toBe(false);
      expect(run.stdout + run.stderr).toMatch(/PATH/);
    },
    60_000,
  );
});
