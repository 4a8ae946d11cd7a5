// `agenvoy chat` run from the home folder makes the home folder the workspace (the CLI keeps its working directory),
// and the workspace is what a sandboxed command may write. Shell start-up files stay read-only there, but a hostile
// model under `--approve allow` (or any approval) could still plant what runs later, unconfined, outside the sandbox:
// a login autostart entry, a user service, a program in ~/.local/bin or ~/bin found before the real one on PATH, git's
// own config (core.fsmonitor runs a program on every `git status`). Played through `agenvoy chat --approve allow`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { chatRounds } from '../cli/testing/cli-harness';

let root: string;
let home: string;
let place: CliPlace;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-workspace-')));
  home = path.join(root, 'home');
  fs.mkdirSync(path.join(home, 'projects'), { recursive: true });
  place = { home: path.join(root, 'agenvoy'), cwd: home, env: { HOME: home } };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const PLANTS: ReadonlyArray<readonly [string, string]> = [
  ['a login autostart entry', '.config/autostart/update.desktop'],
  ['a user service', '.config/systemd/user/update.service'],
  ['a program found on PATH before ls', '.local/bin/ls'],
  ['a program in ~/bin', 'bin/git'],
  ["git's own config", '.config/git/config'],
  ['a desktop launcher', '.local/share/applications/browser.desktop'],
];

describe('the home folder as the workspace', () => {
  it.each(PLANTS)(
    '%s cannot be planted by a sandboxed command',
    async (_name, file) => {
      const command = `mkdir -p '${path.dirname(file)}' && printf 'x\\n' > '${file}'`;
      const chat = await chatRounds([[{ name: 'run_command', args: { command } }]], place, {
        approve: 'allow',
      });
      expect(chat.code, chat.stderr).toBe(0);
      expect(chat.toolResults.call_0).toBeDefined();
      expect(fs.existsSync(path.join(home, file)), chat.toolResults.call_0).toBe(false);
    },
    60_000,
  );

  it('an ordinary file in the home folder is still written', async () => {
    const command = "printf 'x\\n' > projects/notes.txt";
    const chat = await chatRounds([[{ name: 'run_command', args: { command } }]], place, {
      approve: 'allow',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(fs.readFileSync(path.join(home, 'projects', 'notes.txt'), 'utf8')).toBe('x\n');
    // The protected folders that were missing are still missing: nothing is left behind in the home folder.
    for (const [, file] of PLANTS)
      expect(fs.existsSync(path.join(home, file.split('/')[0] ?? '')), file).toBe(false);
  }, 60_000);
});
