// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalChoice } from '../../../preload/contract';
import { approvalItem, approvalRequest } from '../../testing/views';
import { ApprovalDialog } from './approval-dialog';

afterEach(cleanup);

const NAMES = ['Allow once', 'Allow for this chat', 'Always allow', 'Always deny', 'Deny', 'Stop turn'];

// An item can be allowed once it has been on screen a moment (approval-timing-attack.test.tsx).
const armed = () =>
  waitFor(
    () =>
      expect(screen.getByRole('button', { name: 'Allow once' }).getAttribute('aria-disabled')).toBe('false'),
    { timeout: 3000 },
  );

async function decide(name: string, setup?: () => void, item = approvalItem()): Promise<ApprovalChoice> {
  const onAnswer = vi.fn(async () => null);
  render(<ApprovalDialog request={approvalRequest([item])} onAnswer={onAnswer} overlay />);
  await armed();
  setup?.();
  fireEvent.click(screen.getByRole('button', { name }));
  await waitFor(() => expect(onAnswer).toHaveBeenCalled());
  const [index, choice] = onAnswer.mock.calls[0] as unknown as [number, ApprovalChoice];
  expect(index).toBe(item.index);
  cleanup();
  return choice;
}

describe('ApprovalDialog', () => {
  it('is a dialog with the full arguments and all six decisions', () => {
    render(
      <ApprovalDialog request={approvalRequest([approvalItem()])} onAnswer={async () => null} overlay />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Approve run_command?' });
    expect(dialog.querySelector('pre')?.textContent).toContain('"command": "git push origin main"');
    for (const name of NAMES) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect(dialog.textContent).toContain('30 min 00 s');
  });

  it('names what "allow for this chat" covers: the site, the program and the sites it names, or the tool', async () => {
    const site = approvalItem({
      tool: 'fetch_page',
      grant: { kind: 'site', site: 'https://docs.python.org' },
    });
    expect(await decide('Allow https://docs.python.org for this chat', undefined, site)).toEqual({
      kind: 'allow_chat',
    });
    cleanup();
    const program = approvalItem({ grant: { kind: 'program', program: 'npm', sites: [] } });
    expect(await decide('Allow npm for this chat', undefined, program)).toEqual({ kind: 'allow_chat' });
    cleanup();
    const curl = approvalItem({ grant: { kind: 'program', program: 'curl', sites: ['https://api.x.test'] } });
    expect(await decide('Allow curl to https://api.x.test for this chat', undefined, curl)).toEqual({
      kind: 'allow_chat',
    });
  });

  it('sends each decision of docs/security.md', async () => {
    expect(await decide('Allow once')).toEqual({ kind: 'allow_once' });
    expect(await decide('Allow for this chat')).toEqual({ kind: 'allow_chat' });
    expect(await decide('Always allow')).toEqual({ kind: 'allow_always' });
    expect(await decide('Always deny')).toEqual({ kind: 'deny_always' });
    expect(await decide('Deny')).toEqual({ kind: 'deny' });
    expect(await decide('Stop turn')).toEqual({ kind: 'stop' });
  });

  it('sends the deny reason to the model, and an edited or emptied rule pattern', async () => {
    const reason = () =>
      fireEvent.change(screen.getByLabelText('Reason for denying (sent to the model)'), {
        target: { value: ' use a branch ' },
      });
    const pattern = (value: string) => () =>
      fireEvent.change(screen.getByLabelText('Pattern an “always” rule saves (empty: match anything)'), {
        target: { value },
      });
    expect(await decide('Deny', reason)).toEqual({ kind: 'deny', reason: 'use a branch' });
    expect(await decide('Always allow', pattern('git push origin *'))).toEqual({
      kind: 'allow_always',
      pattern: 'git push origin *',
    });
    expect(await decide('Always deny', pattern(''))).toEqual({ kind: 'deny_always', pattern: null });
  });

  it('offers no standing approval where main says none applies, and says why', () => {
    render(
      <ApprovalDialog
        request={approvalRequest([
          approvalItem({ sensitive: 'reads ~/.ssh', offers: { chat: false, always: false } }),
        ])}
        onAnswer={async () => null}
        overlay
      />,
    );
    expect(screen.getByRole('button', { name: 'Allow for this chat' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Always allow' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('dialog').textContent).toContain('Sensitive: reads ~/.ssh');
  });

  it('shows a chained command no chat grant or rule button, and says only this call can be allowed', () => {
    render(
      <ApprovalDialog
        request={approvalRequest([
          approvalItem({
            args: '{\n  "command": "npm test && npm run build"\n}',
            canonical: 'npm test && npm run build',
            compound: '&&',
            offers: { chat: false, always: false },
          }),
        ])}
        onAnswer={async () => null}
        overlay
      />,
    );
    expect(screen.queryByRole('button', { name: 'Allow for this chat' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Always allow' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Allow once' })).toHaveProperty('disabled', false);
    expect(screen.getByRole('dialog').textContent).toContain(
      'The command chains with “&&”: no chat grant or allow rule can cover it, so it can only be allowed once.',
    );
  });

  it('names the rules a changed definition voided, as voided', () => {
    render(
      <ApprovalDialog
        request={approvalRequest([approvalItem({ voidedRules: ['rule-1a2b3c4d'] })])}
        onAnswer={async () => null}
        overlay
      />,
    );
    expect(screen.getByRole('dialog').textContent).toContain(
      'Voided rule rule-1a2b3c4d: the tool’s definition changed since it approved it, so it no longer applies.',
    );
    cleanup();
    render(
      <ApprovalDialog
        request={approvalRequest([approvalItem({ voidedRules: ['rule-a', 'rule-b'] })])}
        onAnswer={async () => null}
        overlay
      />,
    );
    expect(screen.getByRole('dialog').textContent).toContain('Voided rules rule-a, rule-b: ');
  });

  it('says a command runs in the OS sandbox', () => {
    render(
      <ApprovalDialog request={approvalRequest([approvalItem()])} onAnswer={async () => null} overlay />,
    );
    const note = screen.getByRole('note', { name: 'How it runs' });
    expect(note.textContent).toContain('Runs in the OS sandbox');
    expect(note.textContent).toContain('writes only in the workspace');
    expect(note.textContent).toContain('secret locations');
    expect(note.textContent).not.toContain('UNCONFINED');
    // The dialog itself takes the focus, not Allow once: keys typed on into it allow nothing
    // (e2e/approval-typing-attack.spec.ts).
    expect(screen.getByRole('dialog')).toBe(document.activeElement);
  });

  it('warns in words that sandbox: false runs unconfined, and offers only a decision for this call', async () => {
    const item = approvalItem({
      args: '{\n  "command": "git push origin main",\n  "sandbox": false\n}',
      sandbox: 'unconfined_requested',
      personOnly: 'asks to run outside the OS sandbox (sandbox: false)',
      offers: { chat: false, always: false },
    });
    render(<ApprovalDialog request={approvalRequest([item])} onAnswer={async () => null} overlay />);
    const note = screen.getByRole('note', { name: 'How it runs' });
    expect(note.textContent).toContain('Runs UNCONFINED');
    expect(note.textContent).toContain('with your full access to files and the network');
    expect(note.textContent).toContain('the model asked for sandbox: false');
    expect(screen.getByRole('note', { name: 'Only this call' }).textContent).toContain(
      'because it asks to run outside the OS sandbox (sandbox: false)',
    );
    expect(screen.queryByRole('button', { name: 'Allow for this chat' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Always allow' })).toBeNull();
    // Enter on an opened dialog denies rather than runs it unconfined.
    expect(screen.getByRole('button', { name: 'Deny' })).toBe(document.activeElement);
    cleanup();
    expect(await decide('Allow once', undefined, item)).toEqual({ kind: 'allow_once' });
    expect(await decide('Always deny', undefined, item)).toEqual({ kind: 'deny_always' });
  });

  it('says when no OS sandbox exists here and no standing approval applies', () => {
    const item = approvalItem({
      sandbox: 'unconfined_unavailable',
      noStanding: 'no OS sandbox can start here, so commands run unconfined and no rule or grant covers them',
      offers: { chat: false, always: false },
    });
    render(<ApprovalDialog request={approvalRequest([item])} onAnswer={async () => null} overlay />);
    expect(screen.getByRole('note', { name: 'How it runs' }).textContent).toContain(
      'No OS sandbox on this machine: runs unconfined',
    );
    expect(screen.getByRole('note', { name: 'No standing approval' }).textContent).toContain(
      'No standing approval applies: no OS sandbox can start here',
    );
    expect(screen.getByRole('button', { name: 'Allow for this chat' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Always allow' })).toHaveProperty('disabled', true);
  });

  it('shows nothing about a sandbox for a call that starts no process', () => {
    render(
      <ApprovalDialog
        request={approvalRequest([approvalItem({ tool: 'write_file', sandbox: 'none' })])}
        onAnswer={async () => null}
        overlay
      />,
    );
    expect(screen.queryByRole('note', { name: 'How it runs' })).toBeNull();
    expect(screen.getByRole('dialog').textContent).not.toMatch(/sandbox|unconfined/i);
  });

  it('names an untrusted workspace tool, its folder and the folders a global tool also writes', () => {
    const untrusted = approvalItem({
      tool: 'script_build',
      source: {
        kind: 'script',
        dir: '/repo/.config/agenvoy/tools/script/build',
        scope: 'workspace',
        trusted: false,
        writable: [],
      },
      personOnly:
        'comes from a workspace folder you have not trusted (/repo/.config/agenvoy/tools/script/build)',
      offers: { chat: false, always: false },
    });
    const view = render(
      <ApprovalDialog request={approvalRequest([untrusted])} onAnswer={async () => null} overlay />,
    );
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('script (workspace, untrusted)');
    expect(dialog.textContent).toContain('/repo/.config/agenvoy/tools/script/build');
    expect(screen.getByRole('note', { name: 'Only this call' }).textContent).toContain(
      'comes from a workspace folder you have not trusted',
    );
    expect(screen.queryByRole('button', { name: 'Always allow' })).toBeNull();
    view.unmount();

    const global = approvalItem({
      tool: 'script_export',
      source: {
        kind: 'script',
        dir: '/home/u/.agenvoy/tools/script/export',
        scope: 'global',
        trusted: true,
        writable: ['/home/u/exports'],
      },
    });
    render(<ApprovalDialog request={approvalRequest([global])} onAnswer={async () => null} overlay />);
    expect(screen.getByRole('dialog').textContent).toContain('script (global)');
    expect(screen.getByRole('list', { name: 'Folders it may also write' }).textContent).toBe(
      '/home/u/exports',
    );
  });

  it('marks the unconfined calls of a batch in words', () => {
    render(
      <ApprovalDialog
        request={approvalRequest([
          approvalItem({ index: 0 }),
          approvalItem({ index: 1, callId: 'c2', sandbox: 'unconfined_requested', personOnly: 'x' }),
        ])}
        onAnswer={async () => null}
        overlay
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items[0]?.textContent).not.toContain('unconfined');
    expect(items[1]?.textContent).toContain('unconfined');
  });

  it('decides a batch item by item', async () => {
    const request = approvalRequest([
      approvalItem({ index: 0, tool: 'run_command' }),
      approvalItem({ index: 1, tool: 'write_file', callId: 'c2', args: '{"path":"a.txt"}' }),
    ]);
    const onAnswer = vi.fn(async () => null);
    const view = render(<ApprovalDialog request={request} onAnswer={onAnswer} overlay />);
    expect(screen.getByRole('dialog', { name: 'Approve 2 tool calls' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '2. write_file' }));
    expect(screen.getByRole('dialog').querySelector('pre')?.textContent).toContain('a.txt');
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(1, { kind: 'deny' }));
    // Main answers with what is still pending: the dialog moves on to item 1.
    view.rerender(<ApprovalDialog request={{ ...request, pending: [0] }} onAnswer={onAnswer} overlay />);
    expect(screen.getByRole('dialog').querySelector('pre')?.textContent).toContain('git push');
    await armed();
    fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    await waitFor(() => expect(onAnswer).toHaveBeenLastCalledWith(0, { kind: 'allow_once' }));
  });

  it('shows main refusing an answer', async () => {
    render(
      <ApprovalDialog
        request={approvalRequest([approvalItem()])}
        onAnswer={async () => 'already answered'}
        overlay
      />,
    );
    await armed();
    fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    expect((await screen.findByRole('alert')).textContent).toBe('already answered');
  });
});
