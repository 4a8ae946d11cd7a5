// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerItem, ToolView } from '../../../preload/contract';
import { initialAppState, useAppStore } from '../../store/app-store';
import { setBridge } from '../../boot/bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { ToolsPanel } from './tools-panel';

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(cleanup);

function tool(patch: Partial<ToolView>): ToolView {
  return {
    name: 'run_command',
    source: 'builtin',
    origin: null,
    description: 'Run a command',
    flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
    timeoutMs: 1_800_000,
    lint: [],
    offeredHeadless: true,
    ...patch,
  };
}

describe('ToolsPanel', () => {
  it('marks untrusted workspace tools in words and lists the folders a script tool also writes', async () => {
    setBridge({
      agenvoy: fakeApi({
        'tools.list': () => [
          tool({}),
          tool({
            name: 'script_export',
            source: 'script',
            origin: '/h/tools/script/export',
            trusted: true,
            writable: ['/h/exports', '/h/cache'],
          }),
          tool({
            name: 'script_build',
            source: 'script',
            origin: '/repo/.config/agenvoy/tools/script/build',
            trusted: false,
            writable: [],
          }),
        ],
        'mcp.list': () => ({ servers: [], problems: [] }),
        'trust.status': () => ({
          workspace: '/repo',
          folder: '/repo',
          trusted: false,
          tools: ['script_build'],
          untrustedTools: ['script_build'],
          changedTools: [],
          trustedAt: null,
          retrust: null,
          problem: null,
        }),
      }),
    });
    await useAppStore.getState().loadWorkspaceTrust();
    render(<ToolsPanel />);
    const build = (await screen.findByText('script_build')).closest('tr') as HTMLElement;
    expect(build.textContent).toContain('untrusted workspace tool: asks every call, gets no secrets');
    const exporter = screen.getByText('script_export').closest('tr') as HTMLElement;
    expect(exporter.textContent).not.toContain('untrusted');
    const writable = screen.getByRole('list', { name: 'Folders script_export may also write' });
    expect([...writable.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      '/h/exports',
      '/h/cache',
    ]);
    expect((screen.getByText('run_command').closest('tr') as HTMLElement).textContent).not.toContain(
      'also writes',
    );
    expect(screen.getByRole('region', { name: 'Untrusted workspace tools' })).toBeTruthy();
  });

  it('shows a broken tool in words, with its step and reason, and the warnings of a tool', async () => {
    setBridge({
      agenvoy: fakeApi({
        'tools.list': () => [
          tool({}),
          tool({
            name: 'script_deep_tree',
            source: 'script',
            origin: '/repo/.config/agenvoy/tools/script/deep',
            offeredHeadless: false,
            broken: { step: 'limits', reason: 'parameter schema is nested deeper than 64 levels' },
          }),
          tool({
            name: 'script_list_events',
            source: 'script',
            warnings: [
              'tool.json: unknown key "background" is ignored (script tools always run in the foreground)',
            ],
          }),
        ],
        'mcp.list': () => ({ servers: [], problems: [] }),
      }),
    });
    render(<ToolsPanel />);
    const deep = (await screen.findByText('script_deep_tree')).closest('tr') as HTMLElement;
    const badge = screen.getByRole('status', { name: 'script_deep_tree is broken' });
    expect(badge.textContent).toContain(
      'broken at the limits step: parameter schema is nested deeper than 64 levels',
    );
    expect(badge.textContent).toContain('never offered to the model');
    // A broken tool is not also labelled "not offered headless": the broken badge says it all.
    expect(deep.textContent).not.toContain('not offered headless');
    const warnings = screen.getByRole('list', { name: 'Warnings about script_list_events' });
    expect(warnings.textContent).toContain('unknown key "background" is ignored');
    expect(screen.getByRole('heading', { name: /Tools/ }).textContent).toContain('3 registered · 1 broken');
    expect((screen.getByText('run_command').closest('tr') as HTMLElement).textContent).not.toContain(
      'broken',
    );
  });

  it('a server whose trusted tools changed offers a review; main asks, and keeping them asking is no error', async () => {
    const server = (changed: string[]): McpServerItem => ({
      name: 'files',
      endpoint: 'stdio',
      state: { status: 'ready', transport: 'stdio', since: 0, tools: 2 },
      tools: ['mcp__files__read', 'mcp__files__list'],
      warnings: [],
      changed,
    });
    let answer: 'declined' | 'accepted' = 'declined';
    const api = fakeApi({
      'tools.list': () => [],
      'mcp.list': () => ({ servers: [server(['read'])], problems: [] }),
      'mcp.accept': () =>
        answer === 'declined'
          ? { ok: false, error: { code: 'declined', message: 'the person kept asking' } }
          : server([]),
    });
    setBridge({ agenvoy: api });
    render(<ToolsPanel />);
    const status = await screen.findByText(/1 trusted tool changed since you trusted it/);
    fireEvent.click(screen.getByRole('button', { name: 'Review changes…' }));
    await expect.poll(() => api.calls.filter((c) => c.channel === 'mcp.accept').length).toBe(1);
    expect(api.calls.find((c) => c.channel === 'mcp.accept')?.request).toEqual({ name: 'files' });
    // Declined in main's dialog: still offered, and no error notice.
    await expect.poll(() => useAppStore.getState().reviewing).toEqual([]);
    expect(useAppStore.getState().notices).toEqual([]);
    expect(status.isConnected).toBe(true);
    answer = 'accepted';
    fireEvent.click(screen.getByRole('button', { name: 'Review changes…' }));
    await expect.poll(() => screen.queryByText(/trusted tool changed/)).toBeNull();
  });
});
