// download_file render=true in the desktop app: an offscreen, sandboxed window in its own in-memory session,
// whose every http(s) request is answered by the tool's guarded fetch (so private addresses stay blocked).
import { randomUUID } from 'node:crypto';
import { BrowserWindow, session } from 'electron';
import type { PageRendererPort } from '../../tools/web/page-renderer-port';

/** How long the page gets after load for late script requests, before it is captured. */
const SETTLE_MS = 1500;

/** The PageRendererPort of the Electron host. */
export function offscreenRenderer(): PageRendererPort {
  return {
    async render({ url, format, fetch, signal }) {
      signal.throwIfAborted();
      const ses = session.fromPartition(`render-${randomUUID()}`, { cache: false });
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
      ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
      const win = new BrowserWindow({
        show: false,
        width: 1280,
        height: 900,
        webPreferences: {
          offscreen: true,
          session: ses,
          sandbox: true,
          contextIsolation: true,
          nodeIntegration: false,
        },
      });
      win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
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
            return Buffer.from(
              String(await win.webContents.executeJavaScript('document.documentElement.outerHTML')),
            );
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
