import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from './download-file';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolServices } from '../sdk/types';
import { watchConnections } from './web/testing/connection-watch';
import type { LocalServer } from './web/testing/local-server';
import { LOOPBACK_ALLOWED, startLocalServer } from './web/testing/local-server';

const PAYLOAD = Buffer.alloc(300_000, 'a');

let workspace: string;
const servers: LocalServer[] = [];
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'download-file-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(workspace, { recursive: true, force: true });
});

async function files() {
  const s = await startLocalServer((req, res) => {
    if (req.url === '/data.bin') {
      res.setHeader('content-length', PAYLOAD.length);
      return void res.end(PAYLOAD);
    }
    if (req.url === '/stall') {
      // Headers and a first chunk, then nothing: the download hangs mid-body.
      res.setHeader('content-length', 1_000_000);
      return void res.write(Buffer.alloc(1000, 'x'));
    }
    if (req.url === '/to-private') {
      res.statusCode = 302;
      res.setHeader('location', 'http://10.0.0.8/file');
      return void res.end();
    }
    if (req.url === '/gone') return void res.writeHead(404).end('no');
    res.end('hello');
  });
  servers.push(s);
  return s;
}

function call(
  args: Record<string, unknown>,
  options: { services?: ToolServices; signal?: AbortSignal } = {},
) {
  const { ctx, progress } = testContext({
    workspace,
    services: options.services ?? { web: LOOPBACK_ALLOWED },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { run: downloadFileTool.handler(args, ctx), progress };
}

const leftovers = () => fs.readdirSync(workspace, { recursive: true }).map(String);

describe('download_file', () => {
  it('saves the URL into the workspace and reports progress as bytes of total', async () => {
    const s = await files();
    const { run, progress } = call({ url: `${s.url}/data.bin`, path: 'downloads/data.bin' });
    expect(JSON.stringify(await run)).toContain('(300000 bytes)');
    expect(fs.readFileSync(path.join(workspace, 'downloads/data.bin')).equals(PAYLOAD)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ progress: 300_000, total: 300_000 });
    expect(leftovers()).toEqual(['downloads', path.join('downloads', 'data.bin')]);
  });

  it('names the file after the URL and never overwrites unless asked', async () => {
    const s = await files();
    await call({ url: `${s.url}/hello.txt` }).run;
    expect(fs.readFileSync(path.join(workspace, 'hello.txt'), 'utf8')).toBe('hello');
    fs.writeFileSync(path.join(workspace, 'hello.txt'), 'mine');
    await expect(call({ url: `${s.url}/hello.txt` }).run).rejects.toMatchObject({ code: 'exists' });
    expect(fs.readFileSync(path.join(workspace, 'hello.txt'), 'utf8')).toBe('mine');
    await call({ url: `${s.url}/hello.txt`, overwrite: true }).run;
    expect(fs.readFileSync(path.join(workspace, 'hello.txt'), 'utf8')).toBe('hello');
  });

  it('rejects bad input naming the parameter', async () => {
    await expect(call({}).run).rejects.toThrow(/`url` is required/);
    await expect(call({ url: 'http://127.0.0.1/x', path: '../outside.txt' }).run).rejects.toThrow(
      /`path` must stay inside/,
    );
    await expect(call({ url: 'http://127.0.0.1/x', path: '/etc/passwd' }).run).rejects.toThrow(
      /`path` must stay inside/,
    );
    await expect(call({ url: 'http://127.0.0.1/x', timeout: 0 }).run).rejects.toThrow(
      /`timeout` must be a number/,
    );
    await expect(call({ url: 'http://127.0.0.1/x', path: 'a.txt', render: true }).run).rejects.toThrow(
      /`path` must end in \.html, \.pdf or \.png/,
    );
    fs.symlinkSync(os.tmpdir(), path.join(workspace, 'link'));
    await expect(call({ url: 'http://127.0.0.1/x', path: 'link/x.txt' }).run).rejects.toThrow(
      /`path` leads out/,
    );
  });

  it('reports HTTP errors and saves nothing', async () => {
    const s = await files();
    await expect(call({ url: `${s.url}/gone`, path: 'gone.txt' }).run).rejects.toMatchObject({
      code: 'http_error',
    });
    expect(leftovers()).toEqual([]);
  });

  it('cuts a stalled download at its timeout, closes the connection and leaves no partial file', async () => {
    const s = await files();
    const started = Date.now();
    await expect(call({ url: `${s.url}/stall`, path: 'big.bin', timeout: 0.5 }).run).rejects.toMatchObject({
      code: 'timed_out',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    await s.allClosed();
    expect(leftovers()).toEqual([]);
  });

  it('stops on cancel, closes the connection and leaves no partial file', async () => {
    const s = await files();
    const controller = new AbortController();
    const { run, progress } = call({ url: `${s.url}/stall`, path: 'big.bin' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the user')), 200);
    await expect(run).rejects.toThrow('cancelled by the user');
    await s.allClosed();
    expect(leftovers()).toEqual([]);
    expect(progress[0]).toMatchObject({ progress: 1000, total: 1_000_000 });
  });

  it('blocks loopback by default and redirects to private addresses, before connecting', async () => {
    const s = await files();
    await expect(call({ url: `${s.url}/hello.txt` }, { services: {} }).run).rejects.toMatchObject({
      code: 'blocked_address',
    });
    expect(s.connections()).toBe(0);
    const watch = watchConnections();
    try {
      await expect(call({ url: `${s.url}/to-private`, path: 'p.txt' }).run).rejects.toThrow(
        /10\.0\.0\.8 is a private/,
      );
    } finally {
      watch.stop();
    }
    expect(watch.connectedTo).toEqual(['127.0.0.1']);
    expect(leftovers()).toEqual([]);
  });
});
