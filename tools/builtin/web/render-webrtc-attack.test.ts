// Attack: a page rendered by download_file render=true in the system Chromium (the CLI's renderer) sends UDP to a
// service on this machine through WebRTC: a STUN server named by IP address needs no DNS and UDP never goes
// through the dead proxy, so a loopback UDP service gets the page's packets unless WebRTC is kept off UDP.
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { downloadFileTool } from '../download-file';
import { testContext } from '../../sdk/testing/tool-context';
import { DEFAULT_CHROMIUM_PATH } from '../../sdk/web/web-settings';
import type { LocalServer } from './testing/local-server';
import { startLocalServer } from './testing/local-server';

const CHROMIUM = process.env.AGENVOY_TEST_CHROMIUM || DEFAULT_CHROMIUM_PATH;
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

let workspace: string;
let udp: dgram.Socket;
let packets: Array<{ from: string; bytes: number }>;
const servers: LocalServer[] = [];
beforeEach(async () => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'render-webrtc-'));
  packets = [];
  udp = dgram.createSocket('udp4');
  udp.on('message', (msg, from) => packets.push({ from: from.address, bytes: msg.length }));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
});
afterEach(async () => {
  udp.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fs.rmSync(workspace, { recursive: true, force: true });
});

// STUN and TURN servers on this machine by address; the page waits for gathering before it is "loaded".
const webrtcPage = (
  port: number,
  tcpPort: number,
) => `<!doctype html><html><body><p id="mark">hostile page</p><script>
  const pc = new RTCPeerConnection({ iceServers: [
    { urls: 'stun:127.0.0.1:${port}' },
    { urls: 'turn:127.0.0.1:${port}?transport=udp', username: 'u', credential: 'p' },
    { urls: 'turn:127.0.0.1:${tcpPort}?transport=tcp', username: 'u', credential: 'p' },
  ] });
  pc.createDataChannel('x');
  pc.createOffer().then((offer) => pc.setLocalDescription(offer));
  pc.onicecandidate = (e) => { if (e.candidate) document.getElementById('mark').dataset.c = e.candidate.candidate; };
</script></body></html>`;

describe.skipIf(!HAVE_CHROMIUM)('a rendered page reaching this machine over WebRTC', () => {
  it('sends no UDP to a STUN or TURN server on a loopback address, nor TCP to a TURN server', async () => {
    const { port } = udp.address();
    const turn = await startLocalServer((_req, res) => res.end());
    servers.push(turn);
    const site = await startLocalServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(webrtcPage(port, turn.port));
    });
    servers.push(site);
    // The page's own host is allowed by name; this machine's address by itself is not.
    const web = {
      allowedHosts: ['evil.test'],
      chromiumPath: CHROMIUM,
      resolve: async () => [{ address: '127.0.0.1', family: 4 as const }],
    };
    const { ctx } = testContext({ workspace, services: { web } });
    await downloadFileTool.handler(
      { url: `http://evil.test:${site.port}/`, path: 'page.html', render: true },
      ctx,
    );
    const saved = fs.readFileSync(path.join(workspace, 'page.html'), 'utf8');
    expect(saved).toContain('hostile page');
    // Packets may still be on their way when the render ends.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(packets).toEqual([]);
    expect(turn.connections()).toBe(0);
    // Nor does the page learn this machine's addresses from its own candidates.
    expect(saved).not.toMatch(/data-c="[^"]*\b(127\.0\.0\.1|10\.|192\.168\.|172\.)/);
  }, 60_000);
});
