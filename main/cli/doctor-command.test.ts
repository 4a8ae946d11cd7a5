// `agenvoy doctor` in-process: each check against the real thing (the sandbox, the secret store, a local provider).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorCheck } from './doctor-command';
import type { CliIo } from './io';
import { main } from '../launcher/main';
import { startOpenAiTestServer } from '../agent/providers/testing/openai-test-server';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

async function doctor(settings: Record<string, unknown>): Promise<{ code: number; checks: DoctorCheck[] }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-doctor-'));
  dirs.push(home);
  fs.mkdirSync(path.join(home, 'desktop'));
  fs.writeFileSync(path.join(home, 'desktop', 'settings.json'), JSON.stringify(settings));
  let stdout = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: () => {},
    stdin: Readable.from([]),
    interactive: false,
    env: { AGENVOY_HOME: home, PATH: process.env.PATH },
    cwd: home,
  };
  const code = await main(['doctor', '--json'], io);
  return { code, checks: JSON.parse(stdout) as DoctorCheck[] };
}

describe('agenvoy doctor', () => {
  it('reports the sandbox, the secret backend, Chromium and a provider that answers', async () => {
    const server = http.createServer((_req, res) => res.writeHead(401).end('{"error":"no key"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const { code, checks } = await doctor({
        provider: 'openai',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        model: 'local',
        apiKeyName: null,
        web: { chromiumPath: '/nonexistent/chromium' },
        limits: { toolArgumentsBytes: 2 * 1024 * 1024, providerIdleSeconds: -1 },
      });
      const byName = Object.fromEntries(checks.map((check) => [check.name, check]));
      expect(byName.sandbox).toMatchObject({ level: 'ok', detail: expect.stringContaining('bubblewrap') });
      // A keychain where a Secret Service runs (ok), else the 0600 file (a warning): never a failure on Linux.
      expect(byName.keychain?.detail).toMatch(/^(keychain|file) \(/);
      expect(byName.keychain?.level).toBe(byName.keychain?.detail.startsWith('file') ? 'warn' : 'ok');
      expect(byName.chromium).toMatchObject({
        level: 'warn',
        detail: expect.stringContaining('/nonexistent/chromium'),
      });
      // The server answers but wants a key: it is there (a warning), and the words say what it wants.
      expect(byName.provider).toMatchObject({
        level: 'warn',
        detail: expect.stringMatching(/^openai at .* answered in \d+ ms: .*HTTP 401: it needs an API key/),
      });
      // The limits in force; the bad idle value is named and its default applies.
      expect(byName.limits?.level).toBe('warn');
      expect(byName.limits?.detail).toMatch(/^tool arguments 2\.0 MiB per call, provider events 8\.0 MiB/);
      expect(byName.limits?.detail).toMatch(/idle at most 300 s; .*"limits\.providerIdleSeconds" must be/);
      expect(code).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lists the models and says whether the chosen one is among them; no provider chosen points to setup', async () => {
    const server = await startOpenAiTestServer();
    try {
      server.models = ['local', 'other'];
      const settings = { provider: 'ollama', baseUrl: server.baseUrl };
      const ok = await doctor({ ...settings, model: 'local' });
      expect(ok.checks.find((check) => check.name === 'provider')).toMatchObject({
        level: 'ok',
        detail: expect.stringMatching(/^ollama at .* lists 2 models in \d+ ms; model local is among them$/),
      });
      const missing = await doctor({ ...settings, model: 'gone' });
      expect(missing.checks.find((check) => check.name === 'provider')).toMatchObject({
        level: 'warn',
        detail: expect.stringContaining('model gone is not among them'),
      });
      const fresh = await doctor({ model: 'x' });
      expect(fresh.checks.find((check) => check.name === 'provider')).toMatchObject({
        level: 'warn',
        detail: expect.stringContaining('no provider chosen yet: run `agenvoy setup`'),
      });
    } finally {
      await server.close();
    }
  });

  it('fails when the provider does not answer', async () => {
    const { code, checks } = await doctor({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKeyName: null,
    });
    expect(checks.find((check) => check.name === 'provider')).toMatchObject({
      level: 'fail',
      detail: expect.stringContaining('did not answer'),
    });
    expect(checks.find((check) => check.name === 'limits')).toMatchObject({
      level: 'ok',
      detail: expect.stringMatching(/^tool arguments 1\.0 MiB per call/),
    });
    expect(code).toBe(1);
  });
});
