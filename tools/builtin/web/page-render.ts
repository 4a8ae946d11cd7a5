// Renders a page in the system Chromium (playwright-core) and saves it as HTML after scripts ran, a PDF or a PNG.
// Chromium never touches the network itself: every request it makes is answered through the guarded client
// (so the address guard and its pinning hold for every subresource), and anything that slips past the
// interception (a redirect's follow-up, a preconnect, a WebSocket) goes to a dead proxy and fails.
import fs from 'node:fs/promises';
import type { Browser, Route } from 'playwright-core';
import { ToolError } from '../../sdk/types';
import type { AddressGuard } from '../../sdk/web/address-guard';
import type { GuardedResponse } from './guarded-client';
import { GuardedClient } from './guarded-client';
import type { RenderFormat } from '../../sdk/web/page-renderer-port';
import { RENDERED_HTML_SCRIPT, renderedHtmlBytes } from '../../sdk/web/rendered-html';
import { MAX_PDF_PAGES, renderedFileBytes, screenshotClip } from '../../sdk/web/rendered-file';

/** What a rendered page is saved as, by the target's extension. */
export type { RenderFormat } from '../../sdk/web/page-renderer-port';

/** Largest single resource the page may load. */
export const MAX_RESOURCE_BYTES = 50 * 1024 * 1024;

/**
 * Most bytes of one page's resources held together: each is read whole into this process before the page gets it,
 * and Chromium asks for a hundred at a time (render-memory-attack.test.ts).
 */
export const MAX_PAGE_BYTES = 200 * 1024 * 1024;

/** What one page's resources may still take; shared by every resource of one render. */
export interface PageBudget {
  left: number;
}

/** A fresh budget for one render. */
export function pageBudget(): PageBudget {
  return { left: MAX_PAGE_BYTES };
}

// After the DOM is ready: how long to wait for `load` (a resource that never arrives must not hold the page
// hostage), then for script-driven requests to settle. The call's own limit still bounds everything.
const LOAD_WAIT_MS = 60_000;
const SETTLE_MS = 5000;

// The page's full size, as Playwright measures it for a full-page screenshot.
const SCROLL_SIZE_SCRIPT = `(() => {
  const root = document.documentElement, body = document.body || root;
  return [
    Math.max(root.scrollWidth, body.scrollWidth, root.clientWidth),
    Math.max(root.scrollHeight, body.scrollHeight, root.clientHeight),
  ];
})()`;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  // WebRTC's UDP (STUN and TURN servers named by address) goes around any proxy: none at all, and no local
  // addresses in candidates, as in the app's render window (main/electron/render-guards.ts).
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

// Hop-by-hop and framing headers are the client's business, not the page's.
const DROP_REQUEST = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
]);
const DROP_RESPONSE = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'content-encoding',
]);

/** The render format a file name asks for, or null for an unsupported extension. */
export function renderFormatOf(file: string): RenderFormat | null {
  const ext = file.toLowerCase().split('.').pop();
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'pdf' || ext === 'png') return ext;
  return null;
}

/** Renders `url` and returns the bytes to save; stops Chromium when `signal` fires. */
export async function renderPage(options: {
  url: URL;
  format: RenderFormat;
  chromiumPath: string;
  guard: AddressGuard;
  signal: AbortSignal;
  /** Told when what is saved is not the whole page (a screenshot cut to its bound). */
  onCut?: (note: string) => void;
}): Promise<Buffer> {
  const { signal, chromiumPath } = options;
  const usable = await fs.access(chromiumPath, fs.constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!usable) {
    throw new ToolError(
      'browser_unavailable',
      `render=true needs Chromium, and there is none at ${chromiumPath}: install it (e.g. apt-get install chromium) ` +
        'or set web.chromiumPath in settings.json; or call download_file without render to save the page as served',
      { chromiumPath },
    );
  }
  const client = new GuardedClient(options.guard);
  const budget = pageBudget();
  let browser: Browser | undefined;
  let closing: Promise<void> | undefined;
  // One close, shared: a second close() call returns before the first has ended the process.
  const close = () => (closing ??= browser ? browser.close().catch(() => undefined) : Promise.resolve());
  const stop = () => void close();
  signal.addEventListener('abort', stop, { once: true });
  try {
    // The page itself is fetched first, so its redirects are followed (and checked) before Chromium sees it.
    const first = await fetchResource(
      client,
      { method: 'GET', url: options.url, headers: {}, signal },
      budget,
    );
    if (first.status >= 400)
      throw new ToolError('http_error', `HTTP ${first.status} from ${first.url.href}`, {
        status: first.status,
      });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    closing = undefined;
    if (signal.aborted) throw signal.reason;
    const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false });
    context.setDefaultTimeout(0);
    const page = await context.newPage();
    let pending: Fetched | undefined = first;
    await page.route('**/*', async (route) => {
      const cached = pending && route.request().url() === pending.url.href ? pending : undefined;
      pending = undefined;
      await answer(route, client, signal, budget, cached);
    });
    await page.goto(first.url.href, { waitUntil: 'domcontentloaded', timeout: 0 });
    await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => undefined);
    await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
    if (signal.aborted) throw signal.reason;
    // A PNG or PDF is bounded before it is taken (pixels, pages) and after (bytes): render-image-attack.test.ts.
    if (options.format === 'pdf')
      return renderedFileBytes(
        await page.pdf({ printBackground: true, pageRanges: `1-${MAX_PDF_PAGES}` }),
        'pdf',
      );
    if (options.format === 'png') {
      const [width, height] = (await page.evaluate(SCROLL_SIZE_SCRIPT)) as [number, number];
      const { clip, cut } = screenshotClip(Number(width), Number(height));
      if (cut)
        options.onCut?.(
          `the page is ${width} x ${height} px; only its top-left ${clip.width} x ${clip.height} px were captured`,
        );
      return renderedFileBytes(await page.screenshot({ fullPage: true, clip }), 'png');
    }
    // Measured in the page: one larger than the bound never crosses into this process (render-size-attack.test.ts).
    return renderedHtmlBytes(await page.evaluate(RENDERED_HTML_SCRIPT));
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw error;
  } finally {
    signal.removeEventListener('abort', stop);
    await close();
    await client.close();
  }
}

/** A subresource fetched for a rendered page. */
export interface Fetched {
  status: number;
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
}

async function answer(
  route: Route,
  client: GuardedClient,
  signal: AbortSignal,
  budget: PageBudget,
  cached: Fetched | undefined,
) {
  const request = route.request();
  try {
    const url = new URL(request.url());
    const fetched =
      cached ??
      (await fetchResource(
        client,
        {
          method: request.method(),
          url,
          headers: Object.fromEntries(
            Object.entries(request.headers()).filter(([name]) => !DROP_REQUEST.has(name.toLowerCase())),
          ),
          body: request.postDataBuffer() ?? undefined,
          signal,
        },
        budget,
      ));
    await route.fulfill({ status: fetched.status, headers: fetched.headers, body: fetched.body });
  } catch {
    // Blocked, unreachable or too large: the page sees a failed request, as with a network error.
    await route.abort('blockedbyclient').catch(() => undefined);
  }
}

/** Fetches one subresource for a rendered page through the guard (identity encoding, size-capped). */
export async function fetchResource(
  client: GuardedClient,
  request: {
    method: string;
    url: URL;
    headers: Record<string, string>;
    body?: Buffer | undefined;
    signal: AbortSignal;
  },
  budget: PageBudget,
): Promise<Fetched> {
  // Identity encoding: the body goes to Chromium as received, and undici does not decompress.
  const response: GuardedResponse = await client.request({
    method: request.method,
    url: request.url,
    headers: { ...request.headers, 'accept-encoding': 'identity' },
    ...(request.body ? { body: request.body } : {}),
    signal: request.signal,
  });
  const body = await readResource(response.body, request.url, budget);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || DROP_RESPONSE.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return { status: response.status, url: response.url, headers, body };
}

// Reads one resource whole, counting every chunk against the page's budget as it arrives (so resources read at once
// cannot each see the whole budget); a resource that fails gives its bytes back.
async function readResource(body: GuardedResponse['body'], url: URL, budget: PageBudget): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = Buffer.from(chunk as Uint8Array);
      size += buffer.length;
      budget.left -= buffer.length;
      if (size > MAX_RESOURCE_BYTES)
        throw new ToolError('too_large', `${url.href} is larger than ${MAX_RESOURCE_BYTES} bytes`);
      if (budget.left < 0)
        throw new ToolError(
          'too_large',
          `the page's resources are larger than ${MAX_PAGE_BYTES} bytes together`,
        );
      chunks.push(buffer);
    }
  } catch (error) {
    budget.left += size;
    body.destroy();
    throw error;
  }
  return Buffer.concat(chunks);
}
