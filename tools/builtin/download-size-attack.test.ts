// A server that never stops sending (docs/security.md, "Files the tools write"): download_file stops at `max_mb`
// (1 GiB unless the model asks for more, in the arguments the person approves) and saves nothing, instead of filling
// the disk until its timeout; one that says in advance it is too large is refused before its body is read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DOWNLOAD_MAX_MB, downloadFileTool } from './download-file';
import { testContext } from '../sdk/testing/tool-context';
import type { LocalServer } from './web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from './web/testing/local-server';

let workspace: string;
let server: LocalServer | null = null;
let sent = 0;
let closed = false;

beforeEach(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'download-size-'));
  sent = 0;
  closed = false;
  server = await startLocalServer((req, res) => {
    res.on('close', () => (closed = true));
    if (req.url === '/declared') {
      res.setHeader('content-length', 3 * 1024 * 1024);
      return void res.end(Buffer.alloc(3 * 1024 * 1024, 'd'));
    }
    // An endless body with no length: 64 KiB at a time for as long as anyone reads.
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = (): void => {
      while (!res.destroyed && sent < 512 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
    };
    pump();
  });
});

afterEach(async () => {
  await server?.close();
  fs.rmSync(workspace, { recursive: true, force: true });
});

const download = (args: Record<string, unknown>) => {
  const { ctx } = testContext({ workspace, services: { web: LOOPBACK_ALLOWED } });
  return downloadFileTool.handler({ url: `${server?.url}${args.at as string}`, path: 'f.bin', ...args }, ctx);
};

describe('download_file against a body without end', () => {
  it('stops once more than max_mb arrived, saves nothing and closes the connection', async () => {
    await expect(download({ at: '/endless', max_mb: 2 })).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('larger than max_mb (2 MB)'),
    });
    expect(fs.readdirSync(workspace)).toEqual([]);
    await expect.poll(() => closed, { timeout: 5_000 }).toBe(true);
    // Stopped near the limit, not at the timeout: a few socket buffers past 2 MiB at most.
    expect(sent).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses a declared length past max_mb before reading the body', async () => {
    await expect(download({ at: '/declared', max_mb: 2 })).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringContaining(`the server says it is ${3 * 1024 * 1024} bytes`),
    });
    expect(fs.readdirSync(workspace)).toEqual([]);
  });

  it('has a default bound, and takes a file within the one asked for', async () => {
    expect((downloadFileTool.parameters.properties as Record<string, unknown>).max_mb).toMatchObject({
      default: DOWNLOAD_MAX_MB.default,
      maximum: DOWNLOAD_MAX_MB.max,
    });
    expect(DOWNLOAD_MAX_MB.default).toBe(1024);
    const saved = await download({ at: '/declared', max_mb: 4 });
    expect(fs.statSync(path.join(workspace, 'f.bin')).size).toBe(3 * 1024 * 1024);
    expect(JSON.stringify(saved)).toContain('3145728 bytes');
  });
});
