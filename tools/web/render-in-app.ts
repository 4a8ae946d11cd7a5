// render=true in the desktop app: the offscreen window renders, and every request it makes is fetched here,
// through the same address guard as the system-Chromium path.
import type { ToolContext } from '../types';
import type { AddressGuard } from './address-guard';
import { GuardedClient } from './guarded-client';
import type { RenderFormat } from './page-render';
import { fetchResource } from './page-render';
import type { PageRendererPort } from './page-renderer-port';

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
  try {
    const bytes = await renderer.render({
      url: url.href,
      format,
      signal: ctx.signal,
      fetch: async (request) => {
        const fetched = await fetchResource(client, {
          method: request.method,
          url: new URL(request.url),
          headers: request.headers,
          ...(request.body ? { body: Buffer.from(request.body) } : {}),
          signal: ctx.signal,
        });
        return { status: fetched.status, headers: fetched.headers, body: fetched.body };
      },
    });
    return Buffer.from(bytes);
  } finally {
    await client.close();
  }
}
