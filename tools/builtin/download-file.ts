// download_file: save a URL into the workspace with progress, or (render=true) the page as Chromium renders it.
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ToolContext } from '../sdk/types';
import { defineTool, ToolError } from '../sdk/types';
import { AddressGuard } from '../sdk/web/address-guard';
import { booleanArg, integerArg, invalidArgument, stringArg, timeoutArg, urlArg } from './web/arguments';
import { GuardedClient, headerValue, originBound } from './web/guarded-client';
import { renderFormatOf, renderPage } from './web/page-render';
import { renderInApp } from './web/render-in-app';
import { requestSignal } from './web/request-signal';
import { resolveWebSettings } from '../sdk/web/web-settings';
import { renderedFileBytes } from '../sdk/web/rendered-file';
import { assertFree, saveFile, workspaceTarget } from './web/workspace-file';

/** Default and largest value of the `timeout` parameter, in seconds. */
export const DOWNLOAD_TIMEOUT_SECONDS = { default: 120, max: 600 } as const;

/**
 * Default and largest value of the `max_mb` parameter (docs/security.md, "Files the tools write"): without a bound a
 * server that never stops sending filled the disk until the timeout (gigabytes a minute at local speeds). A larger
 * file needs the model to ask for it, in the arguments the person approves.
 */
export const DOWNLOAD_MAX_MB = { default: 1024, max: 65_536 } as const;

// Progress events at most this often, so a fast download does not flood the UI.
const PROGRESS_EVERY_MS = 250;

/** The download_file built-in: gated (it writes files); registered 10 min, the request itself by `timeout`. */
export const downloadFileTool = defineTool({
  name: 'download_file',
  description:
    'Download a URL into a workspace file, or save a page as a browser renders it.\n' +
    'Use to keep a file or page; use fetch_page to read a page.\n' +
    'Private addresses are blocked unless allowed in settings.',
  parameters: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        description: 'Absolute http or https URL, e.g. "https://example.com/report.pdf".',
      },
      path: {
        type: 'string',
        default: '',
        description:
          'Workspace-relative file path, e.g. "downloads/report.pdf". With render=true its extension picks the ' +
          "output: .html (the page after scripts ran), .pdf or .png (a full-page screenshot). Empty: the URL's file name.",
      },
      overwrite: { type: 'boolean', default: false, description: 'Replace an existing file at path.' },
      timeout: {
        type: 'number',
        default: DOWNLOAD_TIMEOUT_SECONDS.default,
        description: `Seconds the download may take, at most ${DOWNLOAD_TIMEOUT_SECONDS.max} (larger values are clamped), e.g. 300; with render=true, the time to load and save the page.`,
      },
      max_mb: {
        type: 'integer',
        default: DOWNLOAD_MAX_MB.default,
        minimum: 1,
        maximum: DOWNLOAD_MAX_MB.max,
        description: `Largest file to save, in MB (1-${DOWNLOAD_MAX_MB.max}), e.g. 4096; a larger one is stopped and nothing is saved. Not used with render=true.`,
      },
      render: {
        type: 'boolean',
        default: false,
        description:
          'Load the page in a headless browser and save what it shows, for pages built by JavaScript.',
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  timeoutMs: 10 * 60_000,
  handler: async (args, ctx) => {
    const url = urlArg(stringArg(args, 'url', true), 'url');
    const render = booleanArg(args, 'render', false);
    const overwrite = booleanArg(args, 'overwrite', false);
    const timeoutMs = timeoutArg(
      args,
      'timeout',
      DOWNLOAD_TIMEOUT_SECONDS.default,
      DOWNLOAD_TIMEOUT_SECONDS.max,
    );
    const maxBytes =
      integerArg(args, 'max_mb', DOWNLOAD_MAX_MB.default, 1, DOWNLOAD_MAX_MB.max) * 1024 * 1024;
    const relative = stringArg(args, 'path') || defaultName(url, render);
    const target = await workspaceTarget(ctx.workspace, relative, 'path');
    const format = render ? renderFormatOf(target) : null;
    if (render && !format) throw invalidArgument('path', 'must end in .html, .pdf or .png with render=true');
    await assertFree(target, overwrite, relative);

    const settings = resolveWebSettings(ctx.services.web);
    const guard = new AddressGuard(settings);
    guard.checkUrl(url);
    if (format) {
      // The timeout holds the render too: a page that never loads or spins in a script kept Chromium busy until the
      // tool's 10 minutes (render-time-attack.test.ts).
      const limit = requestSignal(
        ctx.signal,
        timeoutMs,
        `the timeout parameter; at most ${DOWNLOAD_TIMEOUT_SECONDS.max} s`,
      );
      let bytes: Buffer;
      let cut = '';
      try {
        if (ctx.services.pageRenderer) {
          bytes = await renderInApp(ctx.services.pageRenderer, url, format, guard, {
            progress: ctx.progress,
            signal: limit.signal,
          });
          if (format !== 'html') bytes = renderedFileBytes(bytes, format);
        } else {
          ctx.progress({ message: `rendering ${url.href} in Chromium` });
          bytes = await renderPage({
            url,
            format,
            chromiumPath: settings.chromiumPath,
            guard,
            signal: limit.signal,
            onCut: (note) => (cut = ` Cut: ${note}.`),
          });
        }
      } catch (error) {
        throw limit.failure(error);
      } finally {
        limit.clear();
      }
      await saveFile(ctx.workspace, target, overwrite, 'path', bytes, ctx.signal);
      return result(
        `Saved the rendered page (${format}) of ${url.href} to ${relative} (${bytes.length} bytes).${cut}`,
        relative,
        bytes.length,
      );
    }
    const bytes = await download(url, target, overwrite, { timeoutMs, maxBytes }, guard, ctx);
    return result(`Saved ${url.href} to ${relative} (${bytes} bytes).`, relative, bytes);
  },
});

async function download(
  url: URL,
  target: string,
  overwrite: boolean,
  { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number },
  guard: AddressGuard,
  ctx: ToolContext,
): Promise<number> {
  const client = new GuardedClient(guard);
  const limit = requestSignal(
    ctx.signal,
    timeoutMs,
    `the timeout parameter; at most ${DOWNLOAD_TIMEOUT_SECONDS.max} s`,
  );
  let bytes = 0;
  try {
    const response = await client.request({
      method: 'GET',
      url,
      signal: limit.signal,
      ...originBound(ctx.approval, 'download_file'),
    });
    if (response.status >= 400) {
      await response.body.dump().catch(() => undefined);
      throw new ToolError(
        'http_error',
        `HTTP ${response.status} ${response.statusText} from ${response.url.href}; nothing saved`,
        {
          status: response.status,
        },
      );
    }
    const length = Number(headerValue(response.headers['content-length']));
    const total = Number.isFinite(length) && length > 0 ? length : undefined;
    if (total !== undefined && total > maxBytes) {
      await response.body.dump().catch(() => undefined);
      throw tooLarge(`the server says it is ${total} bytes`, maxBytes);
    }
    let reported = 0;
    const report = (force: boolean) => {
      if (!force && Date.now() - reported < PROGRESS_EVERY_MS) return;
      reported = Date.now();
      ctx.progress({
        message: `downloaded ${bytes}${total ? ` of ${total}` : ''} bytes`,
        progress: bytes,
        ...(total ? { total } : {}),
      });
    };
    await saveFile(ctx.workspace, target, overwrite, 'path', async (handle) => {
      await pipeline(
        response.body,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            bytes += chunk.length;
            if (bytes > maxBytes) throw tooLarge(`more than ${maxBytes} bytes arrived`, maxBytes);
            report(false);
            yield chunk;
          }
        },
        // The safe writer owns the handle: it checks where it points before, and closes it after.
        async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) await handle.write(chunk);
        },
        { signal: limit.signal },
      );
    });
    report(true);
    return bytes;
  } catch (error) {
    throw limit.failure(error);
  } finally {
    limit.clear();
    await client.close();
  }
}

function tooLarge(what: string, maxBytes: number): ToolError {
  const mb = maxBytes / (1024 * 1024);
  return new ToolError(
    'too_large',
    `the download is larger than max_mb (${mb} MB): ${what}; nothing saved. Call again with a larger max_mb ` +
      `(at most ${DOWNLOAD_MAX_MB.max}) if the file is wanted.`,
  );
}

function defaultName(url: URL, render: boolean): string {
  const last = safeDecode(url.pathname.split('/').pop() ?? '')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '');
  if (render) return `${path.parse(last).name || url.hostname.replace(/[^\w.-]+/g, '_') || 'page'}.html`;
  return last || 'download';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function result(text: string, relative: string, bytes: number) {
  return { content: [{ type: 'text' as const, text }], data: { path: relative, bytes } };
}
