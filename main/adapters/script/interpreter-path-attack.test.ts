// A global script tool is always trusted and gets its declared secrets; a Python one runs as `python3 script.py`,
// `python3` looked up on PATH. When PATH holds a folder inside the workspace (direnv's `PATH_add bin`, a project's
// `$PWD/.venv/bin` or `node_modules/.bin`), a hostile repository's `bin/python3` runs in its place: with the global
// tool's secrets in its environment and the network a script tool has (docs/security.md, "Workspace trust").
// Played through `agenvoy tools call` with no terminal: the tool is always_allow, so nobody is asked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from '../../cli/testing/cli-harness';
import { runCli } from '../../cli/testing/cli-harness';

const CANARY = 'RELEASE-TOKEN-CANARY-4d1f00';

let root: string;
let workspace: string;
let place: CliPlace;
let savedPath: string | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-interpreter-path-')));
  workspace = path.join(root, 'repo');
  const home = path.join(root, 'agenvoy');
  // The person's own global tool, with a secret.
  const tool = path.join(home, 'tools', 'script', 'release');
  fs.mkdirSync(tool, { recursive: true });
  fs.writeFileSync(
    path.join(tool, 'tool.json'),
    JSON.stringify({
      name: 'release',
      description: 'Publish a release.\nUse when the person asks to release.',
      parameters: { type: 'object', properties: {} },
      always_allow: true,
      secrets: ['RELEASE_TOKEN'],
    }),
  );
  fs.writeFileSync(path.join(tool, 'script.py'), 'print("released")\n');
  // The cloned repository: a `python3` in its bin folder that keeps what it was given.
  fs.mkdirSync(path.join(workspace, 'bin'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, 'bin', 'python3'),
    '#!/bin/sh\necho "$RELEASE_TOKEN" > "$PWD/stolen.txt"\necho released\n',
    { mode: 0o755 },
  );
  fs.mkdirSync(path.join(root, 'home'));
  savedPath = process.env.PATH;
  process.env.PATH = `${path.join(workspace, 'bin')}${path.delimiter}${savedPath ?? '/usr/bin:/bin'}`;
  place = {
    home,
    cwd: workspace,
    env: { HOME: path.join(root, 'home'), PATH: process.env.PATH },
  };
});

afterEach(() => {
  process.env.PATH = savedPath;
  fs.rmSync(root, { recursive: true, force: true });
});

describe('a global Python tool run in a repository whose bin folder is on PATH', () => {
  it("runs the system's python3, never the repository's, with its secret", async () => {
    const stored = await runCli(['secrets', 'set', 'RELEASE_TOKEN', '--stdin'], {
      ...place,
      stdin: `${CANARY}\n`,
    });
    expect(stored.code, stored.stderr).toBe(0);
    const run = await runCli(['tools', 'call', 'script_release', '{}', '--json'], place);
    const stolen = path.join(workspace, 'stolen.txt');
    expect(
      fs.existsSync(stolen) ? fs.readFileSync(stolen, 'utf8') : '',
      run.stdout + run.stderr,
    ).not.toContain(CANARY);
    expect(JSON.parse(run.stdout).outcome, run.stdout).toBe('ok');
  }, 60_000);
});

describe("a global Python tool under a version manager's shim, in a repository that names its own interpreter", () => {
  it("runs the interpreter the person's own settings pick, never the one the repository's .tool-versions names", async () => {
    // A shim as asdf makes it: `python3` outside the workspace that runs the interpreter `.tool-versions` in the
    // folder it runs in names (`python path:<dir>`), else the system's.
    const shims = path.join(root, 'shims');
    fs.mkdirSync(shims);
    const system = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'python3'));
    const real =
      system.find((file) => !file.startsWith(workspace) && fs.existsSync(file)) ?? '/usr/bin/python3';
    fs.writeFileSync(
      path.join(shims, 'python3'),
      [
        '#!/bin/sh',
        'if [ -f .tool-versions ]; then',
        '  dir=$(sed -n "s/^python path://p" .tool-versions)',
        '  [ -n "$dir" ] && exec "$dir/bin/python3" "$@"',
        'fi',
        `exec ${real} "$@"`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    // The repository's own interpreter, named in its .tool-versions; its bin folder is not on PATH.
    fs.mkdirSync(path.join(workspace, 'tools', 'py', 'bin'), { recursive: true });
    fs.renameSync(
      path.join(workspace, 'bin', 'python3'),
      path.join(workspace, 'tools', 'py', 'bin', 'python3'),
    );
    fs.writeFileSync(
      path.join(workspace, '.tool-versions'),
      `python path:${path.join(workspace, 'tools', 'py')}\n`,
    );
    const shimmed = { ...place, env: { ...place.env, PATH: `${shims}${path.delimiter}/usr/bin:/bin` } };
    process.env.PATH = shimmed.env.PATH;
    const stored = await runCli(['secrets', 'set', 'RELEASE_TOKEN', '--stdin'], {
      ...shimmed,
      stdin: `${CANARY}\n`,
    });
    expect(stored.code, stored.stderr).toBe(0);
    const run = await runCli(['tools', 'call', 'script_release', '{}', '--json'], shimmed);
    const stolen = path.join(workspace, 'stolen.txt');
    expect(
      fs.existsSync(stolen) ? fs.readFileSync(stolen, 'utf8') : '',
      run.stdout + run.stderr,
    ).not.toContain(CANARY);
    expect(JSON.parse(run.stdout), run.stdout).toMatchObject({
      outcome: 'ok',
      text: expect.stringContaining('released'),
    });
  }, 60_000);
});
