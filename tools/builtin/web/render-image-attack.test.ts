// Attack: a page rendered by download_file render=true into a PNG or a PDF sizes itself at will (a script drawing
// noise onto canvases tens of thousands of pixels tall, or thousands of printed pages). The screenshot and the PDF
// were taken whole, with no bound on their pixels, pages or bytes, crossed into this process as one buffer (base64
// on the way) and were saved. They are bounded now: the screenshot is clipped to MAX_SCREENSHOT_PIXELS, the PDF
// to MAX_PDF_PAGES, and either one larger than MAX_RENDERED_FILE_BYTES is refused with nothing saved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../download-file';
import { testContext } from '../../sdk/testing/tool-context';
import { DEFAULT_CHROMIUM_PATH } from '../../sdk/web/web-settings';
import { MAX_PDF_PAGES, MAX_RENDERED_FILE_BYTES, MAX_SCREENSHOT_PIXELS } from '../../sdk/web/rendered-file';
import type { LocalServer } from './testing/local-server';
import { startLocalServer } from './testing/local-server';

const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

let workspace: string;
let site: LocalServer | undefined;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-image-'));
});
afterEach(async () => {
  await site?.close();
  site = undefined;
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function render(body: string, file: string) {
  site = await startLocalServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><body style="margin:0">${body}</body></html>`);
  });
  const web = {
    allowedHosts: ['evil.test'],
    chromiumPath: CHROMIUM,
    resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
  };
  const { ctx } = testContext({ workspace, services: { web } });
  return downloadFileTool.handler({ url: `http://evil.test:${site.port}/`, path: file, render: true }, ctx);
}

// `count` canvases of 2000 x 2000 pixels of noise, one under the other (noise does not compress in a PNG).
const NOISE = (count: number) => `<script>
  for (let i = 0; i < ${count}; i++) {
    const canvas = document.createElement('canvas');
    canvas.width = 2000; canvas.height = 2000; canvas.style.display = 'block';
    const context = canvas.getContext('2d');
    const image = context.createImageData(2000, 2000);
    const words = new Uint32Array(image.data.buffer);
    let x = 2463534242 + i;
    for (let j = 0; j < words.length; j++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; words[j] = x | 0xff000000; }
    context.putImageData(image, 0, 0);
    document.body.append(canvas);
  }</script>`;

describe.skipIf(!HAVE_CHROMIUM)('a rendered page sized to make a huge PNG or PDF', () => {
  // Before: a 2000 x 40000 px page of noise was saved whole, 240 MB of PNG, and the app grew by 900 MB.
  it('gives a screenshot cut to its bound in pixels and bytes, and says so', async () => {
    const result = await render(NOISE(20), 'page.png');
    const saved = fs.statSync(path.join(workspace, 'page.png')).size;
    expect(saved).toBeLessThanOrEqual(MAX_RENDERED_FILE_BYTES);
    // PNG header: width and height, big-endian, at bytes 16 and 20.
    const head = fs.readFileSync(path.join(workspace, 'page.png')).subarray(16, 24);
    expect(head.readUInt32BE(0) * head.readUInt32BE(4)).toBeLessThanOrEqual(MAX_SCREENSHOT_PIXELS);
    expect(JSON.stringify(result)).toContain('only its top-left 2000 x 8388 px were captured');
  }, 300_000);

  it('prints no more than the page bound of a PDF', async () => {
    const pages = '<p style="break-after:page">page</p>'.repeat(MAX_PDF_PAGES + 100);
    await render(pages, 'page.pdf');
    const pdf = fs.readFileSync(path.join(workspace, 'page.pdf'), 'latin1');
    const count = pdf.match(/\/Type\s*\/Page\b/g)?.length ?? 0;
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(MAX_PDF_PAGES);
  }, 300_000);
});
