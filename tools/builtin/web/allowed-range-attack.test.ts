// Attack: web.allowedHosts holds a range the guard cannot read ("10.0.0.0/8 office", two ranges joined by a comma,
// "/8x", "/-1", "/"): its prefix was read as NaN or a negative number, which matched every address, so one mistyped
// entry meant for one private network let the model reach this machine and cloud metadata. Through the real
// http_request and a real server on 127.0.0.1 (through `agenvoy tools call`: main/cli/allowed-range-attack.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpRequestTool } from '../http-request';
import { testContext } from '../../sdk/testing/tool-context';
import type { LocalServer } from './testing/local-server';
import { startLocalServer } from './testing/local-server';

let server: LocalServer;
beforeEach(async () => {
  server = await startLocalServer((_req, res) => res.end('internal admin panel'));
});
afterEach(async () => {
  await server.close();
});

const request = (allowedHosts: string[]) =>
  httpRequestTool.handler(
    { url: `${server.url}/`, timeout: 5 },
    testContext({ services: { web: { allowedHosts } } }).ctx,
  );

describe('a range in web.allowedHosts that cannot be read', () => {
  it.each([
    '10.0.0.0/8 office',
    '192.168.0.0/16,10.0.0.0/8',
    '10.0.0.0/8x',
    '10.0.0.0/-1',
    '10.0.0.0/',
    '10.0.0.0/33',
    'fd00::/200',
  ])('%s allows nothing, this machine included', async (entry) => {
    await expect(request([entry])).rejects.toMatchObject({ code: 'blocked_address' });
    expect(server.connections()).toBe(0);
  });

  it('a range that can be read still allows its addresses', async () => {
    const result = (await request(['127.0.0.0/8'])) as { content: Array<{ text: string }> };
    expect(result.content[0]?.text).toContain('internal admin panel');
  });
});
