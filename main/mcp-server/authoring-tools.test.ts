// The authoring helpers in-process: they pass the rules they teach, and they write, repair and refuse safely.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolResult, ToolSpec } from '../../tools/sdk/types';
import { ProcessGroups } from '../process/process-group';
import { lintTool } from '../core/lint/lint-tool';
import { testCore } from '../core/testing/test-core';
import { ScriptToolSource } from '../adapters/script/script-tool-source';
import { testContext, TEST_DESCRIPTION, writeToolFolder } from '../adapters/script/script-testing';
import { authoringTools } from './authoring-tools';
import { guideTool } from './guide-tool';

function setup() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-authoring-'));
  const globalScripts = path.join(home, 'tools', 'script');
  const core = testCore([]);
  const scripts = new ScriptToolSource({
    registry: core.registry,
    dirs: [{ dir: globalScripts, scope: 'global' }],
    log: core.log,
    groups: new ProcessGroups(),
    watch: false,
  });
  const tools = authoringTools(() => ({
    globalScripts,
    workspace: home,
    scripts,
    registry: core.registry,
    dispatcher: core.dispatcher,
  }));
  for (const tool of tools) core.registry.register(tool);
  const run = async (name: string, args: Record<string, unknown>) => {
    const outcome = await core.dispatcher.dispatch(
      { id: name, name, args },
      { chatId: 'authoring', workspace: home },
    );
    return outcome;
  };
  return { home, globalScripts, core, scripts, tools, run };
}

function body(result: ToolResult): Record<string, unknown> {
  return typeof result === 'string' ? {} : (result.data as Record<string, unknown>);
}

describe('authoring helpers', () => {
  it('pass the design rules they teach (no findings at all)', () => {
    const all: ToolSpec[] = [guideTool(), ...setup().tools];
    for (const tool of all) {
      expect({
        tool: tool.name,
        findings: lintTool({ name: tool.name, description: tool.description, parameters: tool.parameters }),
      }).toEqual({
        tool: tool.name,
        findings: [],
      });
    }
  });

  it('refuses to overwrite an existing folder unless asked, and refuses names that leave the folder', async () => {
    const s = setup();
    const args = {
      name: 'say_hi',
      description: TEST_DESCRIPTION,
      parameters: { type: 'object', properties: {} },
      script: 'process.stdout.write("hi")',
    };
    expect(await s.run('create_script_tool', args)).toMatchObject({ outcome: 'ok' });
    expect(await s.run('create_script_tool', args)).toMatchObject({
      outcome: 'error',
      message: expect.stringContaining('already exists'),
    });
    expect(await s.run('create_script_tool', { ...args, overwrite: true })).toMatchObject({ outcome: 'ok' });
    expect(await s.run('create_script_tool', { ...args, name: '../escape' })).toMatchObject({
      outcome: 'error',
      message: expect.stringContaining('must be 1-57 letters'),
    });
    expect(fs.existsSync(path.join(s.home, 'tools', 'escape'))).toBe(false);
  });

  it('repairs a folder whose tool.json is broken, and switches its script language', async () => {
    const s = setup();
    writeToolFolder(s.globalScripts, 'fix_me', {
      manifest: '{"name": "fix_me", ',
      js: 'process.stdout.write("old")',
    });
    await s.scripts.rescan();
    expect(s.scripts.problems()).toHaveLength(1);
    const handler = s.tools.find((tool) => tool.name === 'patch_script_tool')?.handler;
    const result = await handler?.(
      {
        name: 'fix_me',
        description: TEST_DESCRIPTION,
        parameters: { type: 'object', properties: {} },
        script: 'print("new", end="")',
        language: 'py',
      },
      testContext({ workspace: s.home }).ctx,
    );
    expect(body(result as ToolResult)).toMatchObject({ tool: 'script_fix_me', loaded: true, problem: null });
    expect(fs.readdirSync(path.join(s.globalScripts, 'fix_me')).sort()).toEqual(['script.py', 'tool.json']);
    expect(await s.run('test_script_tool', { name: 'fix_me' })).toMatchObject({
      outcome: 'ok',
      data: { outcome: 'ok', text: 'new' },
    });
  });

  it("never writes or deletes through a repository's linked tool folder, which points outside the workspace", async () => {
    // The hostile repository ships `.config/agenvoy/tools/script/deploy -> ../../../../../outside` (git keeps links);
    // the folder holds no tool.json, so it is a broken tool that patch_script_tool offers to repair.
    const s = setup();
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-authoring-ws-'));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-authoring-outside-'));
    const scan = path.join(workspace, '.config', 'agenvoy', 'tools', 'script');
    fs.mkdirSync(scan, { recursive: true });
    fs.writeFileSync(path.join(outside, 'script.py'), 'print("the person\'s own script")\n');
    fs.symlinkSync(outside, path.join(scan, 'deploy'));
    const scripts = new ScriptToolSource({
      registry: s.core.registry,
      dirs: [
        { dir: s.globalScripts, scope: 'global' },
        { dir: scan, scope: 'workspace' },
      ],
      log: s.core.log,
      groups: new ProcessGroups(),
      watch: false,
    });
    const tools = authoringTools(() => ({
      globalScripts: s.globalScripts,
      workspace,
      scripts,
      registry: s.core.registry,
      dispatcher: s.core.dispatcher,
    }));
    const patch = tools.find((tool) => tool.name === 'patch_script_tool')?.handler;
    const create = tools.find((tool) => tool.name === 'create_script_tool')?.handler;
    const fields = {
      name: 'deploy',
      description: TEST_DESCRIPTION,
      parameters: { type: 'object', properties: {} },
      script: 'console.log(1)',
    };
    for (const args of [fields, { ...fields, language: 'js' }]) {
      await expect(Promise.resolve(patch?.(args, testContext({ workspace }).ctx))).rejects.toThrow(
        /deploy is a link; tool folders are written only as plain folders/,
      );
    }
    // The global folder the same way: a link there is not written through either, even with overwrite.
    fs.mkdirSync(s.globalScripts, { recursive: true });
    fs.symlinkSync(outside, path.join(s.globalScripts, 'deploy'));
    await expect(
      Promise.resolve(create?.({ ...fields, overwrite: true }, testContext({ workspace }).ctx)),
    ).rejects.toThrow(/is a link/);
    expect(fs.readdirSync(outside)).toEqual(['script.py']);
    expect(fs.readFileSync(path.join(outside, 'script.py'), 'utf8')).toBe(
      'print("the person\'s own script")\n',
    );
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('says which tool is missing when patching one that does not exist', async () => {
    const s = setup();
    expect(await s.run('patch_script_tool', { name: 'ghost', description: 'x' })).toMatchObject({
      outcome: 'error',
      code: 'not_found',
      message: 'no script tool "ghost": list_script_tools shows them; create_script_tool makes a new one',
    });
  });

  it('list_script_tools says which loaded tool is broken, with the step and why', async () => {
    const s = setup();
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { d: deep } };
    writeToolFolder(s.globalScripts, 'deep', {
      manifest: {
        name: 'deep',
        description: TEST_DESCRIPTION,
        parameters: { type: 'object', properties: { root: deep } },
      },
      js: 'process.stdout.write("x")',
    });
    const outcome = await s.run('list_script_tools', {});
    const data = outcome.outcome === 'ok' ? JSON.parse(outcome.text) : null;
    const listed = (data?.tools ?? []) as Array<{ tool: string; broken: unknown }>;
    expect(listed.find((tool) => tool.tool === 'script_deep')?.broken).toMatchObject({
      step: 'limits',
      reason: expect.stringMatching(/nested deeper than 64 levels/),
    });
  });
});
