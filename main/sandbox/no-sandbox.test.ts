// Where no sandbox can start (here: bubblewrap pointed at a path that does not exist): the state says why, command
// rules and chat grants stop applying, an approved command runs unconfined and says so, a global always_allow script
// tool still runs (unconfined), and the host is told once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../app';
import { createCore } from '../app';
import { createConfirmGate } from '../gate/create-gate';
import { RuntimeSandbox } from './runtime-sandbox';

let root: string;
let home: string;
let workspace: string;
const cores: Core[] = [];

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-no-sandbox-')));
  home = path.join(root, 'agenvoy');
  workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  const tool = path.join(home, 'tools', 'script', 'stamp');
  fs.mkdirSync(tool, { recursive: true });
  fs.writeFileSync(
    path.join(tool, 'tool.json'),
    JSON.stringify({
      name: 'stamp',
      description:
        'Write a stamp file next to the workspace.\nUse when testing a run with no sandbox; nothing else.',
      parameters: { type: 'object', properties: {} },
      always_allow: true,
    }),
  );
  fs.writeFileSync(
    path.join(tool, 'script.js'),
    `require('fs').writeFileSync('../stamped', 'yes'); console.log('ok')`,
  );
});

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function core(policy: 'ask' | 'allow') {
  const notes: string[] = [];
  const sandbox = new RuntimeSandbox({
    agenvoyHome: home,
    homes: [path.join(root, 'home')],
    web: () => ({}),
    bwrapPath: path.join(root, 'no-such-bwrap'),
  });
  const made = await createCore({
    home,
    workspace,
    gate: createConfirmGate({ home, policy, personal: policy === 'allow', prompter: null }),
    sandbox,
    onSandboxUnavailable: (reason) => notes.push(reason),
  });
  cores.push(made);
  const call = (id: string, name: string, args: Record<string, unknown>) =>
    made.dispatcher.dispatch({ id, name, args }, { chatId: 'chat', workspace });
  return { core: made, sandbox, notes, call };
}

describe('no sandbox available', () => {
  it('says why', async () => {
    const { sandbox } = await core('ask');
    expect(await sandbox.state()).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringMatching(/bubblewrap[^]*not executable[^]*apt-get install bubblewrap socat/),
    });
  });

  it('stops the default rules: git status asks, and with nobody to ask it is denied saying why; the host is told once', async () => {
    const { call, notes } = await core('ask');
    for (const id of ['a', 'b']) {
      const outcome = await call(id, 'run_command', { command: 'git status' });
      expect(outcome).toMatchObject({
        outcome: 'denied',
        message: expect.stringContaining('no OS sandbox can start here, so commands run unconfined'),
      });
    }
    expect(notes).toHaveLength(1);
  });

  it('runs an approved command unconfined, and the result says so', async () => {
    const { call } = await core('allow');
    const outcome = await call('c', 'run_command', { command: 'echo out > ../outside.txt' });
    expect(fs.readFileSync(path.join(root, 'outside.txt'), 'utf8')).toBe('out\n');
    expect(outcome).toMatchObject({
      outcome: 'ok',
      text: expect.stringContaining(
        'note: no OS sandbox can start on this machine, so this command ran unconfined',
      ),
    });
  });

  it('keeps a global always_allow script tool running, unconfined', async () => {
    const { call } = await core('ask');
    expect(await call('s', 'script_stamp', {})).toMatchObject({ outcome: 'ok', text: 'ok' });
    expect(fs.readFileSync(path.join(root, 'stamped'), 'utf8')).toBe('yes');
  });
});
