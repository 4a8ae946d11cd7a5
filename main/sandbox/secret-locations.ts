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
  const secrets = [
    ...options.homes.flatMap((home) => HOME_SECRET_PATHS.map((rel) => path.join(home, rel))),
    ...AGENVOY_SECRET_PATHS.map((rel) => path.join(options.agenvoyHome, rel)),
  ];
  const shown = [
    ...options.homes.flatMap((home) => HOME_READABLE.map((rel) => path.join(home, rel))),
    path.join(options.agenvoyHome, 'tools'),
  ];
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
