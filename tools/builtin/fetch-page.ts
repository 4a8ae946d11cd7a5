// fetch_page: read a web page as markdown (or its raw HTML, or a JSON document), through the address guard.
import { defineTool, ToolError } from '../sdk/types';
import { AddressGuard } from '../sdk/web/address-guard';
import { enumArg, stringArg, urlArg } from './web/arguments';
import { GuardedClient, headerValue, originBound } from './web/guarded-client';
import { htmlToMarkdown } from './web/page-extract';
import { capText, decodeText, describeBinary, readCapped } from './web/read-body';
import { resolveWebSettings } from '../sdk/web/web-settings';

/** Most bytes of a page read; most characters returned. */
export const FETCH_LIMITS = { maxBytes: 5 * 1024 * 1024, maxChars: 100_000 } as const;

const FORMATS = ['markdown', 'html', 'json'] as const;

/**
 * The fetch_page built-in: concurrent; 90 s. It reads, but its URL is the model's to write, so a GET carries whatever
 * the model puts in the path, query or host to whoever runs that server: it asks like http_request, unless a rule or
 * a chat grant covers it (docs/security.md, "Data leaving the machine").
 */
export const fetchPageTool = defineTool({
  name: 'fetch_page',
  description:
    'Fetch a page and return its readable text as markdown, or its HTML or JSON.\n' +
    'Use to read a URL; search_web finds pages, http_request calls APIs.\n' +
    'Private addresses are blocked unless allowed in settings.',
  parameters: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        description: 'Absolute http or https URL of the page, e.g. "https://nodejs.org/en/about".',
      },
      format: {
        type: 'string',
        enum: [...FORMATS],
        default: 'markdown',
        description:
          'What to return: markdown (the main article text, without menus and ads), html (the page source as ' +
          'served) or json (a JSON response, pretty-printed).',
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  flags: { concurrent: true },
  timeoutMs: 90_000,
  handler: async (args, ctx) => {
    const url = urlArg(stringArg(args, 'url', true), 'url');
    const format = enumArg(args, 'format', FORMATS, 'markdown');
    const client = new GuardedClient(new AddressGuard(resolveWebSettings(ctx.services.web)));
    try {
      const response = await client.request({
        method: 'GET',
        url,
        headers: {
          accept:
            format === 'json'
              ? 'application/json'
              : 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
          'user-agent': 'Mozilla/5.0 (compatible; Agenvoy)',
        },
        signal: ctx.signal,
        ...originBound(ctx.approval, 'fetch_page'),
      });
      const body = await readCapped(response.body, FETCH_LIMITS.maxBytes);
      const page = response.url.href;
      if (response.status >= 400) {
        throw new ToolError('http_error', `HTTP ${response.status} ${response.statusText} from ${page}`, {
          status: response.status,
        });
      }
      const contentType = headerValue(response.headers['content-type']);
      const text = decodeText(body, contentType);
      if (text === null) return `${page}\n${describeBinary(body, contentType)}`;
      const type = (contentType ?? '').toLowerCase();
      const json = /\bjson\b/.test(type) ? prettyJson(text) : null;
      if (format === 'json') {
        const parsed = json ?? prettyJson(text);
        if (parsed === null) {
          throw new ToolError(
            'invalid_arguments',
            `\`format\` "json": ${page} is not JSON (${contentType || 'no content type'}); use format "markdown"`,
            { parameter: 'format' },
          );
        }
        return capText(parsed, FETCH_LIMITS.maxChars, body.cut);
      }
      if (format === 'html' || json !== null || !looksLikeHtml(type, text)) {
        return `${page}\n\n${capText(json ?? text, FETCH_LIMITS.maxChars, body.cut)}`;
      }
      ctx.progress({ message: 'extracting the readable text' });
      const extracted = await htmlToMarkdown(text, page, ctx.signal);
      const head = [
        `# ${extracted.title || page}`,
        `Source: ${page}${extracted.byline ? ` (by ${extracted.byline})` : ''}`,
      ];
      return {
        content: [
          {
            type: 'text',
            text: `${head.join('\n')}\n\n${capText(extracted.markdown, FETCH_LIMITS.maxChars, body.cut)}`,
          },
        ],
        data: { url: page, title: extracted.title, article: extracted.article, status: response.status },
      };
    } catch (error) {
      throw ctx.signal.aborted ? ctx.signal.reason : error;
    } finally {
      await client.close();
    }
  },
});

function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

function looksLikeHtml(type: string, text: string): boolean {
  if (type.includes('html')) return true;
  return !type && /^\s*(?:<!doctype html|<html|<head|<body)/i.test(text);
}
