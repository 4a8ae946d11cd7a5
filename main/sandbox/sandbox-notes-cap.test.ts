// A command or script that floods its output and leaves hundreds of things the sandbox reports still gets a result
// within 1 MiB, with exactly one truncation note and the report cut short (docs/robustness.md), through the real
// sandbox and `agenvoy tools call` with a person's --yes for that call.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { manifest, writeToolFolder } from '../adapters/script/script-testing';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

const MIB = 1024 * 1024;
const NOTE = /\[output truncated: [^\]]*\]/g;
let root: string;
let place: CliPlace;
let workspace: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-notes-cap-')));
  workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  fs.mkdirSync(path.join(root, 'home'));
  fs.mkdirSync(place.home);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

// 400 repository links, each with a long name, then 3 MB of output.
const LINKS = 400;
const longName = 'r'.repeat(120);
const shellFlood =
  `for i in $(seq ${LINKS}); do mkdir -p ${longName}$i && echo "gitdir: /nowhere" > ${longName}$i/.git; done; ` +
  "head -c 3000000 /dev/zero | tr '\\0' a";

async function call(name: string, args: Record<string, unknown>) {
  const run = await runCli(
    ['tools', 'call', name, JSON.stringify(args), '--yes', '--json', '--workspace', workspace],
    place,
  );
  return JSON.parse(run.stdout) as { outcome: string; text: string };
}

function checkResult(text: string): void {
  expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MIB);
  expect(text.match(NOTE)?.length).toBe(1);
  expect(text).toMatch(/created a git repository or link at/);
  // The report is cut, not all 400 links.
  expect(text).toMatch(/…/);
  expect(text.split('created a git repository or link').length - 1).toBeLessThan(LINKS);
}

describe('sandbox notes on a flooded result', () => {
  it('run_command: one note and a bounded report, within 1 MiB', async () => {
    const outcome = await call('run_command', { command: shellFlood });
    expect(outcome.outcome).toBe('ok');
    checkResult(outcome.text);
  }, 60_000);

  it('a script tool: one note and a bounded report, within 1 MiB', async () => {
    writeToolFolder(path.join(place.home, 'tools', 'script'), 'flood', {
      manifest: manifest('flood'),
      js: [
        "const fs = require('node:fs');",
        `for (let i = 1; i <= ${LINKS}; i++) {`,
        `  fs.mkdirSync('${longName}' + i, { recursive: true });`,
        `  fs.writeFileSync('${longName}' + i + '/.git', 'gitdir: /nowhere');`,
        '}',
        "process.stdout.write('a'.repeat(3000000), () => process.exit(0));",
      ].join('\n'),
    });
    const outcome = await call('script_flood', {});
    expect(outcome.outcome).toBe('ok');
    checkResult(outcome.text);
  }, 60_000);
});
