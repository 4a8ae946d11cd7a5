// Fakes of the page's surfaces for component tests: an Api answering from handlers and emitting events on demand,
// and a DialogApi that records answers. They stand in for main, which cannot run in jsdom.
import type {
  Api,
  DialogApi,
  DialogEvent,
  DialogRequest,
  EventChannel,
  EventPayload,
  InvokeChannel,
  InvokeRequest,
  InvokeResult,
  Result,
} from '../../preload/contract';

type Handlers = {
  [C in InvokeChannel]?: (
    request: InvokeRequest<C>,
  ) => InvokeResult<C> | Result<InvokeResult<C>> | Promise<InvokeResult<C> | Result<InvokeResult<C>>>;
};

/** A fake chat Api plus what it was asked. */
export interface FakeApi extends Api {
  calls: Array<{ channel: InvokeChannel; request: unknown }>;
  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void;
}

/** An Api whose invokes answer from `handlers` (unknown channels fail with not_found). */
export function fakeApi(handlers: Handlers = {}): FakeApi {
  const listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  const calls: FakeApi['calls'] = [];
  return {
    calls,
    async invoke<C extends InvokeChannel>(
      channel: C,
      request: InvokeRequest<C>,
    ): Promise<Result<InvokeResult<C>>> {
      calls.push({ channel, request });
      const handler = handlers[channel] as
        | ((
            r: InvokeRequest<C>,
          ) => InvokeResult<C> | Result<InvokeResult<C>> | Promise<InvokeResult<C> | Result<InvokeResult<C>>>)
        | undefined;
      if (!handler) return { ok: false, error: { code: 'not_found', message: `no fake for ${channel}` } };
      // A handler may answer later (a test holds the answer back to see what the page does meanwhile).
      const answer = await handler(request);
      return isResult(answer) ? answer : { ok: true, value: answer };
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
    emit(channel, payload) {
      for (const listener of listeners.get(channel) ?? []) listener(payload as never);
    },
  };
}

/** A fake DialogApi plus the answers it received. */
export interface FakeDialogApi extends DialogApi {
  answers: Array<{ kind: string; request: unknown }>;
  open: DialogRequest[];
  emit(event: DialogEvent): void;
}

/** A DialogApi holding `open` dialogs; approval answers settle one item at a time. */
export function fakeDialogApi(open: DialogRequest[] = []): FakeDialogApi {
  const listeners = new Set<(event: DialogEvent) => void>();
  const answers: FakeDialogApi['answers'] = [];
  return {
    answers,
    open,
    async pending() {
      return { ok: true, value: open };
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
    async answerApproval(request) {
      answers.push({ kind: 'approval', request });
      const dialog = open.find((d) => d.id === request.id);
      const pending = dialog?.kind === 'approval' ? dialog.pending.filter((i) => i !== request.index) : [];
      return { ok: true, value: { pending } };
    },
    async answerSecret(request) {
      answers.push({ kind: 'secret', request });
      return { ok: true, value: { accepted: true } };
    },
    async answerQuestion(request) {
      answers.push({ kind: 'question', request });
      return { ok: true, value: { accepted: true } };
    },
    async answerTrust(request) {
      answers.push({ kind: 'trust', request });
      return { ok: true, value: { accepted: true } };
    },
  };
}

function isResult<T>(value: unknown): value is Result<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'ok' in value &&
    (('value' in value && value.ok === true) || ('error' in value && value.ok === false))
  );
}
