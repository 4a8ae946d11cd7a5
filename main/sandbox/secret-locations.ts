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
  const [prefixConfigs, gitConfigs] = await Promise.all([
    Promise.all(options.homes.map(npmPrefixConfigs)).then((lists) => lists.flat()),
    Promise.all(options.homes.map(gitConfigsWithCredentials)).then((lists) => lists.flat()),
  ]);
  const secrets = [
    ...options.homes.flatMap((home) => HOME_SECRET_PATHS.map((rel) => path.join(home, rel))),
    ...AGENVOY_SECRET_PATHS.map((rel) => path.join(options.agenvoyHome, rel)),
    ...prefixConfigs,
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

// Per-user Node installs whose prefix holds npm's global config (etc/npmrc), which may hold a registry token: the
// prefixes themselves are shown (HOME_READABLE), so their npmrc is hidden by name. Version folders are listed.
const NPM_PREFIXES: readonly { under: string; inside: string }[] = [
  { under: '.nvm/versions/node', inside: 'etc/npmrc' },
  { under: '.volta/tools/image/node', inside: 'etc/npmrc' },
  { under: '.asdf/installs/nodejs', inside: 'etc/npmrc' },
  { under: '.fnm/node-versions', inside: 'installation/etc/npmrc' },
  { under: '.local/share/fnm/node-versions', inside: 'installation/etc/npmrc' },
];
const NPM_FIXED_PREFIXES: readonly string[] = ['.npm-global/etc/npmrc', '.local/etc/npmrc'];

async function npmPrefixConfigs(home: string): Promise<string[]> {
  const listed = await Promise.all(
    NPM_PREFIXES.map(({ under, inside }) =>
      fs.readdir(path.join(home, under)).then(
        (versions) => versions.slice(0, MAX_VERSIONS).map((version) => path.join(home, under, version, inside)),
        () => [],
      ),
    ),
  );
  return [...NPM_FIXED_PREFIXES.map((rel) => path.join(home, rel)), ...listed.flat()];
}

// Most version folders of one Node manager looked at.
const MAX_VERSIONS = 200;

// Git's config files under a home, which the sandbox shows for user.name and the like.
const GIT_CONFIGS: readonly string[] = ['.gitconfig', '.config/git/config'];
// What marks a config that holds a credential: a URL with a password (an `insteadOf` rewrite that carries a token),
// or an extra header (`http.extraHeader = Authorization: …`).
const CREDENTIAL_IN_CONFIG = /[a-z][a-z0-9+.-]*:\/\/[^\s/@"]+:[^\s/@"]+@|^\s*extraheader\s*=/im;
// Most bytes of a git config read to look for one; a larger one is hidden unread.
const MAX_GIT_CONFIG_BYTES = 1024 * 1024;

/** Git configs under `home` that hold a credential: hidden like the credential stores (git then runs without them). */
async function gitConfigsWithCredentials(home: string): Promise<string[]> {
  const found = await Promise.all(
    GIT_CONFIGS.map(async (rel) => {
      const file = path.join(home, rel);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      if (stat.size > MAX_GIT_CONFIG_BYTES) return file;
      const text = await fs.readFile(file, 'utf8').catch(() => '');
      return CREDENTIAL_IN_CONFIG.test(text) ? file : null;
    }),
  );
  return found.filter((file): file is string => file !== null);
}
