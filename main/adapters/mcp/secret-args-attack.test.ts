// A secret in a stdio server's command line (docs/secrets.md): mcp.json may pass `${secret:NAME}` as an argument
// (`--token ${secret:GITHUB_TOKEN}`), the way many servers take their key. Every live process group is recorded for
// crash recovery, and a chatting host writes each record to its database as the group starts
// (main/agent/chat-persistence.ts), "the command line already redacted". The MCP transport recorded the expanded
// command line, so the key's value went to disk in clear whenever a server (re)started in a chatting host.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupRecord } from '../../process/process-group';
import { everythingStdio, mcpHarness, waitFor } from './mcp-testing';

const SECRET = 'ghp_s3cretValueThatMustNotBeStored42';
let harness: ReturnType<typeof mcpHarness> | null = null;

afterEach(async () => {
  await harness?.dispose();
  harness = null;
});

describe('a secret passed to a stdio server as an argument', () => {
  it('reaches the server, but not the process-group record a chatting host persists', async () => {
    const server = everythingStdio();
    harness = mcpHarness(
      {
        servers: {
          ev: { ...server, args: [...(server.args as string[]), '--token', '${secret:API_TOKEN}'] },
        },
      },
      { getSecret: async (name) => (name === 'API_TOKEN' ? SECRET : undefined) },
    );
    const h = harness;
    const records: GroupRecord[] = [];
    h.groups.onChange((change) => {
      if (change.type === 'added') records.push(change.group);
    });
    await h.manager.start();
    expect(h.state('ev')).toMatchObject({ status: 'ready' });
    // The server got the value (its command line says so).
    const pid = h.manager.pid('ev') as number;
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toContain(SECRET);
    // A restart records the group again: neither record holds the value; they name the secret instead.
    process.kill(-pid, 'SIGKILL');
    await waitFor(() => h.state('ev')?.status === 'ready' && h.manager.pid('ev') !== pid, 10_000);
    expect(records).toHaveLength(2);
    for (const record of records) {
      expect(record.command).not.toContain(SECRET);
      expect(record.command).toContain('--token ${secret:API_TOKEN}');
    }
  });
});
