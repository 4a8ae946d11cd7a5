// A workspace that is one package of a repository outside the home folder (`/srv/monorepo/packages/web`): the
// other packages' `.env` files (`packages/api/.env`, `services/db/.env.production`, a sibling's `.envrc`) hold the
// person's keys. Only `.env` files inside the workspace and directly in the folders above it were hidden
// (docs/security.md), so a command a person approved (`sh run.sh`, standing for `npm test`) read
// `../api/.env` without naming it, and a deploy key, a TLS key and a git credential file beside them. Through `agenvoy tools call … --yes`, the real gate and the real sandbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';
import { SCAN_DIRS } from './workspace-protection';

let root: string;
let monorepo: string;
let place: CliPlace;
let workspace: string;
const CANARY =
  /SIBLING-ENV-CANARY|DEEP-ENV-CANARY|SIBLING-ENVRC-CANARY|DEPLOY-KEY-CANARY|PEM-CANARY|CREDS-CANARY/;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-sibling-env-attack-')));
  monorepo = path.join(root, 'srv', 'monorepo');
  workspace = path.join(monorepo, 'packages', 'web');
  fs.mkdirSync(workspace, { recursive: true });
  fs.mkdirSync(path.join(monorepo, '.git'));
  fs.mkdirSync(path.join(monorepo, 'packages', 'api'), { recursive: true });
  fs.mkdirSync(path.join(monorepo, 'services', 'db', 'config'), { recursive: true });
  fs.mkdirSync(path.join(monorepo, 'tools', 'deploy'), { recursive: true });
  fs.writeFileSync(path.join(monorepo, 'packages', 'api', '.env'), 'STRIPE_KEY=SIBLING-ENV-CANARY\n');
  fs.writeFileSync(
    path.join(monorepo, 'services', 'db', 'config', '.env.production'),
    'DB_PASSWORD=DEEP-ENV-CANARY\n',
  );
  fs.writeFileSync(path.join(monorepo, 'tools', 'deploy', '.envrc'), 'export TOKEN=SIBLING-ENVRC-CANARY\n');
  // Keys beside the packages: a deploy key, a TLS key, a git credential file.
  for (const [rel, text] of [
    ['deploy/keys/id_ed25519', 'DEPLOY-KEY-CANARY\n'],
    ['deploy/tls/server.pem', 'PEM-CANARY\n'],
    ['ops/.git-credentials', 'https://u:CREDS-CANARY@example.com\n'],
  ] as const) {
    fs.mkdirSync(path.dirname(path.join(monorepo, rel)), { recursive: true });
    fs.writeFileSync(path.join(monorepo, rel), text);
  }
  fs.writeFileSync(path.join(monorepo, 'packages', 'api', 'index.js'), 'module.exports = "not a secret";\n');
  fs.writeFileSync(
    path.join(workspace, 'run.sh'),
    [
      'cat ../api/.env ../../services/db/config/.env.production ../../tools/deploy/.envrc 2>&1',
      'cat ../../deploy/keys/id_ed25519 ../../deploy/tls/server.pem ../../ops/.git-credentials 2>&1',
      'cat ../api/index.js',
      // Found by looking, not by name: every file of the repository a test runner might glob.
      'find ../.. -name ".env*" -type f -exec cat {} + 2>&1',
    ].join('\n'),
  );
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  fs.mkdirSync(place.home);
  fs.mkdirSync(path.join(root, 'home'));
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function call(command: string) {
  return runCli(['tools', 'call', 'run_command', JSON.stringify({ command }), '--yes', '--json'], place);
}

it("the other packages' .env files of the repository around a workspace stay hidden from an approved command", async () => {
  const run = await call('sh run.sh');
  const outcome = JSON.parse(run.stdout) as { outcome: string; text: string };
  expect(outcome.outcome).toBe('ok');
  expect(outcome.text).not.toMatch(CANARY);
  // The rest of the repository stays readable: a package imports its siblings.
  expect(outcome.text).toContain('not a secret');
}, 120_000);

it('a repository around the workspace too large to look through fails the command instead of showing it', async () => {
  // A hostile clone pads the repository outside the opened package, so the person's `.env` lies past the walk.
  const padding = path.join(monorepo, 'aaa-padding');
  for (let i = 0; i <= SCAN_DIRS; i++) fs.mkdirSync(path.join(padding, `d${i}`), { recursive: true });
  const run = await call('sh run.sh');
  expect(run.stdout).not.toMatch(CANARY);
  const outcome = JSON.parse(run.stdout) as { outcome: string; message: string };
  expect(outcome.outcome).toBe('error');
  expect(outcome.message).toContain('holds too many folders outside it');
}, 180_000);
