// `agenvoy web` in-process: it prints a 127.0.0.1 URL with a token, on the port asked for, and stops cleanly.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeRendererDir } from '../web/testing/web-fixture';
import type { CliIo } from '../cli/io';
import { main } from './main';
import { webCommand } from './web-command';
import { withoutKeychain } from '../secrets/testing/no-keychain';

withoutKeychain();

function io(home: string): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stdin: process.stdin,
    interactive: false,
    env: { ...process.env, AGENVOY_HOME: home },
    cwd: home,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('agenvoy web', () => {
  it('serves on the asked port with a tokened 127.0.0.1 URL, then stops', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-webcmd-'));
    const port = await freePort();
    const stop = new AbortController();
    const cli = io(home);
    let url = '';
    const done = webCommand(['--port', String(port), '--workspace', home], cli, {
      rendererDir: fakeRendererDir(),
      stop: stop.signal,
      started: (printed) => (url = printed),
    });
    await expect.poll(() => url, { timeout: 10_000 }).not.toBe('');
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{43}$`));
    expect(cli.out.join('')).toContain(url);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(403);
    stop.abort();
    await expect(done).resolves.toBe(0);
  });

  it('refuses a bad port', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-webcmd-'));
    const cli = io(home);
    expect(await main(['web', '--port', 'abc'], cli)).toBe(2);
    expect(cli.err.join('')).toContain('--port must be a port number');
  });
});
