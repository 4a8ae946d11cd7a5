// A hostile repository that outgrows the sandbox's walk of the workspace (main/sandbox/workspace-protection.ts,
// docs/security.md): the walk reads at most 5,000 folders, breadth first, and what lies beyond was neither hidden
// nor kept read-only. Thousands of empty folders at the top pushed the person's own `services/api/.env` and a nested
// repository's `.git/config` out of its reach, so a command a person approved (`sh run.sh`, standing for `npm test`)
// read the key and planted a config that runs a program when the person's own git runs there. Through
// `agenvoy tools call … --yes`, the real gate and the real sandbox (bubblewrap).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let workspace: string;
const CANARY = 'DEEP-ENV-CANARY-4711';

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-scan-budget-attack-')));
  workspace = path.join(root, 'workspace');
  // The repository's padding: more top-level folders than the walk reads.
  for (let i = 0; i < 5100; i++) fs.mkdirSync(path.join(workspace, `p${i}`), { recursive: true });
  fs.mkdirSync(path.join(workspace, 'services', 'api'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'services', 'api', '.env'), `API_KEY=${CANARY}\n`);
  execFileSync('git', ['init', '-q', path.join(workspace, 'services', 'api', 'vendored')]);
  fs.writeFileSync(
    path.join(workspace, 'run.sh'),
    'cat services/api/.env\nprintf "[core]\\n\\tfsmonitor = touch PWNED\\n" >> services/api/vendored/.git/config\n',
  );
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  fs.mkdirSync(place.home);
  fs.mkdirSync(path.join(root, 'home'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('a workspace too large to walk whole never runs a command with a partial protection', async () => {
  const run = await runCli(
    ['tools', 'call', 'run_command', JSON.stringify({ command: 'sh run.sh' }), '--yes', '--json'],
    place,
  );
  expect(run.stdout + run.stderr).not.toContain(CANARY);
  const config = fs.readFileSync(
    path.join(workspace, 'services', 'api', 'vendored', '.git', 'config'),
    'utf8',
  );
  expect(config).not.toContain('fsmonitor');
  // The refusal says why and what the person can do.
  const outcome = JSON.parse(run.stdout) as { outcome: string; message: string };
  expect(outcome.outcome).toBe('error');
  expect(outcome.message).toContain('more than 5,000 folders');
  expect(outcome.message).toContain('"sandbox": false');
}, 120_000);
