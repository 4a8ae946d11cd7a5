// Browser mode's bridge: the contract's Api and DialogApi over the page's WebSocket to `agenvoy web`.
// It imports only the contract and uses only the DOM. It reconnects by itself and reports it on `connection`;
// a secret answer is sent on its own message, at once, never queued, and no reference to it is kept. The page never
// sends its token, and trusts a socket only once the host proved it holds it (web-handshake.ts).
import type {
  AgenvoyGlobals,
  Api,
  ApiError,
  DialogApi,
  DialogEvent,
  DialogRequest,
  EventChannel,
  EventPayload,
  InvokeChannel,
  InvokeRequest,
  InvokeResult,
  Result,
  Unsubscribe,
} from './contract';
import { hostProof, newNonce, pageKey } from './web-handshake';
import type { ClientMessage, HostClosingCode, MaxFrameBytes, ServerMessage } from './web-protocol';

/** The part of a WebSocket the bridge uses (the DOM's, or `ws` in Node tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: (event: { code?: number }) => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** How the bridge connects. */
export interface WebBridgeOptions {
  /** ws://127.0.0.1:PORT/ws */
  url: string;
  /**
   * The page's token. It is never sent: the socket is opened with a key derived from it, and the host must prove it
   * holds it before the page shows or sends anything (web-handshake.ts). Without one (scripted sockets in tests, a URL
   * that carries its own credentials) nothing is checked.
   */
  token?: string;
  /** Opens a socket; the DOM's WebSocket by default. */
  createSocket?: (url: string) => SocketLike;
  /** Delays between reconnect attempts (the last repeats). */
  retryDelaysMs?: number[];
}

/** A connected bridge: both surfaces, and how to close it. */
export interface WebBridge {
  api: Api;
  dialogs: DialogApi;
  /** Closes the socket for good (no reconnect). */
  close(): void;
}

type Envelope = ClientMessage extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

const OPEN = 1;
const HOST_CLOSING: HostClosingCode = 4000;
const MAX_FRAME: MaxFrameBytes = 33_554_432;
const DEFAULT_RETRY_MS = [250, 500, 1000, 2000, 4000];
const IMPOSTOR =
  'the program now on this port is not the app that served this page; start Agenvoy again and open the URL it prints';

/** Connects to browser mode's host and returns the Api and DialogApi over one socket. */
export function connectWebBridge(options: WebBridgeOptions): WebBridge {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url) as SocketLike);
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_MS;
  const waiting = new Map<number, (result: Result<unknown>) => void>();
  const eventListeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const dialogListeners = new Set<(event: DialogEvent) => void>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: SocketLike | null = null;
  let closed = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const emitLocal = <E extends EventChannel>(channel: E, payload: EventPayload<E>) => {
    for (const listener of [...(eventListeners.get(channel) ?? [])]) safely(() => listener(payload as never));
  };
  const failWaiting = (error: ApiError) => {
    for (const [id, resolve] of [...waiting]) {
      waiting.delete(id);
      resolve({ ok: false, error });
    }
  };
  // Whether the current socket may carry requests: open and, with a token, its host proven (web-handshake.ts).
  let live = false;
  const connect = () => {
    const token = options.token;
    if (token === undefined) return void open(options.url, null);
    const nonce = newNonce();
    void pageKey(token).then((key) => {
      if (!closed) open(`${options.url}?key=${encodeURIComponent(key)}&nonce=${nonce}`, { token, nonce });
    });
  };
  const open = (url: string, check: { token: string; nonce: string } | null) => {
    const current = createSocket(url);
    socket = current;
    live = false;
    // Frames that came while the host's proof was being checked; null once it passed (or with nothing to check).
    let held: unknown[] | null = check ? [] : null;
    let opened = false;
    const ready = () => {
      if (socket !== current) return;
      attempt = 0;
      live = true;
      for (const text of queue.splice(0)) current.send(text);
      emitLocal('connection', { state: 'connected' });
    };
    // Not the host that served this page: it is shown nothing and sent nothing, and the page stops knocking.
    const impostor = () => {
      if (socket !== current) return;
      socket = null;
      closed = true;
      queue.length = 0;
      current.close(1008, 'no proof of the token');
      failWaiting({ code: 'disconnected', message: 'the connection to the app was lost' });
      emitLocal('connection', { state: 'closed', reason: IMPOSTOR });
    };
    current.addEventListener('open', () => {
      opened = true;
      if (held === null) ready();
    });
    current.addEventListener('message', (event) => {
      if (held === null) return receive(event.data);
      if (!check || !opened) return impostor();
      if (held.length > 0) return void held.push(event.data);
      held.push(event.data);
      const proof = helloProof(event.data);
      if (proof === null) return impostor();
      void hostProof(check.token, check.nonce).then((expected) => {
        if (expected !== proof) return impostor();
        const later = (held ?? []).slice(1);
        held = null;
        ready();
        for (const data of later) receive(data);
      }, impostor);
    });
    current.addEventListener('error', () => {});
    current.addEventListener('close', (event) => {
      if (socket !== current) return;
      socket = null;
      live = false;
      failWaiting({ code: 'disconnected', message: 'the connection to the app was lost' });
      if (closed || event.code === HOST_CLOSING) {
        closed = true;
        queue.length = 0;
        emitLocal('connection', {
          state: 'closed',
          reason: event.code === HOST_CLOSING ? 'the app was stopped' : 'closed',
        });
        return;
      }
      attempt++;
      emitLocal('connection', { state: 'reconnecting', attempt });
      timer = setTimeout(connect, delays[Math.min(attempt - 1, delays.length - 1)] ?? 1000);
    });
  };
  const receive = (data: unknown) => {
    let message: ServerMessage;
    try {
      message = JSON.parse(String(data)) as ServerMessage;
    } catch {
      return;
    }
    switch (message.type) {
      case 'reply': {
        const resolve = waiting.get(message.id);
        waiting.delete(message.id);
        resolve?.(message.result);
        return;
      }
      case 'event':
        emitLocal(message.channel, message.payload as never);
        return;
      case 'dialog':
        for (const listener of [...dialogListeners]) safely(() => listener(message.event));
        return;
      case 'hello':
        // Only ever the first frame, read by open().
        return;
    }
  };
  const request = <T>(
    envelope: Envelope,
    options: { queue: boolean } = { queue: true },
  ): Promise<Result<T>> => {
    if (closed) return Promise.resolve(disconnected());
    const id = nextId++;
    const text = JSON.stringify({ ...envelope, id });
    // Main closes a socket that sends a frame past its limit: such a request is refused here, in words, unsent.
    const bytes = text.length * 3 > MAX_FRAME ? new TextEncoder().encode(text).length : 0;
    if (bytes > MAX_FRAME) return Promise.resolve(tooLarge(bytes));
    const sendable = live && socket !== null && socket.readyState === OPEN;
    if (!sendable && !options.queue) return Promise.resolve(disconnected());
    return new Promise<Result<T>>((resolve) => {
      waiting.set(id, resolve as (result: Result<unknown>) => void);
      if (sendable) (socket as SocketLike).send(text);
      else queue.push(text);
    });
  };

  const api = {
    invoke<C extends InvokeChannel>(channel: C, body: InvokeRequest<C>): Promise<Result<InvokeResult<C>>> {
      return request<InvokeResult<C>>({ type: 'invoke', channel, request: body });
    },
    on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): Unsubscribe {
      const set = eventListeners.get(channel) ?? new Set();
      eventListeners.set(channel, set);
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
  } satisfies Api;

  const dialogs = {
    pending: () => request<DialogRequest[]>({ type: 'dialog.pending' }),
    onEvent(listener: (event: DialogEvent) => void): Unsubscribe {
      dialogListeners.add(listener);
      return () => void dialogListeners.delete(listener);
    },
    answerApproval: ({ id, index, choice }) =>
      request<{ pending: number[] }>({ type: 'dialog.approval', dialogId: id, index, choice }),
    // Sent now or not at all: a secret never waits in a queue for a reconnect.
    answerSecret: ({ id, answer }) =>
      request<{ accepted: true }>({ type: 'dialog.secret', dialogId: id, answer }, { queue: false }),
    answerQuestion: ({ id, answer }) =>
      request<{ accepted: true }>({ type: 'dialog.question', dialogId: id, answer }),
    answerTrust: ({ id, answer }) =>
      request<{ accepted: true }>({ type: 'dialog.trust', dialogId: id, answer }),
  } satisfies DialogApi;

  connect();
  return {
    api,
    dialogs,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      queue.length = 0;
      socket?.close(1000, 'closed by the page');
    },
  };
}

/** The WebSocket URL for a page at `location`, and the page's token (which is never sent: web-handshake.ts). */
export function socketUrl(location: { protocol: string; host: string; search: string }): {
  url: string;
  token: string;
} {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return { url: `${scheme}//${location.host}/ws`, token };
}

/** Installs `agenvoy` and `agenvoyDialog` on a browser-mode page, connected to the host that served it. */
export function installWebBridge(target: AgenvoyGlobals & { location: Location }): WebBridge {
  const bridge = connectWebBridge(socketUrl(target.location));
  target.agenvoy = bridge.api;
  target.agenvoyDialog = bridge.dialogs;
  return bridge;
}

/** The proof in a host's first frame, or null when that frame is no hello. */
function helloProof(data: unknown): string | null {
  try {
    const message = JSON.parse(String(data)) as Partial<Extract<ServerMessage, { type: 'hello' }>>;
    return message.type === 'hello' && typeof message.proof === 'string' ? message.proof : null;
  } catch {
    return null;
  }
}

function disconnected<T>(): Result<T> {
  return { ok: false, error: { code: 'disconnected', message: 'not connected to the app' } };
}

function tooLarge<T>(bytes: number): Result<T> {
  const mb = (n: number) => `${Number((n / 1048576).toFixed(1))} MB`;
  const message = `the request is ${mb(bytes)}, more than the ${mb(MAX_FRAME)} the app takes at once; nothing was sent`;
  return { ok: false, error: { code: 'invalid_request', message } };
}

function safely(run: () => void): void {
  try {
    run();
  } catch (error) {
    console.error('listener failed:', error);
  }
}
