// render=true in the desktop app: the offscreen window renders, every request it makes is fetched here, and every
// other connection (WebSocket, WebRTC over TCP) goes through a guarded proxy: the same address guard as HTTP.
import type { ToolContext } from '../../sdk/types';
import type { AddressGuard } from '../../sdk/web/address-guard';
import { GuardedClient } from './guarded-client';
import { socketBlockReason, startGuardedProxy } from './guarded-proxy';
import type { RenderFormat } from './page-render';
import { fetchResource, pageBudget } from './page-render';
import type { PageRendererPort } from '../../sdk/web/page-renderer-port';

/** Renders `url` with the app's renderer; returns the bytes to save. */
export async function renderInApp(
  renderer: PageRendererPort,
  url: URL,
  format: RenderFormat,
  guard: AddressGuard,
  ctx: Pick<ToolContext, 'signal' | 'progress'>,
): Promise<Buffer> {
  ctx.progress({ message: `rendering ${url.href} in an offscreen window` });
  const client = new GuardedClient(guard);
  const proxy = await startGuardedProxy(guard);
  const budget = pageBudget();
  try {
    const bytes = await renderer.render({
      url: url.href,
      format,
      signal: ctx.signal,
      proxy: proxy.url,
      checkSocket: (socketUrl) => socketBlockReason(guard, socketUrl),
      fetch: async (request) => {
        const fetched = await fetchResource(
          client,
          {
            method: request.method,
            url: new URL(request.url),
            headers: request.headers,
            ...(request.body ? { body: Buffer.from(request.body) } : {}),
            signal: ctx.signal,
          },
          budget,
        );
        return { status: fetched.status, headers: fetched.headers, body: fetched.body };
      },
    });
    return Buffer.from(bytes);
  } finally {
    await proxy.close();
    await client.close();
  }
}
