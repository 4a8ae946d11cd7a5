// The readable part of an HTML page as markdown: Readability on jsdom, then turndown, in a worker thread. All three
// are synchronous, and a hostile page within fetch_page's byte cap (deeply nested elements) kept them busy for minutes
// in the app's own thread, where no timeout or cancel could interrupt them; a worker is terminated at once
// (page-extract-attack.test.ts; docs/robustness.md).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ToolError } from '../../sdk/types';

/** A page reduced to its readable text. */
export interface ExtractedPage {
  title: string;
  byline: string;
  markdown: string;
  /** False when Readability found no article and the whole body was converted instead. */
  article: boolean;
}

/** Heap cap of the extraction worker, in MB. */
const EXTRACT_HEAP_MB = 1024;

// Plain CommonJS run in the worker (`eval: true`): no scripts run and no subresources load (jsdom's defaults, kept
// explicit); CSS noise stays out of the log.
const EXTRACT_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { JSDOM, VirtualConsole } = require(workerData.paths.jsdom);
const { Readability } = require(workerData.paths.readability);
const TurndownService = require(workerData.paths.turndown);
const tidy = (markdown) => markdown.replace(/\\n{3,}/g, '\\n\\n').trim();
const dom = new JSDOM(workerData.html, { url: workerData.url, virtualConsole: new VirtualConsole(), runScripts: undefined });
try {
  const document = dom.window.document;
  const title = document.title.trim();
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'template']);
  // Readability edits the document it reads, so it gets a clone and the body stays for the fallback.
  const article = new Readability(document.cloneNode(true)).parse();
  parentPort.postMessage(article && article.content
    ? { title: (article.title && article.title.trim()) || title, byline: (article.byline || '').trim(),
        markdown: tidy(turndown.turndown(article.content)), article: true }
    : { title, byline: '', markdown: tidy(turndown.turndown(document.body ? document.body.innerHTML : '')), article: false });
} finally {
  dom.window.close();
}
`;

/** Extracts the main content of `html` (served from `url`, for relative links) as markdown; stops on `signal`. */
export function htmlToMarkdown(html: string, url: string, signal: AbortSignal): Promise<ExtractedPage> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const require = createRequire(import.meta.url);
  const paths = {
    jsdom: require.resolve('jsdom'),
    readability: require.resolve('@mozilla/readability'),
    turndown: require.resolve('turndown'),
  };
  const worker = new Worker(EXTRACT_WORKER_SOURCE, {
    eval: true,
    workerData: { html, url, paths },
    env: {},
    argv: [],
    execArgv: [],
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: EXTRACT_HEAP_MB },
  });
  return new Promise<ExtractedPage>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (page: ExtractedPage) => settle(() => resolve(page)));
    worker.once('error', (error: Error) => settle(() => reject(extractFailed(error.message))));
    worker.once('exit', (code) =>
      settle(() => reject(extractFailed(`the extractor stopped (exit code ${code})`))),
    );
  });
}

function extractFailed(detail: string): ToolError {
  return new ToolError(
    'extract_failed',
    `could not extract the page's text (${detail}); call fetch_page with format "html" for the page source`,
  );
}
