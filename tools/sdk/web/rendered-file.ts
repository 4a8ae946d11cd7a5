// Bounds on a rendered page saved as a PNG or a PDF (docs/security.md, "Rendered pages"): the page's scripts size it
// at will, and a screenshot or PDF taken whole crossed into this process as one buffer of hundreds of MB, and was
// saved (tools/builtin/web/render-image-attack.test.ts). Shared by the system Chromium and the app's offscreen window.
import { ToolError } from '../types';

/** Largest PNG or PDF of a rendered page saved, in bytes. */
export const MAX_RENDERED_FILE_BYTES = 64 * 1024 * 1024;

/** Most pixels of a full-page screenshot: a taller or wider page is cut to this area (noise fills ~50 MB of PNG). */
export const MAX_SCREENSHOT_PIXELS = 16 * 1024 * 1024;

/** Widest full-page screenshot, in CSS pixels. */
export const MAX_SCREENSHOT_WIDTH = 4096;

/** Most pages of a rendered PDF: the rest of a longer page is not printed. */
export const MAX_PDF_PAGES = 500;

/** The area of a page of `width` x `height` to capture, and whether that cuts the page. */
export function screenshotClip(
  width: number,
  height: number,
): { clip: { x: number; y: number; width: number; height: number }; cut: boolean } {
  const w = Math.max(1, Math.min(Math.ceil(width) || 1, MAX_SCREENSHOT_WIDTH));
  const h = Math.max(1, Math.min(Math.ceil(height) || 1, Math.floor(MAX_SCREENSHOT_PIXELS / w)));
  return { clip: { x: 0, y: 0, width: w, height: h }, cut: w < width || h < height };
}

/** The bytes of a rendered PNG or PDF, refused (too_large, nothing saved) past MAX_RENDERED_FILE_BYTES. */
export function renderedFileBytes(bytes: Buffer, format: 'png' | 'pdf'): Buffer {
  if (bytes.length <= MAX_RENDERED_FILE_BYTES) return bytes;
  throw new ToolError(
    'too_large',
    `the rendered ${format.toUpperCase()} is larger than ${MAX_RENDERED_FILE_BYTES} bytes (${bytes.length} bytes); ` +
      'nothing saved: save it as .html, or call download_file without render to save the page as served',
  );
}
