// The stage of the data-leaving attack tests: a temp folder with a cloned repository (`repo/`) that committed
// `config/deploy.yml` holding a secret, a home folder, and the CLI place that runs there.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CliPlace } from './cli-harness';

/** A fresh stage; `deployYml` is the committed file's text. Remove `root` when done. */
export function deployRepo(
  prefix: string,
  deployYml: string,
): { root: string; workspace: string; place: CliPlace } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const workspace = path.join(root, 'repo');
  fs.mkdirSync(path.join(workspace, 'config'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'config', 'deploy.yml'), deployYml);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', 'commit', '-qm', 'first');
  fs.mkdirSync(path.join(root, 'home'));
  const place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  return { root, workspace, place };
}
