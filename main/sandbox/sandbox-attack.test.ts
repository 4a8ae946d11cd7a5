// Attacks on the OS sandbox, as a hostile model would make them through `agenvoy tools call` (no terminal) and
// `agenvoy chat` (a scripted model): whatever approved the call, it cannot write outside the workspace, read a
// secret location, see the app's API keys, reach the host's internal services, or outlive its timeout.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { chatWithCalls, runBin, runCli } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let fakeHome: string;
let workspace: string;
let outside: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-sandbox-attack-')));
  fakeHome = path.join(root, 'home');
  workspace = path.join(root, 'workspace');
  outside = path.join(root, 'outside');
  for (const dir of [path.join(fakeHome, '.ssh'), path.join(fakeHome, '.aws'), workspace, outside])
    fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(fakeHome, '.ssh', 'id_rsa'), 'SSH-KEY-CANARY');
  fs.writeFileSync(path.join(fakeHome, '.aws', 'credentials'), 'AWS-CANARY');
  fs.writeFileSync(path.join(fakeHome, '.bashrc'), '# original\n');
  const home = path.join(root, 'agenvoy');
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.secrets'), 'GITHUB_TOKEN=SECRET-FILE-CANARY\n', { mode: 0o600 });
  place = { home, cwd: workspace, env: { HOME: fakeHome } };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const CANARIES = /SSH-KEY-CANARY|AWS-CANARY|SECRET-FILE-CANARY|ENV-KEY-CANARY/;

function call(args: Record<string, unknown>, extra: string[] = ['--yes']) {
  return runCli(
    ['tools', 'call', 'run_command', JSON.stringify(args), '--json', '--workspace', workspace, ...extra],
    place,
  );
}

describe('an approved command stays in its sandbox', () => {
  it('cannot write outside the workspace: not ~/.bashrc, not a sibling folder, not through a symlink', async () => {
    fs.symlinkSync(outside, path.join(workspace, 'link-out'));
    const run = await call({
      command:
        `echo pwned >> ${fakeHome}/.bashrc; echo x > ${outside}/planted; echo y > link-out/through-link; ` +
        'echo z > ../escaped; cp /bin/sh /tmp/agenvoy-attack-shell-$$',
    });
    expect(fs.readFileSync(path.join(fakeHome, '.bashrc'), 'utf8')).toBe('# original\n');
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(root, 'escaped'))).toBe(false);
    const outcome = JSON.parse(run.stdout);
    expect(outcome.outcome).toBe('ok');
    // The home folder is hidden: inside the sandbox it is an empty scratch folder, so the write to ~/.bashrc went
    // nowhere (asserted above); the write to the sibling folder is refused outright.
    expect(outcome.text).toContain(`a write to ${outside}/planted (outside the workspace`);
    expect(outcome.text).toContain('call again with "sandbox": false');
  });

  it('cannot read secret locations, by any spelling', async () => {
    const run = await call({
      command:
        'cat ~/.ssh/id_rsa; x=.ssh; cat ~/$x/id_rsa; cat ~/${y:-.ssh}/id_${z:-rsa}; cat "$HOME/.aws/credentials"; ' +
        `cd ${fakeHome} && cat .ssh/id_rsa; find ${fakeHome} -type f -exec cat {} +; ` +
        `cat ${place.home}/.secrets; tar c -C ${fakeHome} . | strings`,
    });
    expect(run.stdout).not.toMatch(CANARIES);
    expect(JSON.parse(run.stdout).text).toContain(
      `a read of ${path.join(place.home, '.secrets')} (the sandbox hides`,
    );
  });

  it('sees none of the app’s API keys or tokens in its environment', async () => {
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'ENV-KEY-CANARY';
    try {
      const run = await call({
        command: 'env; cat /proc/self/environ | tr "\\0" "\\n"; cat /proc/1/environ',
      });
      expect(run.stdout).not.toMatch(CANARIES);
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
  });

  it('cannot reach a service on the host’s loopback, directly or through the proxy', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('internal admin page');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const run = await call({
        command:
          `curl -sS -m 5 http://127.0.0.1:${port}/; curl -sS -m 5 --noproxy '' http://127.0.0.1:${port}/; ` +
          `curl -sS -m 5 --noproxy '' http://localhost:${port}/; curl -sS -m 5 --noproxy '' http://[::ffff:127.0.0.1]:${port}/; ` +
          `curl -sS -m 5 --noproxy '' http://2130706433:${port}/`,
      });
      expect(hits).toBe(0);
      expect(run.stdout).not.toContain('internal admin page');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('dies with its whole tree at its timeout, setsid and double fork included', async () => {
    const beat = path.join(workspace, 'beat');
    // The core reads AGENVOY_TIMEOUT_SCALE from the process: run_command's 30 min limit becomes 1.8 s.
    const scale = process.env.AGENVOY_TIMEOUT_SCALE;
    process.env.AGENVOY_TIMEOUT_SCALE = '0.001';
    const run = await runCli(
      [
        'tools',
        'call',
        'run_command',
        JSON.stringify({
          command: `(setsid sh -c 'trap "" TERM; while :; do date +%s%N > ${beat}; sleep 0.05; done' &) ; sleep 600`,
        }),
        '--yes',
        '--json',
        '--workspace',
        workspace,
      ],
      place,
    ).finally(() => {
      if (scale === undefined) delete process.env.AGENVOY_TIMEOUT_SCALE;
      else process.env.AGENVOY_TIMEOUT_SCALE = scale;
    });
    expect(run.stdout).toContain('timed_out');
    const last = fs.readFileSync(beat, 'utf8');
    await new Promise((r) => setTimeout(r, 500));
    expect(fs.readFileSync(beat, 'utf8')).toBe(last);
  }, 60_000);
});

describe('leaving the sandbox needs a person, for that one call', () => {
  it('`sandbox: false` is denied with no terminal, even with a rule that allows the command', async () => {
    await runCli(['rules', 'add', '--tool', 'run_command', '--pattern', 'cat **', '--allow'], place);
    const run = await call({ command: 'cat ~/.ssh/id_rsa', sandbox: false }, []);
    expect(run.stdout).not.toMatch(CANARIES);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({
      outcome: 'denied',
      message:
        "denied: run_command needs approval (it asks to run outside the OS sandbox (sandbox: false), which only a person's " +
        'decision for this call allows; it touches SSH keys (~/.ssh) (in `command`), which always asks) and there is no ' +
        'terminal to ask; run it yourself with agenvoy tools call run_command … --yes',
    });
  });

  it('`agenvoy chat --approve allow` never runs a `sandbox: false` call; the sandboxed one runs confined', async () => {
    const chat = await chatWithCalls(
      [
        { name: 'run_command', args: { command: 'cat ~/.ssh/id_rsa', sandbox: false } },
        { name: 'run_command', args: { command: 'cat ~/.ssh/id_rsa; echo leak > ../leak' } },
        { name: 'run_command', args: { command: 'echo leak > ../leak' } },
      ],
      place,
      'allow',
    );
    expect(chat.toolResults.call_0).toMatch(/^Error: denied: run_command asks to run outside the OS sandbox/);
    // A sensitive target is never the policy's to allow (main/cli/approve-allow-attack.test.ts).
    expect(chat.toolResults.call_1).toMatch(/denied: run_command touches SSH keys .*not --approve allow/s);
    // The sandboxed one runs confined: its write out of the workspace does not land.
    expect(JSON.stringify(chat.server.requests)).not.toMatch(CANARIES);
    expect(fs.existsSync(path.join(root, 'leak'))).toBe(false);
  });

  it('`tools call --yes` is a person’s decision for that call: sandbox: false runs unconfined, through the real binary', async () => {
    const run = await runBin(
      [
        'tools',
        'call',
        'run_command',
        JSON.stringify({ command: 'echo out > ../unconfined', sandbox: false }),
        '--yes',
        '--workspace',
        workspace,
      ],
      place,
    );
    expect(run.code).toBe(0);
    expect(fs.readFileSync(path.join(root, 'unconfined'), 'utf8')).toBe('out\n');
  });
});
