// Serves app://renderer/* from the renderer build in a session, with the strict CSP on every response.
import fs from 'node:fs';
import type { Session } from 'electron';
import { resolveStatic } from '../host/static-files';
import { APP_SCHEME, appRequestPath, appResponseHeaders } from './app-protocol';

/** Registers the app:// handler on `session`; returns the undo. */
export function serveAppProtocol(session: Session, rendererDir: string): () => void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET') return new Response('method not allowed', { status: 405 });
    const urlPath = appRequestPath(request.url);
    const found = urlPath === null ? null : resolveStatic(rendererDir, urlPath);
    if (!found) return new Response('not found', { status: 404 });
    const body = await fs.promises.readFile(found.file);
    return new Response(body, { status: 200, headers: appResponseHeaders(found.type) });
  });
  return () => session.protocol.unhandle(APP_SCHEME);
}
