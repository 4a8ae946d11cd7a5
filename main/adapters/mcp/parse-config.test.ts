import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS } from './config-types';
import { parseMcpConfig } from './parse-config';
import { readMcpConfig } from './read-config';

const FILE = '/home/u/.config/agenvoy/mcp.json';

describe('parseMcpConfig', () => {
  it('reads stdio and HTTP servers with their defaults and seconds turned into ms', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          files: {
            command: 'npx',
            args: ['-y', 'server-files'],
            env: { ROOT: '/tmp' },
            timeout: 120,
            connectTimeout: 5,
          },
          remote: {
            url: 'https://example.test/mcp',
            headers: { Authorization: 'Bearer ${secret:TOKEN}' },
            trust: ['search'],
          },
        },
      }),
      FILE,
    );
    expect(parsed.error).toBeNull();
    expect(parsed.servers).toEqual([
      {
        ok: true,
        warnings: [],
        config: {
          name: 'files',
          endpoint: { kind: 'stdio', command: 'npx', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } },
          timeoutMs: 120_000,
          connectTimeoutMs: 5000,
          disabled: false,
          trust: { kind: 'none' },
          restartOnCancel: true,
        },
      },
      {
        ok: true,
        warnings: [],
        config: {
          name: 'remote',
          endpoint: {
            kind: 'http',
            url: 'https://example.test/mcp',
            headers: { Authorization: 'Bearer ${secret:TOKEN}' },
            sseOnly: false,
          },
          timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
          connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
          disabled: false,
          trust: { kind: 'tools', tools: ['search'] },
          restartOnCancel: true,
        },
      },
    ]);
  });

  it('reads restartOnCancel: false for a stdio server, and refuses it of the wrong type or for a URL', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          browser: { command: 'srv', restartOnCancel: false },
          typo: { command: 'srv', restartOnCancel: 'no' },
          remote: { url: 'https://example.test/mcp', restartOnCancel: false },
        },
      }),
      FILE,
    );
    const [browser, typo, remote] = parsed.servers;
    expect(browser).toMatchObject({ ok: true, config: { restartOnCancel: false } });
    expect(typo).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/restartOnCancel.*true or false/),
    });
    expect(remote).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/restartOnCancel.*needs "command"/),
    });
  });

  it('accepts the Claude-Desktop form and trust: true', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({ mcpServers: { a: { command: 'srv', trust: true, disabled: true } } }),
      FILE,
    );
    expect(parsed.servers[0]).toMatchObject({
      ok: true,
      config: { name: 'a', disabled: true, trust: { kind: 'read-only' } },
    });
  });

  it('ignores unknown keys with a warning naming the file and the server', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({ version: 2, servers: { a: { command: 'srv', autoStart: true } } }),
      FILE,
    );
    expect(parsed.warnings).toEqual([`${FILE}: unknown key "version" ignored`]);
    expect(parsed.servers[0]).toMatchObject({
      ok: true,
      warnings: [`${FILE}: server "a": unknown key "autoStart" ignored`],
    });
  });

  it('fails only the server with a wrong type, naming the file, the server and the field', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          bad: { command: 'srv', timeout: '90' },
          worse: { url: 'http://x', headers: { A: 1 } },
          good: { command: 'srv' },
        },
      }),
      FILE,
    );
    expect(parsed.servers.map((s) => s.ok)).toEqual([false, false, true]);
    expect(parsed.servers[0]).toMatchObject({
      ok: false,
      name: 'bad',
      reason: `${FILE}: server "bad": "timeout" must be a number of seconds above 0 and at most 86400 (got "90")`,
    });
    expect(parsed.servers[1]).toMatchObject({
      reason: `${FILE}: server "worse": "headers.A" must be a string (got 1)`,
    });
  });

  it('names the field of an array item, and refuses a field nested past the schema limits before reading it', () => {
    const deep = JSON.parse('['.repeat(100) + ']'.repeat(100)) as unknown;
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          items: { command: 'srv', args: ['-y', 3] },
          deep: { command: 'srv', args: deep },
          odd: { command: 'srv', trust: ['a', 1], extra: deep },
          good: { url: 'http://x', extra: deep },
        },
      }),
      FILE,
    );
    expect(parsed.servers.map((s) => (s.ok ? 'ok' : s.reason.split(': ').slice(2).join(': ')))).toEqual([
      '"args" must hold only strings (got 3)',
      expect.stringMatching(/^"args" is nested deeper than 64 levels \(at 0\.0\.0/),
      '"trust" must be true, false or an array of tool names (got an array)',
      'ok',
    ]);
  });

  it('rejects entries with neither or both of command and url, and stdio keys on an HTTP server', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        servers: {
          none: {},
          both: { command: 'a', url: 'http://b' },
          mixed: { url: 'http://b', args: ['x'] },
          notObject: 3,
        },
      }),
      FILE,
    );
    expect(parsed.servers.map((s) => (s.ok ? 'ok' : s.reason.split(': ').slice(2).join(': ')))).toEqual([
      'needs "command" (stdio) or "url" (HTTP)',
      'has both "command" and "url"; give one',
      '"args", "env" and "type": "stdio" need "command", not "url"',
      'must be an object with "command" or "url"',
    ]);
  });

  it('reports malformed JSON and a wrong top-level shape as a file error', () => {
    expect(parseMcpConfig('{"servers": {', FILE).error).toMatch(new RegExp(`^${FILE}: malformed JSON: `));
    expect(parseMcpConfig('[]', FILE).error).toBe(
      `${FILE}: must hold a JSON object with "servers" (or "mcpServers")`,
    );
    expect(parseMcpConfig('{"servers": []}', FILE).error).toBe(
      `${FILE}: "servers" must be an object mapping server names to their settings`,
    );
  });

  it('treats a missing or empty file as no servers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-config-'));
    expect(await readMcpConfig(path.join(dir, 'mcp.json'))).toEqual({
      file: path.join(dir, 'mcp.json'),
      servers: [],
      error: null,
      warnings: [],
    });
    fs.writeFileSync(path.join(dir, 'mcp.json'), '  \n');
    expect((await readMcpConfig(path.join(dir, 'mcp.json'))).servers).toEqual([]);
  });
});
