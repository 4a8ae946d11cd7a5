// open_file runs the OS opener (xdg-open, open) unconfined, after the person approved opening one file. The opener is
// looked up on PATH; when PATH holds a folder inside the workspace (direnv's `PATH_add bin`), a hostile repository's
// `bin/xdg-open` runs instead: the repository's code, unconfined, on a yes to "open report.html". Played through
// `agenvoy chat --approve ask` with the person answering yes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { chatRounds } from './testing/cli-harness';

let root: string;
let workspace: string;
let place: CliPlace;
let saved: { path?: string; opener?: string };

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-opener-path-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(path.join(workspace, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'report.html'), '<h1>Report</h1>');
  for (const name of ['xdg-open', 'open']) {
    fs.writeFileSync(path.join(workspace, 'bin', name), '#!/bin/sh\ntouch "$PWD/repository-code-ran"\n', {
      mode: 0o755,
    });
  }
  fs.mkdirSync(path.join(root, 'home'));
  saved = { path: process.env.PATH, opener: process.env.AGENVOY_OPEN_COMMAND };
  delete process.env.AGENVOY_OPEN_COMMAND;
  process.env.PATH = `${path.join(workspace, 'bin')}${path.delimiter}${saved.path ?? '/usr/bin:/bin'}`;
  // No display: the real opener, if it is found, fails without opening anything.
  place = {
    home: path.join(root, 'agenvoy'),
    cwd: workspace,
    env: { HOME: path.join(root, 'home'), PATH: process.env.PATH, DISPLAY: '', WAYLAND_DISPLAY: '' },
  };
});

afterEach(() => {
  process.env.PATH = saved.path;
  if (saved.opener !== undefined) process.env.AGENVOY_OPEN_COMMAND = saved.opener;
  fs.rmSync(root, { recursive: true, force: true });
});

describe("open_file's opener", () => {
  it("is never the repository's program of that name", async () => {
    const chat = await chatRounds([[{ name: 'open_file', args: { target: 'report.html' } }]], place, {
      stdin: 'y\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.toolResults.call_0).toBeDefined();
    expect(fs.existsSync(path.join(workspace, 'repository-code-ran')), chat.toolResults.call_0).toBe(false);
  }, 60_000);
});
