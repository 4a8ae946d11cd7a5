// The heartbeat as the app writes it: a script tool run through the real dispatcher, whose per-call logger writes
// the real app.log; `grep "running name="` must find the documented line, exactly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ProcessGroups } from '../../process/process-group';
import { testCore } from '../../core/testing/test-core';
import { ScriptToolSource } from './script-tool-source';
import { manifest, writeToolFolder } from './script-testing';

const groups = new ProcessGroups();
const dirs: string[] = [];
afterEach(async () => {
  await groups.killAll();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('writes `running name=<name> elapsed=<Y>s/<Z>s` lines to the real app.log while a script runs', async () => {
  const core = testCore([]);
  const scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-beat-'));
  dirs.push(scripts, core.dir);
  writeToolFolder(scripts, 'slow', {
    manifest: manifest('slow', { timeout: 20 }),
    js: `setTimeout(() => console.log('done'), 900)`,
  });
  const source = new ScriptToolSource({
    registry: core.registry,
    dirs: [{ dir: scripts, scope: 'global' }],
    log: core.log,
    groups,
    sandbox: null,
    watch: false,
    heartbeatMs: 250,
  });
  await source.start();
  const outcome = await core.dispatcher.dispatch(
    { id: 'beat-1', name: 'script_slow', args: {} },
    { chatId: 'beat', workspace: scripts },
  );
  source.stop();
  expect(outcome).toMatchObject({ outcome: 'ok', text: 'done' });
  const log = fs.readFileSync(path.join(core.dir, 'app.log'), 'utf8');
  const beats = log.split('\n').filter((line) => line.includes('running name='));
  expect(beats.length).toBeGreaterThanOrEqual(2);
  for (const line of beats) expect(line).toMatch(/^\S+Z INFO running name=script_slow elapsed=\d+s\/20s$/);
});
