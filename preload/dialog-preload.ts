// A dialog window's preload: exposes the contract's DialogApi as `window.agenvoyDialog`, scoped to this window's
// one dialog and its one-shot channel (handed over by main as a process argument). Nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import type { DialogApi, DialogEvent, DialogRequest, Result } from './contract';
import { DIALOG_ARGUMENT, DIALOG_CHANNEL_PREFIX, DIALOG_EVENT_SUFFIX } from './ipc-names';

const argument = process.argv.find((arg) => arg.startsWith(DIALOG_ARGUMENT));
const channel = argument?.slice(DIALOG_ARGUMENT.length) ?? '';
const listeners = new Set<(event: DialogEvent) => void>();

if (channel.startsWith(DIALOG_CHANNEL_PREFIX)) {
  ipcRenderer.on(channel + DIALOG_EVENT_SUFFIX, (_event, dialogEvent: DialogEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(dialogEvent);
      } catch (error) {
        console.error('listener failed:', error);
      }
    }
  });
}

function call<T>(message: Record<string, unknown>): Promise<Result<T>> {
  if (!channel.startsWith(DIALOG_CHANNEL_PREFIX)) {
    return Promise.resolve({
      ok: false,
      error: { code: 'unavailable', message: 'this window has no dialog' },
    });
  }
  return ipcRenderer.invoke(channel, message) as Promise<Result<T>>;
}

const dialogApi = {
  pending: () => call<DialogRequest[]>({ op: 'pending' }),
  onEvent(listener: (event: DialogEvent) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  answerApproval: ({ index, choice }) => call<{ pending: number[] }>({ op: 'approval', index, choice }),
  answerSecret: ({ answer }) => call<{ accepted: true }>({ op: 'secret', answer }),
  answerQuestion: ({ answer }) => call<{ accepted: true }>({ op: 'question', answer }),
  answerTrust: ({ answer }) => call<{ accepted: true }>({ op: 'trust', answer }),
} satisfies DialogApi;

contextBridge.exposeInMainWorld('agenvoyDialog', dialogApi);
