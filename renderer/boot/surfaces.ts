// Finds the page's surfaces into main: Electron's preload put them on window; in browser mode the web bridge
// (preload/web-bridge.ts, DOM-only) is loaded on demand to connect over the page's WebSocket.
import type { AgenvoyGlobals } from '../../preload/contract';

/** The globals of this page, after installing the browser-mode bridge when no preload provided any. */
export async function pageSurfaces(): Promise<AgenvoyGlobals> {
  const page = window as unknown as AgenvoyGlobals & Window;
  if (page.agenvoy || page.agenvoyDialog) return { agenvoy: page.agenvoy, agenvoyDialog: page.agenvoyDialog };
  // The only non-type import from preload/: browser mode has no preload, so the page installs the bridge itself.
  // It is a separate chunk that Electron's windows never load.
  const { installWebBridge } = await import('../../preload/web-bridge');
  installWebBridge(page);
  return { agenvoy: page.agenvoy, agenvoyDialog: page.agenvoyDialog };
}

/** Exposes a read-only view of the store for end-to-end tests that check what the page holds. */
export function exposeStoreForTests(getState: () => unknown): void {
  Object.defineProperty(window, '__zustand', { value: Object.freeze({ getState }), configurable: false });
}
