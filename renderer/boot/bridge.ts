// The page's surfaces into main (window.agenvoy and window.agenvoyDialog), held in one place so tests can swap them.
import type {
  AgenvoyGlobals,
  Api,
  DialogApi,
  InvokeChannel,
  InvokeRequest,
  InvokeResult,
  Result,
} from '../../preload/contract';

let chatApi: Api | null = null;
let dialogApi: DialogApi | null = null;

/** Uses these surfaces from now on (the page's globals at start-up; fakes in tests). */
export function setBridge(surfaces: AgenvoyGlobals): void {
  chatApi = surfaces.agenvoy ?? null;
  dialogApi = surfaces.agenvoyDialog ?? null;
}

/** The chat window's Api, or null in a dialog-only page. */
export function getApi(): Api | null {
  return chatApi;
}

/** The dialog surface, or null in Electron's chat window (there dialogs are windows of their own). */
export function getDialogApi(): DialogApi | null {
  return dialogApi;
}

/** Calls a channel; a page without the chat Api gets an `unavailable` error as data. */
export function invoke<C extends InvokeChannel>(
  channel: C,
  request: InvokeRequest<C>,
): Promise<Result<InvokeResult<C>>> {
  if (!chatApi)
    return Promise.resolve({
      ok: false,
      error: { code: 'unavailable', message: 'this page has no connection to the app' },
    });
  return chatApi.invoke(channel, request).catch((error: unknown): Result<InvokeResult<C>> => ({
    ok: false,
    error: { code: 'internal', message: String((error as Error)?.message ?? error) },
  }));
}
