// download_file render=true in the desktop app: an offscreen, sandboxed window in its own in-memory session,
// whose every http(s) request is answered by the tool's guarded fetch, and whose every other connection
// (WebSocket, WebRTC) is held to the same address guard (render-guards.ts), so private addresses stay blocked.
import { randomUUID } from 'node:crypto';
import { BrowserWindow, session } from 'electron';
import type { PageRendererPort } from '../../tools/sdk/web/page-renderer-port';
import { RENDERED_HTML_SCRIPT, renderedHtmlBytes } from '../../tools/sdk/web/rendered-html';
import { guardRenderContents, guardRenderSession, renderWindowOptions } from './render-guards';

/** How long the page gets after load for late script requests, before it is captured. */
const SETTLE_MS = 1500;

/** The PageRendererPort of the Electron host. */
export function offscreenRenderer(): PageRendererPort {
  return {
    async render({ url, format, fetch, proxy, checkSocket, signal }) {
      signal.throwIfAborted();
      const ses = session.fromPartition(`render-${randomUUID()}`, { cache: false });
      await guardRenderSession(ses, { proxy, checkSocket });
      const answer = async (request: Request): Promise<Response> => {
        const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
        const fetched = await fetch({
          method: request.method,
          url: request.url,
          headers: Object.fromEntries(request.headers),
          ...(body ? { body } : {}),
        });
        return new Response(Buffer.from(fetched.body), { status: fetched.status, headers: fetched.headers });
      };
      ses.protocol.handle('http', answer);
      ses.protocol.handle('https', answer);
      const win = new BrowserWindow(renderWindowOptions(ses));
      guardRenderContents(win.webContents);
      const stop = () => {
        if (!win.isDestroyed()) win.destroy();
      };
      signal.addEventListener('abort', stop, { once: true });
      try {
        await win.loadURL(url);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        signal.throwIfAborted();
        switch (format) {
          case 'png':
            return (await win.webContents.capturePage()).toPNG();
          case 'pdf':
            return await win.webContents.printToPDF({ printBackground: true });
          case 'html':
            // Measured in the page: one larger than the bound never crosses into the app (docs/robustness.md).
            return renderedHtmlBytes(await win.webContents.executeJavaScript(RENDERED_HTML_SCRIPT));
        }
      } finally {
        signal.removeEventListener('abort', stop);
        stop();
        ses.protocol.unhandle('http');
        ses.protocol.unhandle('https');
        await ses.clearStorageData().catch(() => undefined);
      }
    },
  };
}
