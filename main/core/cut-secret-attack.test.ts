// A server that puts a secret right where the app cuts its words: before, the cut fell inside the key with no note (or
// a note of its own) and the redactor, which matches whole keys, let its first 16-38 characters through to the model,
// the log and the page. Every such cut now says so in the redactor's words, which scrub a key's pieces on either side
// (docs/security.md, "Secrets in output"). Real tools over real local servers, the app's real redactor. Found later:
// a response header the result lists cut at 1,000 characters bare, and an MCP server's progress message cut at 2,000
// with a mark the redactor did not know.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateImageTool } from '../../tools/builtin/generate-image';
import { httpRequestTool } from '../../tools/builtin/http-request';
import type { LocalServer } from '../../tools/builtin/web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from '../../tools/builtin/web/testing/local-server';
import { testContext } from '../../tools/sdk/testing/tool-context';
import { clipLogged } from '../adapters/mcp/log-budget';
import { fixture, mcpHarness, waitFor } from '../adapters/mcp/mcp-testing';
import { PROGRESS_MESSAGE_CHARS } from '../adapters/mcp/request-options';
import { Redactor } from './redactor';
import { testCore } from './testing/test-core';

const CANARY = 'CANARY-f00d-7c1e-SECRET-0123456789abcdef';
const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(status: number, body: string, type = 'text/plain') {
  const s = await startLocalServer((_req, res) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  });
  servers.push(s);
  return s;
}

// What the redactor leaves of the key: any run of 6 of its characters counts as a leak.
function leftOfKey(text: string): string[] {
  const redactor = new Redactor();
  redactor.add('SVC_TOKEN', CANARY);
  const shown = redactor.redact(text);
  const pieces: string[] = [];
  for (let i = 0; i + 6 <= CANARY.length; i++)
    if (shown.includes(CANARY.slice(i, i + 6))) pieces.push(CANARY.slice(i, i + 6));
  return pieces;
}

// Every place the cut can fall inside the key: before its first character to past its last.
const offsets = (cut: number) => Array.from({ length: CANARY.length + 2 }, (_, i) => cut - i);

describe('a secret where the app cuts', () => {
  it("http_request's quote of a 401 body that echoes the key", async () => {
    for (const before of offsets(300).filter((_, i) => i % 7 === 0)) {
      const s = await serve(401, `${'x'.repeat(before)}${CANARY} rest of the page`);
      const { ctx } = testContext({ services: { web: LOOPBACK_ALLOWED }, getSecret: async () => CANARY });
      const error = await Promise.resolve(
        httpRequestTool.handler({ url: s.url, headers: { 'x-key': '${secret:SVC_TOKEN}' } }, ctx),
      ).catch((e: unknown) => e);
      expect(String(error), `cut ${300 - before} into the key`).toMatch(/Server said/);
      expect(leftOfKey(String(error)), `cut ${300 - before} into the key`).toEqual([]);
    }
  });

  it('a response body past its cap', async () => {
    const s = await serve(200, `${'x'.repeat(100_000 - 17)}${CANARY}${'y'.repeat(50)}`);
    const { ctx } = testContext({ services: { web: LOOPBACK_ALLOWED }, getSecret: async () => undefined });
    const result = (await httpRequestTool.handler({ url: s.url }, ctx)) as {
      content: Array<{ text: string }>;
    };
    // The text the model reads (the dispatcher scrubs each text part, as here).
    const body = result.content.map((part) => part.text).join('\n');
    expect(body).toMatch(/output truncated: showing the first 100000 of/);
    expect(leftOfKey(body)).toEqual([]);
  });

  it("an image API's error that quotes the key", async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-cut-'));
    try {
      for (const before of [480, 490, 495]) {
        const message = `${'x'.repeat(before)}key: Bearer ${CANARY}`;
        const s = await serve(401, JSON.stringify({ error: { message } }), 'application/json');
        const { ctx } = testContext({
          workspace,
          services: { web: { images: { baseUrl: `${s.url}/v1`, model: 'm', keyName: 'SVC_TOKEN' } } },
          getSecret: async () => CANARY,
        });
        const error = await Promise.resolve(generateImageTool.handler({ prompt: 'fox' }, ctx)).catch(
          (e: unknown) => e,
        );
        expect(String(error)).toMatch(/output truncated/);
        expect(leftOfKey(String(error)), `${before}`).toEqual([]);
      }
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it("an MCP server's error as the log and its state show it", () => {
    for (const before of offsets(500)) {
      const logged = clipLogged(`${'x'.repeat(before)}${CANARY}${'z'.repeat(200)}`);
      expect(leftOfKey(logged), `${before}`).toEqual([]);
    }
  });

  it('a response header past its 1,000 characters, as the result lists it', async () => {
    for (const before of offsets(1000).filter((_, i) => i % 5 === 0)) {
      const s = await startLocalServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'x-debug': `${'p'.repeat(before)}${CANARY}` });
        res.end('ok');
      });
      servers.push(s);
      const core = testCore([httpRequestTool], { services: { web: LOOPBACK_ALLOWED } });
      core.redactor.add('SVC_TOKEN', CANARY);
      const outcome = await core.dispatcher.dispatch(
        { id: 'h', name: 'http_request', args: { url: s.url } },
        { chatId: 'cut', workspace: core.dir },
      );
      fs.rmSync(core.dir, { recursive: true, force: true });
      expect(JSON.stringify(outcome)).toContain('x-debug: ppp');
      expect(leftOfKey(JSON.stringify(outcome)), `cut ${1000 - before} into the key`).toEqual([]);
    }
  });

  it("an MCP server's progress message past its 2,000 characters, as the events show it", async () => {
    const h = mcpHarness(
      {
        servers: {
          split: {
            command: process.execPath,
            args: [fixture('split-secret-server.mjs')],
            env: { TOKEN: '${secret:SVC_TOKEN}' },
            trust: ['show_token'],
          },
        },
      },
      { getSecret: async (name) => (name === 'SVC_TOKEN' ? CANARY : undefined) },
    );
    try {
      await h.manager.start();
      await waitFor(() => h.state('split')?.status === 'ready');
      const messages: string[] = [];
      h.core.dispatcher.on((event) => {
        if (event.type === 'call.progress') messages.push(event.update.message ?? '');
      });
      for (const before of offsets(PROGRESS_MESSAGE_CHARS).filter((_, i) => i % 6 === 0)) {
        const outcome = await h.dispatch('mcp__split__show_token', { progress_pad: before });
        expect(outcome.outcome).toBe('ok');
      }
      expect(messages.length).toBeGreaterThan(3);
      for (const message of messages) expect(leftOfKey(message), message.slice(-80)).toEqual([]);
    } finally {
      await h.dispose();
    }
  });
});
