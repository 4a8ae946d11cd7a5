// A hostile repository's command, approved once as harmless (`node test.js`), reading credentials the sandbox showed
// (docs/security.md, "The sandbox"): ~/.git-credentials was hidden, but git's second store beside its config,
// ~/.config/git/credentials, was shown with the rest of ~/.config/git; so was npm's global config in a per-user
// Node's prefix (~/.nvm/versions/node/*/etc/npmrc, ~/.npm-global/etc/npmrc), and a ~/.gitconfig whose `insteadOf`
// URL carries a token. The gate did not name the first two either, so an allow rule for `cat` printed them with
// nobody asked. Through the real `agenvoy tools call` and bubblewrap.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from '../cli/testing/cli-harness';

const CANARY = 'CANARY-cred-8e2a';
let root: string;
let home: string;
let userHome: string;
let cwd: string;

const put = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-cred-')));
  home = path.join(root, 'agenvoy');
  userHome = path.join(root, 'home');
  cwd = path.join(root, 'ws');
  fs.mkdirSync(home, { recursive: true });
  put(path.join(userHome, '.config', 'git', 'credentials'), `https://alice:${CANARY}-xdg@github.com\n`);
  put(
    path.join(userHome, '.nvm', 'versions', 'node', 'v20.11.0', 'etc', 'npmrc'),
    `//r/:_authToken=${CANARY}-nvm\n`,
  );
  put(path.join(userHome, '.npm-global', 'etc', 'npmrc'), `//r/:_authToken=${CANARY}-global\n`);
  // Found later: other managers' prefixes, and pip's config in a Python prefix.
  put(
    path.join(userHome, '.nvm', 'versions', 'io.js', 'v3.3.1', 'etc', 'npmrc'),
    `//r/:_authToken=${CANARY}-iojs\n`,
  );
  put(
    path.join(userHome, '.local', 'share', 'pnpm', 'nodejs', '20.11.0', 'etc', 'npmrc'),
    `t=${CANARY}-pnpm\n`,
  );
  put(path.join(userHome, 'miniconda3', 'etc', 'npmrc'), `//r/:_authToken=${CANARY}-conda\n`);
  put(
    path.join(userHome, '.pyenv', 'versions', '3.11.4', 'pip.conf'),
    `index-url = https://u:${CANARY}-pip@r/\n`,
  );
  put(path.join(userHome, '.nvm', 'versions', 'node', 'v20.11.0', 'bin', 'tool'), 'a toolchain file\n');
  put(path.join(cwd, 'README.md'), 'hello\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (command: string) =>
  runBin(['tools', 'call', 'run_command', JSON.stringify({ command }), '--yes', '--workspace', cwd], {
    home,
    cwd,
    env: { HOME: userHome },
  });

describe('credential files under the home', () => {
  it('are hidden from an approved sandboxed command; the toolchain beside them is not', async () => {
    for (const file of [
      '.config/git/credentials',
      '.nvm/versions/node/v20.11.0/etc/npmrc',
      '.npm-global/etc/npmrc',
      '.nvm/versions/io.js/v3.3.1/etc/npmrc',
      '.local/share/pnpm/nodejs/20.11.0/etc/npmrc',
      'miniconda3/etc/npmrc',
      '.pyenv/versions/3.11.4/pip.conf',
    ]) {
      const result = await run(`cat "$HOME/${file}"`);
      expect(result.stdout + result.stderr, file).not.toContain(CANARY);
    }
    const toolchain = await run('cat "$HOME/.nvm/versions/node/v20.11.0/bin/tool"');
    expect(toolchain.stdout).toContain('a toolchain file');
  }, 120_000);

  it('a ~/.gitconfig holding a token is hidden; one holding only a name is shown', async () => {
    put(path.join(userHome, '.gitconfig'), '[user]\n\tname = Alice\n');
    const plain = await run('cat "$HOME/.gitconfig"');
    expect(plain.stdout).toContain('name = Alice');
    put(
      path.join(userHome, '.gitconfig'),
      `[user]\n\tname = Alice\n[url "https://x-access-token:${CANARY}-gc@github.com/"]\n\tinsteadOf = https://github.com/\n`,
    );
    const token = await run('cat "$HOME/.gitconfig"');
    expect(token.stdout + token.stderr).not.toContain(CANARY);
    put(path.join(userHome, '.gitconfig'), `[http]\n\textraHeader = Authorization: Bearer ${CANARY}-hdr\n`);
    const header = await run('cat "$HOME/.gitconfig"');
    expect(header.stdout + header.stderr).not.toContain(CANARY);
    // Found later: a token with no password, a helper that echoes one, and an included file that holds one.
    for (const config of [
      `[url "https://ghp_${CANARY.replace(/-/g, '')}x0123456789@github.com/"]\n\tinsteadOf = https://github.com/\n`,
      `[credential]\n\thelper = "!f() { echo username=x; echo password=${CANARY}-helper; }; f"\n`,
    ]) {
      put(path.join(userHome, '.gitconfig'), config);
      const shown = await run('cat "$HOME/.gitconfig"');
      expect(shown.stdout + shown.stderr).not.toContain(CANARY.replace(/-/g, ''));
      expect(shown.stdout + shown.stderr).not.toContain(CANARY);
    }
    put(
      path.join(userHome, '.config', 'git', 'config'),
      '[include]\n\tpath = tokens.inc\n[user]\n\tname = Alice\n',
    );
    put(
      path.join(userHome, '.config', 'git', 'tokens.inc'),
      `[url "https://x:${CANARY}-inc@github.com/"]\n\tinsteadOf = g:\n`,
    );
    const included = await run('cat "$HOME/.config/git/tokens.inc"; cat "$HOME/.config/git/config"');
    expect(included.stdout + included.stderr).not.toContain(CANARY);
    expect(included.stdout).toContain('name = Alice');
  }, 120_000);

  it('the gate names them: an allow rule for `cat` does not cover them (denied with nobody to ask)', async () => {
    const rule = await runBin(['rules', 'add', '--tool', 'run_command', '--pattern', 'cat **', '--allow'], {
      home,
      cwd,
      env: { HOME: userHome },
    });
    expect(rule.code, rule.stderr).toBe(0);
    for (const file of ['~/.config/git/credentials', '~/.npm-global/etc/npmrc']) {
      const result = await runBin(
        ['tools', 'call', 'run_command', JSON.stringify({ command: `cat ${file}` }), '--workspace', cwd],
        { home, cwd, env: { HOME: userHome } },
      );
      expect(result.stdout + result.stderr, file).toMatch(/denied: .*(git credentials|npm's global config)/);
      expect(result.stdout + result.stderr, file).not.toContain(CANARY);
    }
  }, 120_000);
});
