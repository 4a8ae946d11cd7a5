// The chat window's preload: exposes exactly the contract's Api as `window.agenvoy`, nothing else. It has no way
// to approve a call or hand over a secret: those dialogs are windows of their own, owned by main.
import { contextBridge, ipcRenderer } from 'electron';
import type {
  Api,
  EventChannel,
  EventPayload,
  InvokeChannel,
  InvokeRequest,
  InvokeResult,
  Result,
} from './contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from './ipc-names';

type Listener = (payload: never) => void;
const listeners = new Map<string, Set<Listener>>();

// One IPC subscription for all events; the page's listeners are kept here, so the page never sees ipcRenderer.
ipcRenderer.on(EVENT_CHANNEL, (_event, channel: unknown, payload: unknown) => {
  if (typeof channel !== 'string') return;
  for (const listener of [...(listeners.get(channel) ?? [])]) {
    try {
      listener(payload as never);
    } catch (error) {
      console.error('listener failed:', error);
    }
  }
});

const api = {
  invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<Result<InvokeResult<C>>> {
    return ipcRenderer.invoke(INVOKE_CHANNEL, String(channel), request) as Promise<Result<InvokeResult<C>>>;
  },
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    const set = listeners.get(channel) ?? new Set<Listener>();
    listeners.set(channel, set);
    set.add(listener as Listener);
    return () => {
      set.delete(listener as Listener);
    };
  },
} satisfies Api;

contextBridge.exposeInMainWorld('agenvoy', api);
