// A workspace outside the home folder (/srv, /var/www, /work: the home is hidden whole, these are not) inside a
// folder whose `.env` holds the person's keys: the monorepo's root `.env` above `packages/web`, a server's shared
// `/var/www/.env`. The sandbox hid `.env` files only inside the workspace (docs/security.md), so a command a person
// approved (`sh run.sh`, standing for `npm test`) read `../../.env` without naming it. Through
// `agenvoy tools call … --yes`, the real gate and the real sandbox (bubblewrap).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let workspace: string;
const CANARY = /ROOT-ENV-CANARY|PARENT-ENVRC-CANARY|LOCAL-ENV-CANARY/;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ancestor-env-attack-')));
  const monorepo = path.join(root, 'srv', 'monorepo');
  workspace = path.join(monorepo, 'packages', 'web');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(monorepo, '.env'), 'STRIPE_KEY=ROOT-ENV-CANARY\n');
  fs.writeFileSync(path.join(monorepo, '.env.local'), 'DB=LOCAL-ENV-CANARY\n');
  fs.writeFileSync(path.join(root, 'srv', '.envrc'), 'export TOKEN=PARENT-ENVRC-CANARY\n');
  fs.writeFileSync(path.join(monorepo, 'README.md'), 'not a secret\n');
  fs.writeFileSync(
    path.join(workspace, 'run.sh'),
    'cat ../../.env ../../.env.local ../../../.envrc ../../README.md 2>&1\n',
  );
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  fs.mkdirSync(place.home);
  fs.mkdirSync(path.join(root, 'home'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('.env files in the folders above a workspace outside the home stay hidden from an approved command', async () => {
  const run = await runCli(
    ['tools', 'call', 'run_command', JSON.stringify({ command: 'sh run.sh' }), '--yes', '--json'],
    place,
  );
  const outcome = JSON.parse(run.stdout) as { outcome: string; text: string };
  expect(outcome.outcome).toBe('ok');
  expect(outcome.text).not.toMatch(CANARY);
  // The folders above stay readable otherwise: only the secret files are hidden.
  expect(outcome.text).toContain('not a secret');
}, 120_000);
