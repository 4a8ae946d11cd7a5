// What a sandboxed process may read (docs/security.md). A home folder is hidden as a whole, except the toolchains
// programs need to run (node, python, rust… installed per user) and the folders the call works in; the places
// secrets are known to live stay hidden inside those too, as do this app's secret file and data wherever
// $AGENVOY_HOME is. Reading anything hidden needs `sandbox: false`, which only a person's decision allows.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Folders and files under a home folder that hold credentials, keys, tokens or browser sessions. */
export const HOME_SECRET_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.pgpass',
  '.password-store',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.config/gh',
  '.config/hub',
  '.config/gcloud',
  '.config/op',
  '.config/Bitwarden CLI',
  '.local/share/keyrings',
  '.local/share/kwalletd',
  // Browser profiles: cookies and saved passwords.
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
  // macOS.
  'Library/Keychains',
  'Library/Cookies',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Safari',
];

/** Files and folders of $AGENVOY_HOME that no tool process may read: the secret file, the app's data and mcp.json. */
export const AGENVOY_SECRET_PATHS: readonly string[] = ['.secrets', 'desktop', 'mcp.json'];

/**
 * Folders and files under a home folder a sandboxed process may read: per-user toolchains and their package
 * caches (never their credential files), and git's own config (for user.name; credentials live elsewhere).
 */
export const HOME_READABLE: readonly string[] = [
  '.gitconfig',
  '.config/git',
  '.nvm',
  '.volta',
  '.fnm',
  '.local/share/fnm',
  '.asdf',
  '.pyenv',
  '.rbenv',
  '.rustup',
  '.cargo/bin',
  '.cargo/registry',
  '.cargo/git',
  '.local/bin',
  '.local/lib',
  '.local/share/pnpm',
  '.bun',
  '.deno',
  'go',
  '.sdkman',
  '.m2/repository',
  '.gradle/caches',
  '.gradle/wrapper',
  '.npm-global',
  '.yarn',
  '.dotnet',
  '.conda',
  'miniconda3',
  'anaconda3',
  '.ghcup',
  '.opam',
  '.elan',
  '.juliaup',
  '.nix-profile',
];

/** What the sandbox is told to hide and to show again inside what it hides. */
export interface ReadPolicy {
  denyRead: string[];
  allowRead: string[];
}

/**
 * The read policy of one call: each home hidden, with its toolchains, the call's writable folders and
 * $AGENVOY_HOME/tools (global script tools and their shared helpers) shown again; the known secret locations,
 * $AGENVOY_HOME's secret file and data, and the workspace's .env files hidden even inside what is shown.
 * Only paths that exist are passed (looked up in parallel): a missing path hides nothing and costs the runtime work.
 */
export async function readPolicy(options: {
  homes: string[];
  agenvoyHome: string;
  /** Folders the call may write (the workspace first): readable even under a hidden home. */
  writable: string[];
  /** .env-style files found in the workspace. */
  workspaceSecrets: string[];
}): Promise<ReadPolicy> {
  const [packageConfigs, gitConfigs] = await Promise.all([
    Promise.all(options.homes.map(prefixConfigs)).then((lists) => lists.flat()),
    Promise.all(options.homes.map(gitConfigsWithCredentials)).then((lists) => lists.flat()),
  ]);
  const secrets = [
    ...options.homes.flatMap((home) => HOME_SECRET_PATHS.map((rel) => path.join(home, rel))),
    ...AGENVOY_SECRET_PATHS.map((rel) => path.join(options.agenvoyHome, rel)),
    ...packageConfigs,
    ...gitConfigs,
  ];
  // A config hidden for its credential is not shown again as a toolchain file.
  const shown = [
    ...options.homes.flatMap((home) => HOME_READABLE.map((rel) => path.join(home, rel))),
    path.join(options.agenvoyHome, 'tools'),
  ].filter((file) => !gitConfigs.includes(file));
  const [homes, presentSecrets, presentShown] = await Promise.all([
    existing(options.homes),
    existing(secrets),
    existing(shown),
  ]);
  return {
    denyRead: [...new Set([...homes, ...presentSecrets, ...options.workspaceSecrets])],
    allowRead: [...new Set([...presentShown, ...options.writable])],
  };
}

async function existing(paths: string[]): Promise<string[]> {
  const unique = [...new Set(paths)];
  const present = await Promise.all(
    unique.map((file) =>
      fs.lstat(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return unique.filter((_, i) => present[i]);
}

// Per-user installs whose prefix holds a package manager's global config with a registry token: npm's etc/npmrc in
// a Node prefix, pip's pip.conf in a Python prefix or a conda environment. The prefixes themselves are shown
// (HOME_READABLE), so these files are hidden by name; version and environment folders are listed.
const PREFIX_CONFIGS: readonly { under: string; inside: string[] }[] = [
  { under: '.nvm/versions/node', inside: ['etc/npmrc'] },
  { under: '.nvm/versions/io.js', inside: ['etc/npmrc'] },
  { under: '.volta/tools/image/node', inside: ['etc/npmrc'] },
  { under: '.asdf/installs/nodejs', inside: ['etc/npmrc'] },
  { under: '.fnm/node-versions', inside: ['installation/etc/npmrc'] },
  { under: '.local/share/fnm/node-versions', inside: ['installation/etc/npmrc'] },
  { under: '.local/share/pnpm/nodejs', inside: ['etc/npmrc'] },
  { under: '.pyenv/versions', inside: ['pip.conf', 'etc/npmrc'] },
  { under: '.asdf/installs/python', inside: ['pip.conf'] },
  { under: 'miniconda3/envs', inside: ['pip.conf', 'etc/npmrc'] },
  { under: 'anaconda3/envs', inside: ['pip.conf', 'etc/npmrc'] },
  { under: '.conda/envs', inside: ['pip.conf', 'etc/npmrc'] },
];
const FIXED_PREFIX_CONFIGS: readonly string[] = [
  '.npm-global/etc/npmrc',
  '.local/etc/npmrc',
  'miniconda3/etc/npmrc',
  'miniconda3/pip.conf',
  'anaconda3/etc/npmrc',
  'anaconda3/pip.conf',
  '.local/pip.conf',
];

async function prefixConfigs(home: string): Promise<string[]> {
  const listed = await Promise.all(
    PREFIX_CONFIGS.map(({ under, inside }) =>
      fs.readdir(path.join(home, under)).then(
        (versions) =>
          versions
            .slice(0, MAX_VERSIONS)
            .flatMap((version) => inside.map((rel) => path.join(home, under, version, rel))),
        () => [],
      ),
    ),
  );
  return [...FIXED_PREFIX_CONFIGS.map((rel) => path.join(home, rel)), ...listed.flat()];
}

// Most version folders of one manager looked at.
const MAX_VERSIONS = 200;

// Git's config files under a home, which the sandbox shows for user.name and the like.
const GIT_CONFIGS: readonly string[] = ['.gitconfig', '.config/git/config'];
// What marks a config that holds a credential: a URL's user info with a password or shaped like a token
// (`https://ghp_…@github.com`), an extra header (`http.extraHeader = Authorization: …`), or a password (also one a
// credential helper written as a shell command echoes: `helper = "!f() { echo password=…; }; f"`).
// Tested line by line (a line past MAX_CONFIG_LINE counts as one): the user info's parts cannot share a colon, so
// a long line never backtracks.
const CREDENTIAL_IN_CONFIG =
  /\b[a-z][a-z0-9+.-]{0,32}:\/\/(?:[^\s/@":]+:[^\s/@"]+|[A-Za-z0-9_.~-]{20,})@|^\s*extraheader\s*=|password/i;
const MAX_CONFIG_LINE = 4096;
// An include of another config file (`[include] path = …`, also under includeIf).
const INCLUDE_PATH = /^\s*path\s*=\s*"?([^"\n]+?)"?\s*$/gim;
// Most bytes of a git config read to look for one; a larger one is hidden unread. Most files followed through includes.
const MAX_GIT_CONFIG_BYTES = 1024 * 1024;
const MAX_GIT_CONFIGS = 32;

/**
 * Git config files under `home` that hold a credential, the files they include among them: hidden like the
 * credential stores (git then runs without them; a missing include is skipped).
 */
async function gitConfigsWithCredentials(home: string): Promise<string[]> {
  const queue = GIT_CONFIGS.map((rel) => path.join(home, rel));
  const seen = new Set<string>();
  const found: string[] = [];
  while (queue.length > 0 && seen.size < MAX_GIT_CONFIGS) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat?.isFile()) continue;
    if (stat.size > MAX_GIT_CONFIG_BYTES) {
      found.push(file);
      continue;
    }
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    const lines = text.split('\n');
    if (lines.some((line) => line.length > MAX_CONFIG_LINE || CREDENTIAL_IN_CONFIG.test(line)))
      found.push(file);
    for (const match of text.matchAll(INCLUDE_PATH)) {
      const named = (match[1] as string).trim();
      const included = named.startsWith('~/')
        ? path.join(home, named.slice(2))
        : path.resolve(path.dirname(file), named);
      // Only what the home holds: elsewhere the sandbox hides or shows it by its own rules.
      if (included.startsWith(home + path.sep)) queue.push(included);
    }
  }
  return found;
}
