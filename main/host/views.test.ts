// Mappings to the contract's views, and the settings screen over settings.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSettingsView, saveSettingsInput } from './desktop-settings';
import { messageView, resultFromNote } from './message-views';
import { defineTool } from '../../tools/sdk/types';
import { lintTool } from '../core/lint/lint-tool';
import { ToolRegistry } from '../core/registry';
import { outcomeView, toolViews } from './views';

describe('views', () => {
  it('messages: text joined, tool calls as parts, tool results left to their cards', () => {
    const base = { id: 3, chatId: 'c', seq: 2, status: 'complete' as const, createdAt: 1, updatedAt: 1 };
    expect(
      messageView({
        ...base,
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me ' },
            { type: 'tool_call', id: 'a', name: 'run_command', args: '{}' },
            { type: 'text', text: 'check.' },
          ],
        },
      }),
    ).toMatchObject({
      kind: 'assistant',
      text: 'Let me check.',
      parts: [
        { type: 'text', text: 'Let me ' },
        { type: 'tool_call', callId: 'a', name: 'run_command' },
        { type: 'text', text: 'check.' },
      ],
    });
    expect(messageView({ ...base, message: { role: 'tool_results', results: [] } })).toBeNull();
  });

  it('results come back from write_result notes', () => {
    const note = (text: string) => ({
      id: 1,
      chatId: 'c',
      seq: 1,
      status: 'complete' as const,
      createdAt: 1,
      updatedAt: 1,
      message: { role: 'note' as const, text, taskId: null, seen: true },
    });
    expect(resultFromNote(note('Result saved: Weekly (report) (/ws/out/a (1).md, 12 bytes)'))).toEqual({
      title: 'Weekly (report)',
      path: '/ws/out/a (1).md',
      bytes: 12,
    });
    expect(resultFromNote(note('Background task t1 ended: succeeded.'))).toBeNull();
  });

  it('outcomes lose raw content and data; an infinite limit is null', () => {
    expect(
      outcomeView({
        outcome: 'ok',
        text: 't',
        content: [{ type: 'text', text: 't' }],
        data: { x: 1 },
        durationMs: 5,
      }),
    ).toEqual({
      outcome: 'ok',
      text: 't',
      durationMs: 5,
    });
    expect(
      outcomeView({ outcome: 'timed_out', message: 'm', limitMs: Infinity, durationMs: 1 }),
    ).toMatchObject({ limitMs: null });
  });
});

describe('settings screen', () => {
  it('keeps unknown fields, stores the default workspace, names env overrides', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-settings-'));
    fs.mkdirSync(path.join(home, 'desktop'));
    const file = path.join(home, 'desktop', 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ provider: 'openai', theme: 'dark' }));
    const place = { home, env: { AGENVOY_MODEL: 'env-model' }, fallbackWorkspace: '/fallback' };
    expect(readSettingsView(place)).toMatchObject({
      provider: 'openai',
      model: 'env-model',
      defaultWorkspace: '/fallback',
      overridden: ['model'],
    });
    const view = await saveSettingsInput(place, {
      apiKeyName: '',
      defaultWorkspace: home,
      baseUrl: ' http://localhost:11434/v1 ',
    });
    expect(view).toMatchObject({
      apiKeyName: null,
      defaultWorkspace: home,
      baseUrl: 'http://localhost:11434/v1',
    });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      theme: 'dark',
      defaultWorkspace: home,
      apiKeyName: null,
    });
    await expect(saveSettingsInput(place, { baseUrl: 'ftp://x' })).rejects.toMatchObject({
      code: 'invalid_settings',
    });
    await expect(saveSettingsInput(place, { apiKeyName: 'has space' })).rejects.toMatchObject({
      code: 'invalid_settings',
    });
    await expect(saveSettingsInput(place, 'nope')).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('toolViews', () => {
  it('lists broken tools with their step and warnings, and a tool that cannot be shown as broken at list', () => {
    const registry = new ToolRegistry(lintTool);
    const base = defineTool({
      name: 'read_notes',
      description: 'Read the notes of the workspace.\nUse when asked about notes; use read_file for files.',
      parameters: { type: 'object', properties: {} },
      handler: () => '',
    });
    const source = {
      kind: 'script' as const,
      dir: '/t',
      scope: 'global' as const,
      trusted: true,
      writable: [],
    };
    registry.register(base);
    registry.register({ ...base, name: 'script_bad', source, parameters: [] as never }, { warnings: ['w1'] });
    const flags = new Proxy(base.flags, {
      ownKeys: () => {
        throw new Error('unreadable flags');
      },
    });
    registry.register({ ...base, name: 'script_odd', source: { ...source, dir: '/u' }, flags });
    const views = toolViews(registry);
    expect(views.map((v) => [v.name, v.broken?.step, v.warnings, v.offeredHeadless])).toEqual([
      ['read_notes', undefined, undefined, true],
      ['script_bad', 'definition', ['w1'], false],
      ['script_odd', 'list', undefined, false],
    ]);
    expect(views[2]?.broken?.reason).toBe('unreadable flags');
  });
});
