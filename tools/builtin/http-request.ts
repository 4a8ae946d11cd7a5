// http_request: one HTTP request with method, headers and body; `${secret:NAME}` placeholders are filled in
// here, and a 401/403 on a request that carried a secret is a credential error naming it (docs/secrets.md, "How tools get secrets").
import type { ToolContext } from '../sdk/types';
import { clipNoted } from '../sdk/clip-chars';
import { CredentialError, defineTool } from '../sdk/types';
import { AddressGuard } from '../sdk/web/address-guard';
import { invalidArgument, enumArg, stringArg, timeoutArg, urlArg } from './web/arguments';
import type { GuardedResponse } from './web/guarded-client';
import { GuardedClient, headerValue, originBound } from './web/guarded-client';
import { capText, decodeText, describeBinary, readCapped } from './web/read-body';
import { requestSignal } from './web/request-signal';
import { RequestSecrets } from './web/secret-errors';
import { fillSecrets, resolveSecrets, secretNames } from './web/secret-template';
import { resolveWebSettings } from '../sdk/web/web-settings';

/** Default and largest value of the `timeout` parameter, in seconds. */
export const HTTP_TIMEOUT_SECONDS = { default: 60, max: 300 } as const;

/** Most bytes of a response read; most characters of its text shown. */
export const HTTP_LIMITS = { maxBytes: 10 * 1024 * 1024, maxChars: 100_000 } as const;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The http_request built-in: gated (it can change things), limited by its own `timeout` parameter. */
export const httpRequestTool = defineTool({
  name: 'http_request',
  description:
    'Send an HTTP request and return its status, headers and body text.\n' +
    'Use for APIs; fetch_page reads a web page, download_file saves a file.\n' +
    'Private addresses are blocked unless allowed in settings.',
  parameters: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        description:
          'Absolute http or https URL; may hold ${secret:NAME} placeholders, e.g. "https://api.example.com/v1/items?key=${secret:EXAMPLE_KEY}".',
      },
      method: {
        type: 'string',
        enum: [...METHODS],
        default: 'GET',
        description: 'HTTP method: GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.',
      },
      headers: {
        type: 'object',
        additionalProperties: { type: 'string' },
        default: {},
        description:
          'Request headers by name; values may hold ${secret:NAME}, e.g. {"Authorization": "Bearer ${secret:GITHUB_TOKEN}"}.',
      },
      body: {
        type: 'string',
        default: '',
        description:
          'Request body as text (set Content-Type in headers); may hold ${secret:NAME}. Example: "{\\"name\\": \\"demo\\"}".',
      },
      timeout: {
        type: 'number',
        default: HTTP_TIMEOUT_SECONDS.default,
        description: `Seconds to wait for the whole response, at most ${HTTP_TIMEOUT_SECONDS.max} (larger values are clamped), e.g. 120.`,
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  handler: async (args, ctx) => {
    const template = stringArg(args, 'url', true);
    const method = enumArg(args, 'method', METHODS, 'GET');
    const headerTemplates = headersArg(args.headers);
    const bodyTemplate = typeof args.body === 'string' ? args.body : '';
    if (args.body !== undefined && args.body !== null && typeof args.body !== 'string') {
      throw invalidArgument('body', 'must be a string (JSON-encode objects first)');
    }
    const timeoutMs = timeoutArg(args, 'timeout', HTTP_TIMEOUT_SECONDS.default, HTTP_TIMEOUT_SECONDS.max);
    const used = {
      url: secretNames(template, 'url'),
      headers: Object.entries(headerTemplates).map(
        ([name, value]) => [name, secretNames(value, 'headers')] as const,
      ),
      body: secretNames(bodyTemplate, 'body'),
    };
    const values = await resolveSecrets(
      [...used.headers.flatMap(([, names]) => names), ...used.url, ...used.body],
      ctx,
    );
    // Whatever reports on this request (a DNS, TLS or URL error, the log, the URL shown) has these scrubbed first.
    const secrets = new RequestSecrets(values);
    const url = urlArg(fillSecrets(template, values, encodeURIComponent), 'url', template);
    const headers = Object.fromEntries(
      Object.entries(headerTemplates).map(([name, value]) => [name, fillSecrets(value, values)]),
    );
    const body =
      bodyTemplate && method !== 'GET' && method !== 'HEAD' ? fillSecrets(bodyTemplate, values) : undefined;
    if (bodyTemplate && !body) throw invalidArgument('body', `cannot be sent with ${method}`);

    const settings = resolveWebSettings(ctx.services.web);
    const client = new GuardedClient(new AddressGuard(settings));
    const limit = requestSignal(
      ctx.signal,
      timeoutMs,
      `the timeout parameter; at most ${HTTP_TIMEOUT_SECONDS.max} s`,
    );
    try {
      const response = await client.request({
        method,
        url,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: limit.signal,
        sensitiveHeaders: used.headers.filter(([, names]) => names.length > 0).map(([name]) => name),
        ...(used.body[0] ? { bodySecret: used.body[0] } : {}),
        ...originBound(ctx.approval, 'http_request'),
      });
      const content = method === 'HEAD' ? null : await readCapped(response.body, HTTP_LIMITS.maxBytes);
      const usedSecret = sentSecret(response, used);
      if ((response.status === 401 || response.status === 403) && usedSecret) {
        const snippet = content
          ? (decodeText(content, headerValue(response.headers['content-type'])) ?? '')
          : '';
        throw new CredentialError(
          usedSecret,
          'rejected',
          `HTTP ${response.status} ${response.statusText} from ${response.url.host}: the secret ${usedSecret} was ` +
            `rejected; store a valid value with store_secret${snippet ? `. Server said: ${clipNoted(snippet, 300)}` : ''}`,
        );
      }
      return formatResponse(
        response,
        content,
        method,
        response.redirects === 0 ? template : secrets.scrub(response.url.href),
        ctx,
        secrets,
      );
    } catch (error) {
      throw secrets.scrubError(limit.failure(error));
    } finally {
      limit.clear();
      await client.close();
    }
  },
});

function headersArg(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(
      'headers',
      'must be an object of header names to string values, e.g. {"Accept": "application/json"}',
    );
  }
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) throw invalidArgument('headers', `has an invalid header name "${name}"`);
    if (typeof v !== 'string' && typeof v !== 'number') {
      throw invalidArgument('headers', `value of "${name}" must be a string`);
    }
    if (/[\r\n]/.test(String(v))) throw invalidArgument('headers', `value of "${name}" must be one line`);
    headers[name] = String(v);
  }
  return headers;
}

// The secret that went out on the hop that answered: headers it still carried, then the URL (only before a
// redirect replaced it), then the body (unless a redirect dropped it).
function sentSecret(
  response: GuardedResponse,
  used: { url: string[]; headers: ReadonlyArray<readonly [string, string[]]>; body: string[] },
): string | undefined {
  const inHeaders = used.headers.find(
    ([name, names]) => names.length > 0 && name.toLowerCase() in response.sent.headers,
  );
  if (inHeaders) return inHeaders[1][0];
  if (response.redirects === 0 && used.url[0]) return used.url[0];
  if (response.sent.body && used.body[0]) return used.body[0];
  return undefined;
}

function formatResponse(
  response: GuardedResponse,
  content: Awaited<ReturnType<typeof readCapped>> | null,
  method: string,
  shownUrl: string,
  ctx: ToolContext,
  secrets: RequestSecrets,
) {
  const contentType = headerValue(response.headers['content-type']);
  const headerLines = Object.entries(response.headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(
      (v) => `${name}: ${clipNoted(v, 1000)}`,
    ),
  );
  const text = content ? decodeText(content, contentType) : null;
  const shown = !content
    ? ''
    : text === null
      ? describeBinary(content, contentType)
      : capText(text, HTTP_LIMITS.maxChars, content.cut);
  const via =
    response.redirects > 0
      ? ` after ${response.redirects} redirect${response.redirects === 1 ? '' : 's'}`
      : '';
  ctx.log.info('http_request done', { status: response.status, host: secrets.scrub(response.url.host) });
  const head = `HTTP ${response.status} ${response.statusText} (${method} ${shownUrl}${via})`;
  return {
    content: [{ type: 'text' as const, text: [head, ...headerLines, '', shown].join('\n') }],
    data: {
      status: response.status,
      url: shownUrl,
      redirects: response.redirects,
      headers: response.headers,
      bodyCut: content?.cut ?? false,
      binary: content !== null && text === null,
    },
  };
}
