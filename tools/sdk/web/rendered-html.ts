// A rendered page's HTML, measured inside the page before it leaves the browser: the page's scripts can build a DOM
// of any size, and the whole of it crossed into this process as one string, and was saved, before anything looked at
// its size (tools/builtin/web/render-size-attack.test.ts). Shared by the system Chromium and the app's offscreen window.
import { ToolError } from '../types';

/** Largest rendered HTML saved, in bytes. */
export const MAX_RENDERED_BYTES = 32 * 1024 * 1024;

/**
 * Script run in the page: its HTML as page.content() builds it (doctype and root element), or its length in
 * characters when that is more than MAX_RENDERED_BYTES (a character is at least one byte, so it is too large).
 */
export const RENDERED_HTML_SCRIPT = `(() => {
  let text = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  text += document.documentElement ? document.documentElement.outerHTML : '';
  return text.length > ${MAX_RENDERED_BYTES} ? text.length : text;
})()`;

/** The bytes to save from what RENDERED_HTML_SCRIPT returned; too_large past MAX_RENDERED_BYTES. */
export function renderedHtmlBytes(result: unknown): Buffer {
  const bytes = typeof result === 'string' ? Buffer.from(result, 'utf8') : null;
  if (bytes && bytes.length <= MAX_RENDERED_BYTES) return bytes;
  const size = bytes ? `${bytes.length} bytes` : `${Number(result)} characters`;
  throw new ToolError(
    'too_large',
    `the rendered page is larger than ${MAX_RENDERED_BYTES} bytes (${size}); nothing saved: call download_file ` +
      'without render to save the page as served',
  );
}
