// Renders a nunjucks template in a worker thread with autoescape on. Rendering is synchronous and a
// template can loop for long (`range(1e9)`), so it runs off the main thread, where an abort can stop it
// (worker.terminate) without freezing the app.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What to render: an inline template or a file under `root`, with its data. */
export interface RenderRequest {
  /** The folder templates are loaded from ({% include %}, {% extends %} and template files stay inside it). */
  root: string;
  /** Inline template text; used when `file` is empty. */
  template: string;
  /** Template path relative to `root`. */
  file: string;
  data: Record<string, unknown>;
}

/** Thrown when the template does not parse or fails while rendering. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

// A memory bound for one render, so a runaway template cannot take the app's memory.
const WORKER_HEAP_MB = 512;

// Plain CommonJS run with `eval: true`: no loader or TypeScript is needed inside the worker.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const nunjucks = require(workerData.nunjucksPath);
try {
  const loader = new nunjucks.FileSystemLoader(workerData.root, { noCache: true });
  const env = new nunjucks.Environment(loader, { autoescape: true, throwOnUndefined: false });
  const html = workerData.file
    ? env.render(workerData.file, workerData.data)
    : env.renderString(workerData.template, workerData.data);
  parentPort.postMessage({ ok: true, html });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
}
`;

/** Renders `request` with nunjucks (autoescape on); rejects with `signal.reason` on abort, TemplateError on a template fault. */
export function renderTemplate(request: RenderRequest, signal: AbortSignal): Promise<string> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const nunjucksPath = createRequire(import.meta.url).resolve('nunjucks');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { nunjucksPath, ...request },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return new Promise<string>((resolve, reject) => {
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
    };
    worker.once('message', (message: { ok: true; html: string } | { ok: false; message: string }) => {
      done();
      if (message.ok) resolve(message.html);
      else reject(new TemplateError(message.message));
    });
    worker.once('error', (error) => {
      done();
      reject(new TemplateError(error.message));
    });
    worker.once('exit', (code) => {
      done();
      reject(new TemplateError(`the template renderer stopped (exit code ${code})`));
    });
  });
}
