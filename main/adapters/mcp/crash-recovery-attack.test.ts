// A stdio MCP server left behind by a crash (docs/dispatch.md, "Process-tree kill"): every process group is recorded
// for crash recovery as it starts, and the next start kills those a crashed run never saw finish. The record is
// written by a listener the chat side attaches after the core has started, and MCP servers connected before it (the
// CLI chat waits for them) were never recorded: a server that outlives its closed stdin, or a helper of it, ran on
// after a crash forever. Through the real desktop composition (openAppHost), twice on one $AGENVOY_HOME: the first
// host "crashes" (is left open, so its server lives on), the second starts and must kill that server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppHost } from '../../host/open-app-host';
import { openAppHost } from '../../host/open-app-host';
import { fixture, waitFor } from './mcp-testing';
import { processAlive } from '../../process/testing/process-alive';

const saved = { bus: process.env.DBUS_SESSION_BUS_ADDRESS, display: process.env.DISPLAY };
const hosts: AppHost[] = [];
const made: string[] = [];

afterEach(async () => {
  for (const host of hosts.splice(0).reverse()) await host.close().catch(() => {});
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  if (saved.bus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = saved.bus;
  if (saved.display !== undefined) process.env.DISPLAY = saved.display;
});

describe.skipIf(process.platform !== 'linux')('a stdio MCP server after a crash of the app', () => {
  it.each(['wait', 'background'] as const)(
    'connected with mcp=%s: it is recorded, and the next start kills it',
    async (mcp) => {
      delete process.env.DBUS_SESSION_BUS_ADDRESS;
      delete process.env.DISPLAY;
      const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-crash-home-'));
      const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-crash-ws-'));
      made.push(home, workspace);
      fs.writeFileSync(
        path.join(home, 'mcp.json'),
        JSON.stringify({
          servers: { stub: { command: process.execPath, args: [fixture('stubborn-server.mjs')] } },
        }),
      );
      const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', AGENVOY_HOME: home };
      const first = await openAppHost({ mode: 'web', home, workspace, env, mcp, watchScripts: false });
      hosts.push(first);
      const pid = await waitFor(() => first.core.mcp.pid('stub'), 10_000);
      expect(processAlive(pid)).toBe(true);
      // The first host crashes here: it never closes, so nothing of it stops the server. Of its process only what the
      // kernel lets go at a death goes: the history's file and its live lock (main/store/live-lock.ts), without which
      // the next start takes the first for a live process and recovers nothing.
      first.runtime.store.close();
      const second = await openAppHost({
        mode: 'web',
        home,
        workspace,
        env,
        mcp: 'off',
        watchScripts: false,
      });
      hosts.push(second);
      await waitFor(() => !processAlive(pid), 3000);
    },
  );
});
