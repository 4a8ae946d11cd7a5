// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentInput } from '../../../preload/contract';
import { setBridge } from '../../boot/bridge';
import { initialAppState, useAppStore } from '../../store/app-store';
import type { FakeApi } from '../../testing/fake-bridge';
import { fakeApi } from '../../testing/fake-bridge';
import { userMessage } from '../../testing/views';
import { emptyChat } from './chat-state';
import { Composer } from './composer';
import { MessageRow } from './message-row';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let api: FakeApi;
let answer: { ok: false; error: { code: 'attachment_refused'; message: string } } | null;

beforeEach(() => {
  useAppStore.setState(initialAppState, true);
  useAppStore.setState({ chat: { ...emptyChat, chatId: 'c1' } });
  answer = null;
  api = fakeApi({ 'turn.send': () => answer ?? { started: true } });
  setBridge({ agenvoy: api });
});
afterEach(cleanup);

const form = () => screen.getByRole('button', { name: 'Send' }).closest('form') as HTMLFormElement;
const drop = async (files: File[]) => {
  const dataTransfer = { files, types: ['Files'] };
  fireEvent.dragOver(form(), { dataTransfer });
  fireEvent.drop(form(), { dataTransfer });
};
// Files are read asynchronously (FileReader): wait for their chips rather than a fixed time, which a loaded machine
// outlasts.
const chips = async (count: number): Promise<HTMLElement[]> => {
  await waitFor(
    () =>
      expect(screen.queryByRole('list', { name: 'Attached files' })?.querySelectorAll('li')).toHaveLength(
        count,
      ),
    { timeout: 5000 },
  );
  return within(screen.getByRole('list', { name: 'Attached files' })).getAllByRole('listitem');
};
const sent = () =>
  api.calls.filter((call) => call.channel === 'turn.send').map((call) => call.request) as Array<{
    text: string;
    attachments?: AttachmentInput[];
  }>;

describe('Composer attachments', () => {
  it('takes dropped files as removable chips with name, size and a thumbnail, and sends them as base64', async () => {
    render(<Composer />);
    await drop([
      new File([PNG], 'shot.png', { type: 'image/png' }),
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      new File(['x'], 'gone.txt', { type: 'text/plain' }),
    ]);
    const shown = await chips(3);
    expect(shown.map((chip) => chip.textContent)).toEqual([
      'shot.png11 bytes×',
      'notes.txt5 bytes×',
      'gone.txt1 byte×',
    ]);
    expect(shown[0]?.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    fireEvent.click(screen.getByRole('button', { name: 'Remove gone.txt' }));
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'look' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toEqual({
      chatId: 'c1',
      text: 'look',
      attachments: [
        { name: 'shot.png', mimeType: 'image/png', data: btoa(String.fromCharCode(...PNG)) },
        { name: 'notes.txt', mimeType: 'text/plain', data: btoa('hello') },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull());
  });

  it('sends files without text, from the Attach button and from a paste', async () => {
    render(<Composer />);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Files to attach'), {
      target: { files: [new File(['a'], 'picked.md', { type: 'text/markdown' })] },
    });
    fireEvent.paste(screen.getByLabelText('Message'), {
      clipboardData: { files: [new File([PNG], 'image.png', { type: 'image/png' })], types: ['Files'] },
    });
    await chips(2);
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', false);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]?.text).toBe('');
    expect(sent()[0]?.attachments?.map((file) => file.name)).toEqual(['picked.md', 'image.png']);
  });

  it('refuses too big and too many in words before sending', async () => {
    render(<Composer />);
    await drop([
      new File([new Uint8Array(4_000_000)], 'huge.png', { type: 'image/png' }),
      new File([new Uint8Array(11 * 1024 * 1024)], 'disk.img', { type: '' }),
      ...Array.from({ length: 11 }, (_, i) => new File(['x'], `f${i}.txt`, { type: 'text/plain' })),
    ]);
    await chips(10);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('"huge.png" is a 3.81 MB image; an image may be at most 3.75 MB.');
    expect(alert.textContent).toContain('"disk.img" is 11 MB; a file may be at most 10 MB.');
    expect(alert.textContent).toContain('"f10.txt" was not added: one message may carry at most 10 files.');
  });

  it("keeps the text and files when main refuses the send, and says main's words", async () => {
    answer = {
      ok: false,
      error: { code: 'attachment_refused', message: '"a.txt" was refused: its data is not valid base64' },
    };
    render(<Composer />);
    await drop([new File(['a'], 'a.txt', { type: 'text/plain' })]);
    await chips(1);
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'read it' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(useAppStore.getState().notices.map((notice) => notice.message)).toContain(
      'Not sent: "a.txt" was refused: its data is not valid base64',
    );
    expect(screen.getByRole('button', { name: 'Remove a.txt' })).toBeTruthy();
    expect(screen.getByLabelText('Message')).toHaveProperty('value', 'read it');
  });
});

describe('a sent user message', () => {
  it('lists the files it carried, with where each is saved', () => {
    render(
      <MessageRow
        message={userMessage({
          text: 'see attached',
          attachments: [{ name: 'shot.png', mimeType: 'image/png', path: 'attachments/shot.png' }],
        })}
      />,
    );
    const files = screen.getByRole('list', { name: 'Attached files' });
    expect(files.textContent).toBe('📎 shot.png (image/png)');
    expect(within(files).getByRole('listitem').getAttribute('title')).toBe('attachments/shot.png');
  });
});
