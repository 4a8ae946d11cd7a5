// Renders a LiquidJS template in a worker thread. LiquidJS checks its time limit only between template nodes and
// renders synchronously, so in the app's own thread a huge loop would freeze the app until that limit, and no
// abort could interrupt it; a worker can be terminated at once and has its own heap cap (docs/security.md).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { TEMPLATE_WORKER_SOURCE } from './template-worker';

/** What to render: the entry template and every template it may include, all pinned before approval. */
export interface RenderRequest {
  /** The entry template's text. */
  template: string;
  /** Its workspace path with `/` when it came from a file (relative includes resolve against it); '' inline. */
  name: string;
  /** The other templates, by workspace path with `/`; nothing else can be included. */
  files: Record<string, string>;
  data: Record<string, unknown>;
  /** How long the render may take, in ms; past it the render ends with an error saying so. */
  timeLimitMs: number;
}

/** Thrown when the template does not parse, fails while rendering, or passes a limit. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** The bounds of one render. */
export const RENDER_LIMITS = {
  /** Heap of the worker, in MB: the backstop for what LiquidJS's memory count does not see. */
  heapMb: 512,
  /** LiquidJS's memory units (characters of built strings, elements of built arrays and ranges). */
  memory: 30_000_000,
  /** Characters of one template file LiquidJS parses. */
  parseChars: 2_000_000,
  /** Characters of the page. */
  outputChars: 20_000_000,
} as const;

// Parsing is not under LiquidJS's render limit: the worker gets this much more before it is stopped.
const PARSE_GRACE_MS = 500;

type WorkerAnswer = { ok: true; html: string } | { ok: false; message: string };

/** Renders `request`; rejects with `signal.reason` on abort and TemplateError for a template fault or limit. */
export function renderTemplate(request: RenderRequest, signal: AbortSignal): Promise<string> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const liquidPath = createRequire(import.meta.url).resolve('liquidjs');
  const timeLimitMs = Math.max(1, Math.round(request.timeLimitMs));
  const worker = new Worker(TEMPLATE_WORKER_SOURCE, {
    eval: true,
    workerData: {
      liquidPath,
      template: request.template,
      name: request.name,
      // The entry is includable by its own name too (a template that renders itself for nested data).
      files: Object.fromEntries([
        ...Object.entries(request.files),
        ...(request.name ? [[request.name, request.template]] : []),
      ]),
      data: request.data,
      limits: { ...RENDER_LIMITS, renderMs: timeLimitMs },
    },
    // Nothing of the app's environment, arguments or output streams reaches the worker.
    env: {},
    argv: [],
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: RENDER_LIMITS.heapMb },
  });
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    const watchdog = setTimeout(
      () =>
        settle(() =>
          reject(
            new TemplateError(`the template took longer than ${seconds(timeLimitMs)} s and was stopped`),
          ),
        ),
      timeLimitMs + PARSE_GRACE_MS,
    );
    worker.once('message', (answer: WorkerAnswer) =>
      settle(() => (answer.ok ? resolve(answer.html) : reject(new TemplateError(explain(answer.message))))),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          new TemplateError(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? `the template used more than ${RENDER_LIMITS.heapMb} MB of memory and was stopped`
              : error.message,
          ),
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new TemplateError(`the template renderer stopped (exit code ${code})`))),
    );
  });
}

// LiquidJS's own words for a limit, made to say what happened and what to do.
function explain(message: string): string {
  if (message.startsWith('template render limit exceeded'))
    return `${message}: the template ran past its time limit (a loop too long?)`;
  if (message.startsWith('memory alloc limit exceeded'))
    return `${message}: the template built more than ${RENDER_LIMITS.memory.toLocaleString('en-US')} characters or items`;
  if (message.startsWith('Maximum call stack size exceeded'))
    return `${message}: templates include each other too deeply (does one include itself?)`;
  if (message.startsWith('Invalid string length'))
    return `${message}: the template built a string too long to hold`;
  if (message.startsWith('ENOENT: Failed to lookup'))
    return `${message}: a template can include only workspace files named in quotes, e.g. {% render 'parts/row.liquid' %}`;
  return message;
}

function seconds(ms: number): string {
  return (ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 });
}
