// URL rules matched as the WHATWG parser reads a URL, end to end through the real dispatcher and the ConfirmGate
// with nobody to ask: `https://*.example.com/**` must not allow a URL that only contains `.example.com` as text,
// and a deny rule must not be talked past by spelling the same URL differently.
import { describe, expect, it } from 'vitest';
import { matchRules } from './rule-match';
import { canonicalArgument } from './canonical-argument';
import { gateFixture, recordingTool } from './testing/gate-fixture';
import type { ApprovalRequest } from '../core/gate-port';

const fetchTool = (runs: string[]) =>
  recordingTool('fetch_url', runs, { url: { type: 'string', description: 'x' } });

async function outcomes(patterns: { allow?: string; deny?: string }, urls: string[]) {
  const runs: string[] = [];
  const fx = gateFixture({ prompter: null, extraTools: [fetchTool(runs)] });
  if (patterns.allow)
    await fx.gate.rules.add({ tool: 'fetch_url', pattern: patterns.allow, effect: 'allow' });
  if (patterns.deny) await fx.gate.rules.add({ tool: 'fetch_url', pattern: patterns.deny, effect: 'deny' });
  const result: Record<string, string> = {};
  for (const [i, url] of urls.entries()) {
    const outcome = await fx.dispatcher.dispatch(
      { id: `u${i}`, name: 'fetch_url', args: { url } },
      { chatId: 'c', workspace: '/' },
    );
    result[url] =
      outcome.outcome === 'denied' && outcome.message.includes('always denies')
        ? 'denied by rule'
        : outcome.outcome;
  }
  return { result, runs };
}

describe('URL-rule bypasses', () => {
  it('never lets a URL pass for *.example.com by text: query, fragment, backslash, userinfo, host suffix', async () => {
    const attacks = [
      'http://127.0.0.1:18084?.example.com/',
      'http://127.0.0.1:18084/?.example.com/',
      'http://127.0.0.1:18084#.example.com/',
      'http://127.0.0.1:18084\\.example.com/',
      'https://evil.com\\@x.example.com/',
      'https://a.example.com@evil.com/',
      'https://a.example.com:443@evil.com/',
      'https://a.example.com%40evil.com/',
      'https://evil.com/.example.com/',
      'https://evil.com/x/https://a.example.com/',
      'https://a.example.com.evil.com/',
      'https://a.example.com.evil.com./',
      'https://a.example.com%2eevil.com/',
      'HTTPS://A.EXAMPLE.COM.EVIL.COM/',
      'https://a.example.co/',
      'https://example.com/',
      'https://a.example.com:8443/',
      'http://a.example.com/',
      'ftp://a.example.com/',
      'https://user:pass@a.example.com/',
      'https://a.example.com:99999/',
      'https://[::1/',
      'not a url .example.com',
      'https://a.exаmple.com/',
    ];
    const allowed = [
      'https://a.example.com/',
      'https://A.Example.COM./x?y=1',
      'https://a.example.com:443/docs',
      'https://a.b.example.com/',
    ];
    const { result, runs } = await outcomes({ allow: 'https://*.example.com/**' }, [...attacks, ...allowed]);
    for (const url of attacks) expect(result[url], url).toBe('denied');
    for (const url of allowed) expect(result[url], url).toBe('ok');
    expect(runs).toHaveLength(allowed.length);
  });

  it('does not let a path rule be left through encoded dots and slashes', async () => {
    const { result } = await outcomes({ allow: 'https://api.example.com/public/**' }, [
      'https://api.example.com/public/%2e%2e/admin',
      'https://api.example.com/public/..%2fadmin',
      'https://api.example.com/public/%2E%2E%2Fadmin',
      'https://api.example.com/public/..%5cadmin',
      'https://api.example.com/public/docs',
    ]);
    expect(Object.values(result)).toEqual(['denied', 'denied', 'denied', 'denied', 'ok']);
  });

  it('denies a URL whatever its spelling once a deny rule names it', async () => {
    const spellings = [
      'https://evil.com/x',
      'HTTPS://EVIL.COM/x',
      'https://evil.com./x',
      'https://evil.com:443/x',
      'https://user@evil.com/x',
      'https://%65vil.com/x',
      'https://evil.com/%78',
      'https://evil.com/a/../x',
      'https://xn--e1afmkfd.com/',
    ];
    const { result, runs } = await outcomes(
      { allow: 'https://**', deny: 'https://evil.com/**' },
      spellings.slice(0, -1),
    );
    for (const url of spellings.slice(0, -1)) expect(result[url], url).toBe('denied by rule');
    expect(runs).toEqual([]);
    const idn = await outcomes({ allow: 'https://**', deny: 'https://пример.com/**' }, [
      'https://xn--e1afmkfd.com/',
      'https://ПРИМЕР.com/',
    ]);
    expect(Object.values(idn.result)).toEqual(['denied by rule', 'denied by rule']);
  });

  it('keeps the text reading for deny rules and never applies a URL pattern to what is not a URL', () => {
    const request = (args: Record<string, unknown>): ApprovalRequest => ({
      callId: 'c',
      chatId: 'c',
      tool: 'fetch_url',
      source: { kind: 'builtin' },
      flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
      timeoutMs: 1000,
      definitionHash: 'h',
      args,
      workspace: '/',
      sandbox: 'none',
    });
    const rule = (effect: 'allow' | 'deny', pattern: string) => ({
      origin: 'user' as const,
      id: effect,
      tool: 'fetch_url',
      pattern,
      except: [],
      effect,
      createdAt: '',
      definitions: {},
    });
    const match = (pattern: string, effect: 'allow' | 'deny', url: string) =>
      matchRules([rule(effect, pattern)], request({ url }), canonicalArgument('fetch_url', { url })).kind;
    expect(match('https://evil.com/**', 'deny', 'https://EVIL.com:443/x')).toBe('deny');
    expect(match('https://evil.com/**', 'allow', 'https://evil.com/x')).toBe('allow');
    expect(match('http://*', 'deny', 'http://not a url')).toBe('deny');
    expect(match('https://*.example.com/**', 'allow', 'https://a.example.com/x#frag')).toBe('allow');
    expect(match('https://user@a.example.com/**', 'allow', 'https://user@a.example.com/x')).toBe('none');
  });
});
