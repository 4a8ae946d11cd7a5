import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalArgument } from './canonical-argument';
import { commandPlace } from './command-place';
import { realPath } from './real-path';
import { commandWords } from './shell-words';
import { findSensitiveTarget, secretStoreCommand, sensitivePath } from './sensitive-targets';

const options = { homes: ['/home/ann'], agenvoyHome: '/home/ann/.config/agenvoy' };
const custom = { homes: ['/home/ann'], agenvoyHome: '/srv/agenvoy-home' };

function hit(tool: string, args: Record<string, unknown>, opts = options) {
  return findSensitiveTarget(args, canonicalArgument(tool, args), opts);
}

describe('sensitive paths', () => {
  it.each([
    ['~/.ssh/id_ed25519', 'SSH keys'],
    ['/home/ann/.ssh/config', 'SSH keys'],
    ['../.ssh/known_hosts', 'SSH keys'],
    ['../../.SSH', 'SSH keys'],
    ['$HOME/.aws/credentials', 'AWS credentials'],
    ['${HOME}/.gnupg/private-keys-v1.d', 'GnuPG keys'],
    ['~/.local/share/keyrings/login.keyring', 'a keyring'],
    ['/Users/ann/Library/Keychains/login.keychain-db', 'a keychain'],
    ['login.keychain', 'a keychain file'],
    ['.env', 'a .env file'],
    ['app/.env.production', 'a .env file'],
    ['C:\\Users\\ann\\.ssh\\id_rsa', 'SSH keys'],
    ['/home/ann/.config/agenvoy/.secrets', 'the secret file'],
    ['~/.config/agenvoy/desktop/approval-rules.json', "Agenvoy's own folder"],
    ['project/.config/agenvoy/tools/script/x/tool.json', "Agenvoy's own folder"],
    ['~/.s?h/id_rsa', 'SSH keys'],
    ['~/.s*/id_rsa', ''],
    ['~/.*/id_rsa', ''],
    ['~/.local/share/keyr*/login.keyring', 'a keyring'],
    ['~/.[s]sh', 'SSH keys'],
    ['~/.kube/config', 'Kubernetes'],
    ['certs/server.key', 'a private key or certificate file (*.key)'],
    ['./deploy.PEM', 'a private key or certificate file (*.pem)'],
    ['certs/*.key', 'a private key or certificate file'],
    ['release/upload.jks', 'a private key or certificate file (*.jks)'],
    ['android/app.keystore', 'a private key or certificate file (*.keystore)'],
  ])('%s is sensitive (%s)', (text, label) => {
    expect(sensitivePath(text, options)).toContain(label);
  });

  it.each([
    '~/projects/app/src/env.ts',
    'README.md',
    '/tmp/ssh-notes.txt',
    '.environment-notes',
    '~/*/x',
    'src/*s/*.ts',
    'src/keys.ts',
    'docs/pem-format.md',
    'api.key.ts',
    'certs/*',
  ])('%s is not', (text) => {
    expect(sensitivePath(text, options)).toBeNull();
  });

  it('treats everything under a custom $AGENVOY_HOME as sensitive, after resolving ..', () => {
    expect(sensitivePath('/srv/agenvoy-home/mcp.json', custom)).toContain("Agenvoy's own folder");
    expect(sensitivePath('/srv/other/../agenvoy-home/tools/script/x/tool.json', custom)).toContain(
      "Agenvoy's own folder",
    );
    expect(sensitivePath('$AGENVOY_HOME/.secrets', custom)).toContain('secret file');
    expect(sensitivePath('/srv/agenvoy-homework/x', custom)).toBeNull();
  });

  it('counts a folder that contains a secret store when it is what a call acts on', () => {
    expect(sensitivePath('~', options, true)).toContain('contains /home/ann/.ssh');
    expect(sensitivePath('/', options, true)).toContain('contains');
    expect(sensitivePath('/home/ann/projects', options, true)).toBeNull();
    expect(sensitivePath('~', options, false)).toBeNull();
  });
});

describe('secret-store commands', () => {
  it.each([
    'secret-tool lookup service agenvoy',
    'security find-generic-password -s agenvoy -w',
    '/usr/bin/security dump-keychain',
    'sudo -u root security find-generic-password',
    'env A=1 pass show email',
    'bash -c "gpg --export-secret-keys"',
    'FOO=1 op read op://vault/item',
    "python3 -c \"import subprocess; subprocess.run(['secret-tool', 'lookup'])\"",
    's\\ecret-tool lookup x',
    '"secret"-tool lookup x',
    '/usr/bin/secret-t??l lookup x',
    'git status && keyctl print 1',
  ])('%s reads a secret store', (line) => {
    expect(secretStoreCommand(line)).toMatch(/secret-store command/);
  });

  it.each(['git log --grep security', 'echo pass', 'npm run op', 'ls -la'])('%s does not', (line) => {
    expect(secretStoreCommand(line)).toBeNull();
  });

  it('finds the words in command position', () => {
    expect(commandWords('A=1 git log | grep x; sudo -u me cat f && bash -lc "ls -a"')).toEqual([
      'git',
      'grep',
      'sudo',
      '-u',
      'me',
      'cat',
      'f',
      'bash',
      'ls',
    ]);
  });
});

describe('findSensitiveTarget', () => {
  it('finds a sensitive path inside a command line', () => {
    expect(hit('run_command', { command: 'cat ~/.aws/credentials' })).toEqual({
      label: 'AWS credentials (~/.aws)',
      argument: 'command',
    });
    expect(hit('run_command', { command: 'tar czf /tmp/k.tgz -C /home/ann .ssh' })?.label).toContain(
      'SSH keys',
    );
    expect(
      hit('run_command', { command: 'cp --target-directory=/tmp "$HOME/.gnupg/pubring.kbx"' })?.label,
    ).toContain('GnuPG');
    expect(hit('run_command', { command: 'ls ~' })?.label).toContain('contains');
    expect(hit('run_command', { command: 'secret-tool lookup a b' })?.label).toContain('secret-tool');
  });

  it('reads every string argument, at any depth, and the working folder', () => {
    expect(hit('read_file', { path: '../.ssh/id_rsa' })).toMatchObject({ argument: 'path' });
    expect(hit('copy_files', { items: [{ from: 'a' }, { from: 'config/.env' }] })).toMatchObject({
      argument: 'items[1].from',
    });
    expect(hit('run_command', { command: 'ls', cwd: '/home/ann' })).toMatchObject({ argument: 'cwd' });
    expect(hit('run_command', { command: 'ls -la', cwd: '/home/ann/projects' })).toBeNull();
  });

  it('leaves ordinary calls alone', () => {
    expect(hit('run_command', { command: 'git status' })).toBeNull();
    expect(hit('write_file', { path: 'notes/a.md', content: 'a / b = c' })).toBeNull();
    expect(hit('fetch_page', { url: 'https://example.com/docs' })).toBeNull();
  });
});

describe('findSensitiveTarget with the place of the call', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-sensitive-')));
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'ws');
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.symlinkSync(path.join(home, '.ssh'), path.join(workspace, 'keys'));
  fs.symlinkSync('/nonexistent/.aws/credentials', path.join(workspace, 'dangling'));
  const opts = { homes: [home], agenvoyHome: path.join(base, 'agenvoy') };
  function placed(tool: string, args: Record<string, unknown>) {
    const canonical = canonicalArgument(tool, args, { workspace, home });
    const place = canonical.kind === 'command' ? canonical.place : commandPlace(workspace, '');
    return findSensitiveTarget(
      args,
      canonical,
      opts,
      place && { workspace: place.workspace, cwd: place.cwd },
    );
  }

  it('resolves paths through symlinks, dangling ones too, from the working folder or the workspace', () => {
    expect(realPath('keys/x', workspace)).toBe(path.join(home, '.ssh', 'x'));
    expect(realPath('dangling', workspace)).toBe('/nonexistent/.aws/credentials');
    expect(placed('run_command', { command: 'cat keys/known_hosts' })?.label).toContain('SSH keys');
    expect(placed('run_command', { command: 'cat ../keys/x', cwd: 'src' })?.label).toContain('SSH keys');
    expect(placed('run_command', { command: 'ls', cwd: 'keys' })?.label).toContain('SSH keys');
    expect(placed('write_file', { path: 'dangling', content: 'x' })?.label).toContain('AWS');
    expect(placed('run_command', { command: 'ls ..' })?.label).toContain('contains');
  });

  it('expands the line with the command environment before reading it', () => {
    expect(placed('run_command', { command: 'cat ~/${x:-.ssh}/id_${x:-rsa}' })?.label).toContain('SSH keys');
    expect(placed('run_command', { command: 'x=secret-tool; $x lookup a b' })?.label).toContain(
      'secret-tool',
    );
    expect(placed('background_command', { command: 'cat "$HOME"/.ssh/config' })?.label).toContain('SSH keys');
  });

  it('leaves ordinary calls alone', () => {
    expect(
      placed('run_command', { command: 'git status && npm test -- --watch=false', cwd: 'src' }),
    ).toBeNull();
    expect(placed('run_command', { command: 'ls $(echo x) "$TMPDIR"/y *.ts' })).toBeNull();
    expect(placed('write_file', { path: 'src/a.ts', content: 'const home = "~";' })).toBeNull();
  });
});
