// Attack: a page rendered by download_file render=true (real Chromium) builds a DOM of any size with a line of
// script; its whole HTML crossed into this process as one string and was saved, however large. It is measured in
// the page now, and one over MAX_RENDERED_BYTES fails with nothing saved.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../download-file';
import { testContext } from '../../sdk/testing/tool-context';
import { DEFAULT_CHROMIUM_PATH } from '../../sdk/web/web-settings';
import { MAX_RENDERED_BYTES } from '../../sdk/web/rendered-html';
import type { LocalServer } from './testing/local-server';
import { startLocalServer } from './testing/local-server';

const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

let workspace: string;
let site: LocalServer | undefined;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-size-'));
});
afterEach(async () => {
  await site?.close();
  site = undefined;
  fs.rmSync(workspace, { recursive: true, force: true });
});

// A page of a few hundred bytes whose script adds `count` copies of `char` (in a comment: nothing to lay out).
async function render(char: string, count: number) {
  site = await startLocalServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><body><p>small page</p><script>
      document.body.append(document.createComment(${JSON.stringify(char)}.repeat(${count})));</script></body></html>`);
  });
  const web = {
    allowedHosts: ['evil.test'],
    chromiumPath: CHROMIUM,
    resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
  };
  const { ctx } = testContext({ workspace, services: { web } });
  return downloadFileTool.handler(
    { url: `http://evil.test:${site.port}/`, path: 'page.html', render: true },
    ctx,
  );
}

describe.skipIf(!HAVE_CHROMIUM)('a rendered page larger than the rendered-HTML bound', () => {
  it('is refused inside the page when it has more characters than the bound, nothing saved', async () => {
    await expect(render('x', MAX_RENDERED_BYTES + 1024)).rejects.toMatchObject({ code: 'too_large' });
    expect(fs.readdirSync(workspace)).toEqual([]);
  }, 120_000);

  it('is refused when its characters fit but its UTF-8 bytes do not, nothing saved', async () => {
    await expect(render('\u00e9', MAX_RENDERED_BYTES / 2 + 1024)).rejects.toMatchObject({
      code: 'too_large',
    });
    expect(fs.readdirSync(workspace)).toEqual([]);
  }, 120_000);
});
