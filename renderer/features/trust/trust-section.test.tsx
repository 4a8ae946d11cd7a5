// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TrustedFolderItem, WorkspaceTrustView } from '../../../preload/contract';
import { initialAppState, useAppStore } from '../../store/app-store';
import { setBridge } from '../../boot/bridge';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { TrustNotice } from './trust-notice';
import { TrustSection } from './trust-section';

beforeEach(() => useAppStore.setState(initialAppState, true));
afterEach(cleanup);

const untrusted: WorkspaceTrustView = {
  workspace: '/work/repo',
  folder: '/work/repo',
  trusted: false,
  tools: ['script_build', 'script_deploy'],
  untrustedTools: ['script_build', 'script_deploy'],
  changedTools: [],
  trustedAt: null,
  retrust: null,
  problem: null,
};

// A fake main that keeps the trusted folders, as trust.add and trust.revoke change them.
function trustApi(folders: TrustedFolderItem[] = []): FakeApi {
  const status = (): WorkspaceTrustView => {
    const trusted = folders.some((f) => f.path === untrusted.folder);
    return { ...untrusted, trusted, untrustedTools: trusted ? [] : untrusted.tools };
  };
  const api = fakeApi({
    'trust.list': () => ({ folders: [...folders], problem: null }),
    'trust.status': status,
    'trust.add': ({ folder }) => {
      const item = {
        path: folder,
        trustedAt: '2025-01-01T00:00:00.000Z',
        exists: true,
        tools: untrusted.tools,
      };
      folders.push(item);
      return item;
    },
    'trust.revoke': ({ folder }) => {
      const index = folders.findIndex((f) => f.path === folder);
      return folders.splice(index, 1)[0] as TrustedFolderItem;
    },
    'tools.list': () => [],
  });
  setBridge({ agenvoy: api });
  return api;
}

const channels = (api: FakeApi) => api.calls.map((c) => c.channel);

describe('TrustNotice', () => {
  it('names the untrusted tools and trusts the folder only when the person clicks', async () => {
    const api = trustApi();
    await useAppStore.getState().loadWorkspaceTrust();
    render(<TrustNotice />);
    const notice = screen.getByRole('region', { name: 'Untrusted workspace tools' });
    expect(notice.textContent).toContain('2 tools of its own that you have not trusted');
    expect(notice.textContent).toContain('script_build, script_deploy');
    expect(notice.textContent).toContain('ask on every call and get no secrets');
    expect(channels(api)).not.toContain('trust.add');
    fireEvent.click(within(notice).getByRole('button', { name: 'Trust this folder' }));
    await act(async () => {});
    expect(api.calls.find((c) => c.channel === 'trust.add')?.request).toEqual({ folder: '/work/repo' });
    expect(screen.queryByRole('region', { name: 'Untrusted workspace tools' })).toBeNull();
  });

  it("says so quietly when the person declined in main's dialog", async () => {
    setBridge({
      agenvoy: fakeApi({
        'trust.status': () => untrusted,
        'trust.add': () => ({ ok: false, error: { code: 'declined', message: 'the person declined' } }),
      }),
    });
    await useAppStore.getState().loadWorkspaceTrust();
    render(<TrustNotice />);
    fireEvent.click(screen.getByRole('button', { name: 'Trust this folder' }));
    await act(async () => {});
    expect(useAppStore.getState().notices.map((n) => [n.level, n.message])).toEqual([
      ['info', 'Not trusted.'],
    ]);
    expect(screen.getByRole('region', { name: 'Untrusted workspace tools' })).toBeTruthy();
  });

  it('"Not now" hides it without trusting, until other untrusted tools appear', async () => {
    const api = trustApi();
    await useAppStore.getState().loadWorkspaceTrust();
    render(<TrustNotice />);
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Untrusted workspace tools' })).toBeNull();
    expect(channels(api)).not.toContain('trust.add');
    act(() =>
      useAppStore.setState({
        workspaceTrust: { ...untrusted, untrustedTools: [...untrusted.untrustedTools, 'script_new'] },
      }),
    );
    expect(screen.getByRole('region', { name: 'Untrusted workspace tools' }).textContent).toContain(
      'script_new',
    );
  });

  it('names the tools that are new or changed since the folder was trusted, and offers to trust it again', async () => {
    const api = trustApi();
    const changed: WorkspaceTrustView = {
      ...untrusted,
      trusted: true,
      untrustedTools: ['script_build', 'script_deploy'],
      changedTools: [
        { name: 'script_build', change: 'changed' },
        { name: 'script_deploy', change: 'new' },
      ],
      trustedAt: '2025-01-01T00:00:00.000Z',
    };
    useAppStore.setState({ workspaceTrust: changed });
    render(<TrustNotice />);
    const notice = screen.getByRole('region', { name: 'Untrusted workspace tools' });
    expect(notice.textContent).toContain('2 tools of this workspace are new or changed since you trusted it');
    expect(notice.textContent).toContain('script_build (changed), script_deploy (new)');
    expect(notice.textContent).toContain('Until you trust the folder again they ask on every call');
    fireEvent.click(within(notice).getByRole('button', { name: 'Trust this folder again' }));
    await act(async () => {});
    expect(api.calls.find((c) => c.channel === 'trust.add')?.request).toEqual({ folder: '/work/repo' });
  });

  it('says a folder trusted before tools were recorded must be trusted again', () => {
    useAppStore.setState({
      workspaceTrust: { ...untrusted, retrust: '/work/repo was trusted by an earlier Agenvoy' },
    });
    render(<TrustNotice />);
    const notice = screen.getByRole('region', { name: 'Untrusted workspace tools' });
    expect(notice.textContent).toContain('/work/repo was trusted by an earlier Agenvoy');
    expect(within(notice).getByRole('button', { name: 'Trust this folder again' })).toBeTruthy();
  });

  it('shows nothing for a trusted workspace or one without tools of its own', () => {
    useAppStore.setState({ workspaceTrust: { ...untrusted, trusted: true, untrustedTools: [] } });
    const view = render(<TrustNotice />);
    expect(view.container.textContent).toBe('');
    act(() => useAppStore.setState({ workspaceTrust: { ...untrusted, tools: [], untrustedTools: [] } }));
    expect(view.container.textContent).toBe('');
  });
});

describe('TrustSection', () => {
  it('lists trusted folders with Revoke, and trusts the current workspace on a click', async () => {
    const api = trustApi([
      { path: '/gone/folder', trustedAt: '2024-05-01T10:00:00.000Z', exists: false, tools: ['script_x'] },
      { path: '/old/folder', trustedAt: '2024-05-01T10:00:00.000Z', exists: true, tools: null },
    ]);
    render(<TrustSection />);
    const region = screen.getByRole('region', { name: 'Trusted folders' });
    const gone = await screen.findByRole('listitem', { name: 'Trusted folder /gone/folder' });
    expect(gone.textContent).toContain('gone: trusts nothing');
    expect(gone.textContent).toContain('1 tool trusted');
    expect(screen.getByRole('listitem', { name: 'Trusted folder /old/folder' }).textContent).toContain(
      'trusted before its tools were recorded: trust it again',
    );
    expect(await within(region).findByText('not trusted')).toBeTruthy();
    expect(region.textContent).toContain('2 tools of its own: script_build, script_deploy');

    fireEvent.click(within(region).getByRole('button', { name: 'Trust this folder' }));
    expect(await screen.findByRole('listitem', { name: 'Trusted folder /work/repo' })).toBeTruthy();
    expect(within(region).getByText('trusted')).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Trust this folder' })).toBeNull();

    fireEvent.click(within(gone).getByRole('button', { name: 'Revoke' }));
    await act(async () => {});
    expect(api.calls.find((c) => c.channel === 'trust.revoke')?.request).toEqual({ folder: '/gone/folder' });
    expect(screen.queryByRole('listitem', { name: 'Trusted folder /gone/folder' })).toBeNull();
  });

  it('says when the trust file is damaged', async () => {
    setBridge({
      agenvoy: fakeApi({
        'trust.list': () => ({
          folders: [],
          problem: 'trusted-folders.json is not JSON; nothing is trusted',
        }),
        'trust.status': () => ({ ...untrusted, problem: 'damaged' }),
      }),
    });
    render(<TrustSection />);
    expect((await screen.findByRole('note')).textContent).toContain('nothing is trusted');
    expect(screen.queryByText('No folder is trusted.')).toBeNull();
  });
});
