// Each capped stream gets exactly one "cut" note, through the real core (createCore): run_command's stdout and
// stderr, a script tool's stdout and its stderr, an MCP tool's output and its error text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../app';
import { createCore } from '../app';
import { fixture } from '../adapters/mcp/mcp-testing';
import { manifest, writeToolFolder } from '../adapters/script/script-testing';
import { SANDBOX_NOTES_BYTES } from '../../tools/sdk/process-port';
import { policyGate } from './gate-port';
import { capWithinLimit } from '../process/process-group';
import type { CallOutcome } from './outcome';
import { outcomeText } from './outcome';

const NOTE = /\[output truncated: [^\]]*\]/g;
const MIB = 1024 * 1024;

let home: string;
let workspace: string;
let core: Core;
beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-caps-'));
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-caps-ws-'));
  const scripts = path.join(home, 'tools', 'script');
  const flood = (stream: string, code: number) =>
    `process.${stream}.write('s'.repeat(3 * 1024 * 1024), () => process.exit(${code}));`;
  writeToolFolder(scripts, 'flood_out', { manifest: manifest('flood_out'), js: flood('stdout', 0) });
  writeToolFolder(scripts, 'flood_err', { manifest: manifest('flood_err'), js: flood('stderr', 1) });
  fs.writeFileSync(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: { flood: { command: process.execPath, args: [fixture('flood-server.mjs')] } },
    }),
  );
  core = await createCore({ home, workspace, gate: policyGate('allow'), sandbox: null, mcp: 'wait' });
}, 30_000);
afterAll(async () => {
  await core?.close();
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(workspace, { recursive: true, force: true });
});

let calls = 0;
async function call(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  return core.dispatcher.dispatch({ id: `c${++calls}`, name, args }, { chatId: 'caps', workspace });
}

function notes(text: string): string[] {
  return text.match(NOTE) ?? [];
}

describe('output caps: one note per capped stream', () => {
  it('run_command: stdout and stderr each get one note, and nothing cuts the result again', async () => {
    const outcome = await call('run_command', {
      command: "head -c 2000000 /dev/zero | tr '\\0' a; head -c 2000000 /dev/zero | tr '\\0' b >&2",
      sandbox: false,
    });
    expect(outcome.outcome).toBe('ok');
    const text = outcomeText(outcome);
    const [stdout = '', stderr = ''] = text.split('\nstderr:\n');
    expect(notes(stdout)).toHaveLength(1);
    expect(notes(stderr)).toHaveLength(1);
    // The stderr tail survives to the end: no second cap cut into it.
    expect(text.endsWith('b'.repeat(100))).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MIB);
  });

  it('a script tool: its stdout (success) and its stderr (failure) each get one note', async () => {
    const ok = outcomeText(await call('script_flood_out', {}));
    // The stream keeps 1 MiB less the room for its note and for the sandbox's notes.
    const cut = `[output truncated: ${(3 * MIB - capWithinLimit(MIB - SANDBOX_NOTES_BYTES)).toLocaleString('en-US')} bytes cut]`;
    expect(notes(ok)).toEqual([cut]);
    expect(ok.endsWith('s'.repeat(100))).toBe(true);
    const failed = await call('script_flood_err', {});
    expect(failed.outcome).toBe('error');
    expect(notes(outcomeText(failed))).toEqual([cut]);
  });

  it('an MCP tool: one note for a long text, with later parts, and for a long error', async () => {
    const one = outcomeText(await call('mcp__flood__flood', { bytes: 3 * MIB }));
    expect(notes(one)).toHaveLength(1);
    expect(Buffer.byteLength(one)).toBeLessThanOrEqual(MIB);
    const parts = outcomeText(await call('mcp__flood__flood', { bytes: 3 * MIB, extra: 3 }));
    expect(notes(parts)).toEqual([expect.stringMatching(/bytes cut, with 3 more parts\]$/)]);
    const failed = await call('mcp__flood__fail', { bytes: 3 * MIB });
    expect(failed.outcome).toBe('error');
    expect(notes(outcomeText(failed))).toHaveLength(1);
  });
});
