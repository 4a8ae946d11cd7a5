// open_file is "for the user to look at", and the person approves the target they read. A hostile repository ships a
// launcher under a harmless name: `report.html` a symlink to `setup.command` (macOS runs it in Terminal), a `.desktop`
// entry, a Windows `.bat` or `.lnk`. The OS opener resolves the link and starts the program, unconfined, after an
// approval for "report.html". Played through `agenvoy chat --approve ask` with the person answering yes; the opener is
// replaced by a recorder (AGENVOY_OPEN_COMMAND), so what it was handed is what the OS would have started.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { chatRounds } from './testing/cli-harness';

let root: string;
let workspace: string;
let place: CliPlace;
let opened: string;
let saved: string | undefined;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-open-launcher-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(path.join(workspace, 'docs'), { recursive: true });
  fs.mkdirSync(path.join(root, 'home'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  opened = path.join(root, 'opened.txt');
  const opener = path.join(root, 'opener.sh');
  fs.writeFileSync(opener, `#!/bin/sh\nprintf '%s\\n' "$1" >> ${JSON.stringify(opened)}\n`, { mode: 0o755 });
  saved = process.env.AGENVOY_OPEN_COMMAND;
  process.env.AGENVOY_OPEN_COMMAND = opener;
});

afterEach(() => {
  if (saved === undefined) delete process.env.AGENVOY_OPEN_COMMAND;
  else process.env.AGENVOY_OPEN_COMMAND = saved;
  fs.rmSync(root, { recursive: true, force: true });
});

const openedTargets = () => (fs.existsSync(opened) ? fs.readFileSync(opened, 'utf8') : '');

describe('open_file handed a program the OS would start', () => {
  it.each([
    ['report.html linked to a macOS .command', 'docs/report.html', 'setup.command'],
    ['report.html linked to a .desktop entry', 'docs/report.html', 'tool.desktop'],
    ['a Windows batch file', 'docs/install.bat', null],
    ['a Windows shortcut', 'docs/Manual.lnk', null],
    ['a macOS app bundle', 'docs/Viewer.app', null],
  ])(
    '%s is not opened',
    async (_name, target, linkedTo) => {
      const file = path.join(workspace, target);
      if (linkedTo) {
        fs.writeFileSync(path.join(workspace, linkedTo), '#!/bin/sh\ntouch /tmp/pwned\n', { mode: 0o755 });
        fs.symlinkSync(path.join('..', linkedTo), file);
      } else if (target.endsWith('.app')) {
        fs.mkdirSync(path.join(file, 'Contents', 'MacOS'), { recursive: true });
      } else {
        fs.writeFileSync(file, '@echo off\r\n');
      }
      const chat = await chatRounds([[{ name: 'open_file', args: { target } }]], place, { stdin: 'y\n' });
      expect(chat.code, chat.stderr).toBe(0);
      expect(openedTargets()).toBe('');
      expect(chat.toolResults.call_0).toMatch(/starts as a program/);
    },
    60_000,
  );

  it('a document is still opened, by its real path', async () => {
    fs.writeFileSync(path.join(workspace, 'docs', 'guide.html'), '<h1>Guide</h1>');
    fs.symlinkSync('guide.html', path.join(workspace, 'docs', 'latest.html'));
    const chat = await chatRounds([[{ name: 'open_file', args: { target: 'docs/latest.html' } }]], place, {
      stdin: 'y\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(openedTargets().trim()).toBe(path.join(workspace, 'docs', 'guide.html'));
  }, 60_000);
});
