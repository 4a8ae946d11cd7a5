// A hostile MCP server answers with structured content nested hundreds of thousands of levels deep (docs/security.md,
// "A hostile MCP server"): within the 10 MiB message limit, and JSON.parse reads it, but everything that later walks
// the result recursively (JSON.stringify of the outcome, structured clone) overflows the stack. Through the real
// `agenvoy tools call --json` with a real child (fixtures/hostile-server.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/testing/cli-harness';
import { fixture } from './mcp-testing';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place(): { home: string; cwd: string } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-deep-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-deep-ws-'));
  made.push(home, cwd);
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: { bad: { command: process.execPath, args: [fixture('hostile-server.mjs')], trust: ['deep'] } },
    }),
  );
  return { home, cwd };
}

describe('a server answers with structured content nested 300,000 levels deep', () => {
  it('tools call --json prints an outcome instead of failing with a stack overflow', async () => {
    const run = await runCli(['tools', 'call', 'mcp__bad__deep', '{"depth":300000}', '--json'], place());
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    const outcome = JSON.parse(run.stdout.trim()) as { outcome: string; text: string; data?: unknown };
    expect(outcome).toMatchObject({ outcome: 'ok' });
    // The model reads the text and is told why the structured part is not there.
    expect(outcome.text).toMatch(/structured content .*nested deeper than 64 levels/);
    expect(outcome.data).toBeUndefined();
  });

  it('a result whose only content is that structure says why it is not shown', async () => {
    const run = await runCli(
      ['tools', 'call', 'mcp__bad__deep', '{"depth":300000, "only": true}', '--json'],
      place(),
    );
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    const outcome = JSON.parse(run.stdout.trim()) as { outcome: string; text?: string };
    expect(outcome).toMatchObject({ outcome: 'ok' });
    expect(outcome.text).toMatch(/structured content .*nested deeper than 64 levels/);
  });
});
