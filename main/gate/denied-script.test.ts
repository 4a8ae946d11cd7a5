import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptToolSource } from '../adapters/script/script-tool-source';
import { AppLogger } from '../core/logger';
import { agenvoyPaths } from '../core/paths';
import { ProcessGroups } from '../process/process-group';
import { Redactor } from '../core/redactor';
import { testCore } from '../core/testing/test-core';
import { ConfirmGate } from './confirm-gate';
import type { Answers } from './testing/scripted-prompter';
import { ScriptedPrompter } from './testing/scripted-prompter';
import { RuleBook } from './rule-book';
import { RuleStore } from './rule-store';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

// A real script tool folder under $AGENVOY_HOME/tools/script whose script creates the marker file it is given.
async function markerTool(answers: Answers | null) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-denied-'));
  const paths = agenvoyPaths(path.join(tmp, 'home'));
  const folder = path.join(paths.globalScripts, 'touch_marker');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'tool.json'),
    JSON.stringify({
      name: 'touch_marker',
      description: 'Create a marker file at the given path.\nUse when testing that a denied tool never runs.',
      parameters: {
        type: 'object',
        properties: { marker: { type: 'string', description: 'Absolute path of the marker file.' } },
        required: ['marker'],
      },
    }),
  );
  fs.writeFileSync(
    path.join(folder, 'script.js'),
    `let input = ''; process.stdin.on('data', (d) => (input += d)); process.stdin.on('end', () => {
       require('fs').writeFileSync(JSON.parse(input).marker, 'ran'); console.log('marker written'); });`,
  );
  const prompter = answers === null ? null : new ScriptedPrompter(answers);
  const gate = new ConfirmGate({
    rules: new RuleBook(RuleStore.inDesktop(paths.desktop)),
    sensitive: { homes: [os.homedir()], agenvoyHome: paths.home },
    prompter,
  });
  const core = testCore([], { gate });
  const groups = new ProcessGroups();
  const scripts = new ScriptToolSource({
    registry: core.registry,
    dirs: [{ dir: paths.globalScripts, scope: 'global' }],
    log: new AppLogger(null, new Redactor(), {}, () => {}),
    groups,
    watch: false,
  });
  await scripts.start();
  cleanups.push(async () => {
    scripts.stop();
    await groups.killAll();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  expect(core.registry.get('script_touch_marker')?.spec.source.kind).toBe('script');
  const marker = path.join(tmp, 'marker.txt');
  const callMarker = (id = 'c1') =>
    core.dispatcher.dispatch(
      { id, name: 'script_touch_marker', args: { marker } },
      { chatId: 'chat', workspace: tmp },
    );
  return { marker, callMarker, gate, prompter };
}

describe('a denied tool really does not run', () => {
  it('leaves no marker when the user denies the real script tool', async () => {
    const { marker, callMarker } = await markerTool([{ kind: 'deny', reason: 'no' }]);
    expect((await callMarker()).outcome).toBe('denied');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('leaves no marker when an always-deny rule denies it, or nobody can be asked', async () => {
    const denied = await markerTool([]);
    await denied.gate.rules.add({ tool: 'script_*', effect: 'deny' });
    expect((await denied.callMarker()).outcome).toBe('denied');
    expect(denied.prompter?.questions).toEqual([]);
    const unattended = await markerTool(null);
    expect((await unattended.callMarker()).outcome).toBe('denied');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fs.existsSync(denied.marker) || fs.existsSync(unattended.marker)).toBe(false);
  });

  it('creates the marker once allowed (the tool itself works)', async () => {
    const { marker, callMarker } = await markerTool([{ kind: 'allow_once' }]);
    expect(await callMarker()).toMatchObject({ outcome: 'ok', text: 'marker written' });
    expect(fs.readFileSync(marker, 'utf8')).toBe('ran');
  });
});
