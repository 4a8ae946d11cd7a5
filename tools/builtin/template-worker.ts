// The source of the worker thread html_template renders in (plain CommonJS, run with `eval: true`, so no loader
// or TypeScript is needed there). LiquidJS is made for untrusted templates; around it:
//  - templates come only from the map pinned before approval (no file system at all: `fs` is that map);
//  - own properties only, unknown filters are errors, no custom tags or filters, no globals;
//  - every value is HTML-escaped unless the template ends it with `| raw` (or escapes it itself, once);
//  - LiquidJS's own render-time, memory and parse limits, and an output cap, give clear errors; the worker's heap
//    cap and the parent's terminate() (on abort or past the time limit) bound what those do not.
// See docs/security.md, "html_template".

/** Names an include may resolve to, shared with the pinning step: a workspace path with `/`, or OUTSIDE. */
export const OUTSIDE_KEY = '\u0000outside';

/** Plain JavaScript run in the worker. */
export const TEMPLATE_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const posix = require('node:path').posix;
const { Liquid, Context, toValue, toValueSync } = require(workerData.liquidPath);
const { template, name, files, data, limits } = workerData;
const OUTSIDE = ${JSON.stringify(OUTSIDE_KEY)};

function resolve(dir, file, ext) {
  const wanted = String(file) + (ext || '');
  if (wanted.startsWith('/') || wanted.includes('\\\\') || wanted.includes('\\u0000')) return OUTSIDE;
  const joined = posix.normalize(posix.join(dir === '.' ? '' : dir, wanted));
  return joined === '..' || joined.startsWith('../') ? OUTSIDE : joined;
}
const has = (key) => Object.prototype.hasOwnProperty.call(files, key);
const read = (key) => {
  if (!has(key)) throw new Error('ENOENT: ' + key);
  return files[key];
};
const pinned = {
  sep: '/',
  exists: async (key) => has(key),
  existsSync: has,
  readFile: async (key) => read(key),
  readFileSync: read,
  resolve,
  dirname: (key) => posix.dirname(key),
  contains: async () => true,
  containsSync: () => true,
};

function stringify(value) {
  value = toValue(value);
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(stringify).join('');
  return String(value);
}

class CappedEmitter {
  constructor(max) {
    this.buffer = '';
    this.max = max;
  }
  write(html) {
    const text = stringify(html);
    if (this.buffer.length + text.length > this.max) {
      throw new Error('output limit exceeded: the page would pass ' + this.max + ' characters');
    }
    this.buffer += text;
  }
}

try {
  const liquid = new Liquid({
    fs: pinned,
    root: ['.'],
    partials: ['.'],
    layouts: ['.'],
    relativeReference: true,
    extname: '',
    cache: true,
    strictFilters: true,
    ownPropertyOnly: true,
    outputEscape: 'escape',
    globals: {},
    parseLimit: limits.parseChars,
    renderLimit: limits.renderMs,
    memoryLimit: limits.memory,
  });
  // A template that escapes a value itself ({{ x | escape }}) gets it escaped once, not twice.
  for (const filter of ['escape', 'escape_once', 'xml_escape']) {
    const handler = liquid.filters[filter];
    liquid.registerFilter(filter, { handler: typeof handler === 'function' ? handler : handler.handler, raw: true });
  }
  const templates = liquid.parse(template, name || undefined);
  const ctx = new Context(data, liquid.options, { sync: true }, { liquid });
  const emitter = new CappedEmitter(limits.outputChars);
  toValueSync(liquid.renderer.renderTemplates(templates, ctx, emitter));
  parentPort.postMessage({ ok: true, html: emitter.buffer });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
}
`;
