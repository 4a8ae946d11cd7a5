import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineTool } from '../../../tools/sdk/types';
import { AppLogger } from '../../core/logger';
import { agenvoyHome, agenvoyPaths, workspaceScripts } from '../../core/paths';
import { ProcessGroups } from '../../process/process-group';
import { waitFor } from '../../process/process-group-testing';
import { Redactor } from '../../core/redactor';
import { ToolRegistry } from '../../core/registry';
import { manifest, testContext, writeToolFolder } from './script-testing';
import type { ScriptSourceChange, ScriptToolSourceOptions } from './script-tool-source';
import { ScriptToolSource } from './script-tool-source';
import { ToolPinner } from './tool-pin';

let tmp: string;
let globalDir: string;
let workspace: string;
let workspaceDir: string;
let registry: ToolRegistry;
let groups: ProcessGroups;
let logLines: string[];
let sources: ScriptToolSource[];

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-source-'));
  vi.stubEnv('AGENVOY_HOME', path.join(tmp, 'home'));
  globalDir = agenvoyPaths(agenvoyHome()).globalScripts;
  workspace = path.join(tmp, 'workspace');
  workspaceDir = workspaceScripts(workspace);
  fs.mkdirSync(globalDir, { recursive: true });
  registry = new ToolRegistry(() => []);
  groups = new ProcessGroups();
  logLines = [];
  sources = [];
});

afterEach(async () => {
  for (const source of sources) source.stop();
  await groups.killAll();
  vi.unstubAllEnvs();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function source(options: Partial<ScriptToolSourceOptions> = {}): ScriptToolSource {
  const created = new ScriptToolSource({
    registry,
    dirs: [
      { dir: globalDir, scope: 'global' },
      { dir: workspaceDir, scope: 'workspace' },
    ],
    log: new AppLogger(null, new Redactor(), {}, (line) => logLines.push(line)),
    groups,
    watch: false,
    ...options,
  });
  sources.push(created);
  return created;
}

const scriptNames = () =>
  registry
    .all()
    .map((t) => t.spec.name)
    .filter((name) => name.startsWith('script_'));

describe('ScriptToolSource', () => {
  it('registers each tool with its source, flags and timeout, and the handler runs', async () => {
    writeToolFolder(globalDir, 'echo', {
      manifest: manifest('echo', { always_allow: true, concurrent: true, timeout: 12 }),
      js: `process.stdin.pipe(process.stdout)`,
    });
    writeToolFolder(globalDir, 'broken', { manifest: '{', js: '' });
    const scripts = source();
    await scripts.start();

    const echo = registry.get('script_echo')?.spec;
    expect(echo).toMatchObject({
      source: {
        kind: 'script',
        dir: path.join(globalDir, 'echo'),
        scope: 'global',
        trusted: true,
        // A global tool may always write its own folder.
        writable: [fs.realpathSync(path.join(globalDir, 'echo'))],
      },
      flags: { alwaysAllow: true, concurrent: true, background: false, systemUse: false },
      timeoutMs: 12_000,
    });
    const { ctx } = testContext({ workspace: tmp });
    expect(await echo?.handler({ hello: 'world' }, ctx)).toBe('{"hello":"world"}');
    expect(scripts.problems()).toEqual([
      expect.objectContaining({
        dir: path.join(globalDir, 'broken'),
        reason: expect.stringMatching(/^malformed JSON/),
      }),
    ]);
    expect(logLines.some((line) => line.includes('WARN script tool not loaded'))).toBe(true);
    expect(scripts.tools().map((t) => t.toolName)).toEqual(['script_echo']);

    scripts.stop();
    expect(scriptNames()).toEqual([]);
  });

  it('lets a trusted workspace tool override the global one and hands the name back when it goes', async () => {
    writeToolFolder(globalDir, 'shared', { manifest: manifest('shared'), js: `console.log('global')` });
    writeToolFolder(workspaceDir, 'shared', { manifest: manifest('shared'), js: `console.log('workspace')` });
    const scripts = source({
      dirs: [
        { dir: globalDir, scope: 'global' },
        { dir: workspaceDir, scope: 'workspace', workspace },
      ],
      // The folder is trusted with its tool as it is now (what `agenvoy trust add` records).
      trust: {
        check: async (folder) => {
          const pin = await new ToolPinner().pin(path.join(workspaceDir, 'shared'));
          return folder === workspace && pin.ok
            ? { trusted: true, problem: null, tools: [{ name: 'script_shared', pin: pin.pin }] }
            : { trusted: false, problem: null };
        },
      },
    });
    const changes: ScriptSourceChange[] = [];
    scripts.onChange((change) => changes.push(change));
    await scripts.start();
    expect(registry.get('script_shared')?.spec.source).toMatchObject({ scope: 'workspace' });
    expect(changes).toEqual([{ added: ['script_shared'], removed: [], updated: [], problems: [] }]);

    fs.rmSync(path.join(workspaceDir, 'shared'), { recursive: true });
    await scripts.rescan();
    expect(registry.get('script_shared')?.spec.source).toMatchObject({
      scope: 'global',
      dir: path.join(globalDir, 'shared'),
    });
    expect(changes[1]).toEqual({ added: [], removed: [], updated: ['script_shared'], problems: [] });
    await scripts.rescan();
    expect(changes).toHaveLength(2);
  });

  it('reports a name taken by a built-in as a problem and loads the rest', async () => {
    registry.register(
      defineTool({ name: 'script_clash', description: 'x', parameters: {}, handler: () => 'builtin' }),
    );
    writeToolFolder(globalDir, 'clash', { manifest: manifest('clash'), js: '' });
    writeToolFolder(globalDir, 'fine', { manifest: manifest('fine'), js: '' });
    const scripts = source();
    await scripts.start();
    expect(registry.get('script_clash')?.spec.source.kind).toBe('builtin');
    expect(registry.get('script_fine')).toBeDefined();
    expect(scripts.problems()).toEqual([
      {
        dir: path.join(globalDir, 'clash'),
        file: path.join(globalDir, 'clash', 'tool.json'),
        reason: expect.stringContaining('already registered by a built-in tool'),
        scope: 'global',
      },
    ]);
  });

  it('scans a folder listed twice only once', async () => {
    writeToolFolder(globalDir, 'once', { manifest: manifest('once'), js: '' });
    const scripts = source({
      dirs: [
        { dir: globalDir, scope: 'global' },
        { dir: globalDir + '/', scope: 'workspace' },
      ],
    });
    await scripts.start();
    expect(registry.get('script_once')?.spec.source).toMatchObject({ scope: 'global' });
    expect(scripts.problems()).toEqual([]);
  });

  it('picks up a tool dropped in, changed and removed while watching', async () => {
    // A long poll: within these bounds only fs.watch can have noticed.
    const scripts = source({ watch: true, pollMs: 60_000 });
    const changes: ScriptSourceChange[] = [];
    scripts.onChange((change) => changes.push(change));
    await scripts.start();

    const dir = writeToolFolder(globalDir, 'live', { manifest: manifest('live'), js: `console.log('v1')` });
    await waitFor(() => registry.get('script_live') !== undefined, 5000, 'the new tool');
    const { ctx } = testContext({ workspace: tmp });
    expect(await registry.get('script_live')?.spec.handler({}, ctx)).toBe('v1');

    writeToolFolder(globalDir, 'live', { manifest: manifest('live', { timeout: 7 }) });
    await waitFor(() => registry.get('script_live')?.spec.timeoutMs === 7000, 5000, 'the changed tool.json');

    const updates = changes.filter((c) => c.updated.includes('script_live')).length;
    fs.writeFileSync(path.join(dir, 'script.js'), `console.log('version two')`);
    await waitFor(
      () => changes.filter((c) => c.updated.includes('script_live')).length > updates,
      5000,
      'the script change',
    );
    expect(await registry.get('script_live')?.spec.handler({}, ctx)).toBe('version two');

    writeToolFolder(globalDir, 'oops', { manifest: '{"name": ', js: '' });
    await waitFor(() => scripts.problems().length === 1, 5000, 'the broken folder');

    fs.rmSync(dir, { recursive: true });
    await waitFor(() => registry.get('script_live') === undefined, 5000, 'the removal');
    expect(changes.at(-1)?.removed).toEqual(['script_live']);
  });

  it('picks up a scan folder created after start', async () => {
    const scripts = source({ watch: true, pollMs: 300 });
    await scripts.start();
    expect(fs.existsSync(workspaceDir)).toBe(false);
    writeToolFolder(workspaceDir, 'late', { manifest: manifest('late'), py: 'print("late")' });
    await waitFor(() => registry.get('script_late') !== undefined, 5000, 'the tool in the new folder');
    // Once created, the folder is watched too.
    writeToolFolder(workspaceDir, 'later', { manifest: manifest('later'), py: 'print("later")' });
    await waitFor(() => registry.get('script_later') !== undefined, 5000, 'the second tool');
  });

  it('stops watching on stop', async () => {
    const scripts = source({ watch: true, pollMs: 100, debounceMs: 20 });
    await scripts.start();
    scripts.stop();
    writeToolFolder(globalDir, 'after_stop', { manifest: manifest('after_stop'), js: '' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(registry.get('script_after_stop')).toBeUndefined();
  });
});
