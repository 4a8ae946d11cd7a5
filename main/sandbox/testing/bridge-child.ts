// A process that owns a sandbox with the proxy (bridge.test.ts): runs one networked command through a real
// RuntimeSandbox and prints its result as one JSON line. Its own process, so each scenario gets fresh instances of
// the runtime's singletons (its socat is fixed at the proxy's start). With `hold` it then waits to be killed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProcessGroups } from '../../process/process-group';
import { runToolProcess } from '../../process/process-port';
import { RuntimeSandbox } from '../runtime-sandbox';

interface Scenario {
  command: string;
  socatPath?: string;
  hold?: boolean;
  /** The app's temp folder inside the hidden home ($TMPDIR=~/tmp). */
  tmpInHome?: boolean;
}

const scenario = JSON.parse(process.argv[2] ?? '{}') as Scenario;
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bridge-child-')));
const home = path.join(root, 'home');
const workspace = path.join(home, 'project');
fs.mkdirSync(workspace, { recursive: true });
if (scenario.tmpInHome) {
  process.env.TMPDIR = path.join(home, 'tmp');
  fs.mkdirSync(process.env.TMPDIR);
}
const sandbox = new RuntimeSandbox({
  agenvoyHome: path.join(home, '.config', 'agenvoy'),
  homes: [home],
  web: () => ({ allowedHosts: ['127.0.0.1'] }),
  cacheDir: path.join(root, 'cache'),
  ...(scenario.socatPath ? { socatPath: scenario.socatPath } : {}),
});
const groups = new ProcessGroups();
const started = Date.now();
const result = await runToolProcess(
  {
    command: scenario.command,
    shell: true,
    cwd: workspace,
    signal: new AbortController().signal,
    confinement: { workspace, writable: [workspace], network: 'proxy' },
  },
  { groups, sandbox, parentEnv: () => ({ ...process.env, HOME: home }) },
);
process.stdout.write(
  `${JSON.stringify({ stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started })}\n`,
);
if (scenario.hold) {
  setInterval(() => undefined, 60_000);
} else {
  await sandbox.close();
  fs.rmSync(root, { recursive: true, force: true });
}
