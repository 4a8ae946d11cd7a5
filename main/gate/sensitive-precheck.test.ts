// The quick pass that spares a trusted tool's call the full sensitive-target check (sensitive-precheck.ts) never
// hides what that check finds: for arguments built to name secrets every way the gate knows (names, globs, `~` and
// `$HOME`, `..`, links and hard links in the workspace, words inside prose), a trusted tool's call is decided exactly
// when a call needing approval would be told it touches a sensitive target.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/gate-port';
import { ConfirmGate } from './confirm-gate';
import { LISTING_FRESH_MS } from './sensitive-precheck';
import { RuleBook } from './rule-book';
import { RuleStore } from './rule-store';

function ground() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-precheck-')));
  const home = path.join(base, 'home');
  const agenvoy = path.join(base, 'agenvoy');
  const workspace = path.join(base, 'ws');
  for (const file of ['.ssh/id_rsa', '.aws/credentials', 'notes/plain.txt'])
    fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'key');
  fs.writeFileSync(path.join(home, '.aws', 'credentials'), 'x');
  fs.writeFileSync(path.join(home, 'notes', 'plain.txt'), 'x');
  fs.mkdirSync(path.join(agenvoy, 'desktop'), { recursive: true });
  fs.writeFileSync(path.join(agenvoy, 'mcp.json'), '{}');
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'src', 'a.ts'), 'x');
  fs.writeFileSync(path.join(workspace, 'README.md'), 'x');
  fs.symlinkSync(path.join(home, '.ssh'), path.join(workspace, 'keys'));
  fs.symlinkSync(path.join(home, '.ssh', 'id_rsa'), path.join(workspace, 'notes.txt'));
  fs.symlinkSync(path.join(home, 'notes'), path.join(workspace, 'elsewhere'));
  fs.linkSync(path.join(home, '.aws', 'credentials'), path.join(workspace, 'data.csv'));
  const gate = new ConfirmGate({
    rules: new RuleBook(RuleStore.inDesktop(path.join(agenvoy, 'desktop'))),
    sensitive: { homes: [home], agenvoyHome: agenvoy },
  });
  return { base, home, agenvoy, workspace, gate };
}

// A call of a trusted MCP tool as the gate is asked about it.
function request(args: Record<string, unknown>, workspace: string, pathsFrom?: string): ApprovalRequest {
  return {
    callId: 'c1',
    chatId: 'chat',
    tool: 'mcp__files__read',
    source: { kind: 'mcp', server: 'files', remoteName: 'read' },
    flags: { alwaysAllow: true, concurrent: true, background: false, systemUse: false },
    timeoutMs: 60_000,
    definitionHash: 'h',
    args,
    workspace,
    sandbox: 'none',
    ...(pathsFrom === undefined ? {} : { pathsFrom }),
  };
}

const ARGUMENTS = (home: string, agenvoy: string): Array<Record<string, unknown>> => [
  { message: 'm1' },
  { query: 'how do I load a .env file in node' },
  { path: 'README.md' },
  { path: 'src/a.ts' },
  { path: 'notes.txt' },
  { path: 'keys' },
  { path: 'keys/config' },
  { path: 'data.csv' },
  { path: 'elsewhere/plain.txt' },
  { path: '.env' },
  { path: 'certs/server.key' },
  { path: '~/.ssh/id_rsa' },
  { path: '$HOME/.aws/credentials' },
  { path: `${home}/.ssh/id_rsa` },
  { path: `${home}/notes/plain.txt` },
  { path: '../home/.ssh/id_rsa' },
  { path: '~/.s?h/id_rsa' },
  { path: `${agenvoy}/mcp.json` },
  { paths: ['README.md', ['deep', { file: 'notes.txt' }]] },
  { text: 'please read keys/config and README.md' },
  { text: 'notes.txt' },
  { url: 'https://example.com/a/b' },
  { cwd: 'src' },
  { command: 'cat notes.txt' },
  { nested: { deeper: { still: ['x', 'y', 'id_ed25519'] } } },
  { big: 'word '.repeat(200) },
];

describe('the quick pass before a trusted tool runs', () => {
  it('decides a call exactly when the full check finds a sensitive target', () => {
    const { workspace, home, agenvoy, gate } = ground();
    let decided = 0;
    for (const args of ARGUMENTS(home, agenvoy)) {
      const call = request(args, workspace);
      const full = gate.assess(call).sensitive !== null;
      expect({ args, decided: gate.namesSensitiveTarget(call) }).toEqual({ args, decided: full });
      if (full) decided++;
    }
    // Both kinds were met.
    expect(decided).toBeGreaterThan(10);
    expect(decided).toBeLessThan(ARGUMENTS(home, agenvoy).length - 5);
  });

  it("reads a server's relative names from its own folder, and those in the app's folder are decided", async () => {
    const { workspace, agenvoy, gate } = ground();
    const call = (args: Record<string, unknown>) =>
      gate.namesSensitiveTarget(request(args, workspace, agenvoy));
    expect(call({ path: 'mcp.json' })).toBe(true);
    expect(call({ path: './desktop' })).toBe(true);
    expect(call({ paths: ['x', 'desktop'] })).toBe(true);
    // Names that are not there, and links of the workspace, which this server does not read from.
    expect(call({ path: 'm1' })).toBe(false);
    expect(call({ path: 'notes.txt' })).toBe(false);
    expect(call({ query: 'read/write locks' })).toBe(false);
    // The folder's names are read again once it changed, looked at once a second at most: a file made there is
    // found by the calls after that second.
    expect(call({ path: 'later.json' })).toBe(false);
    fs.writeFileSync(path.join(agenvoy, 'later.json'), '{}');
    await new Promise((resolve) => setTimeout(resolve, LISTING_FRESH_MS + 50));
    expect(call({ path: 'later.json' })).toBe(true);
    // What names a secret by itself is decided wherever the server runs.
    expect(call({ path: '~/.ssh/id_rsa' })).toBe(true);
    expect(gate.assess(request({ path: 'mcp.json' }, workspace, agenvoy)).sensitive?.label).toContain(
      "Agenvoy's own folder",
    );
  });
});
