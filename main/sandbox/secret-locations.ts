// Where secrets live, for the sandbox's read denies (docs/security.md): a sandboxed command or script cannot read
// these, whatever approved it. Reading one needs `sandbox: false`, which only a person's decision allows.
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

/** Names that hold secrets wherever they are, hidden at the top of the workspace: .env, .env.local…, .envrc. */
export const WORKSPACE_SECRET_NAME = /^\.env(\..+)?$|^\.envrc$/;

/**
 * Every path a sandboxed process may not read, for these homes, this $AGENVOY_HOME and this workspace. Only those
 * that exist are returned (looked up in parallel): a path that is not there hides nothing, and each one the runtime
 * is given costs it file-system work on every command.
 */
export async function secretLocations(options: {
  homes: string[];
  agenvoyHome: string;
  workspace: string;
}): Promise<string[]> {
  const candidates = [
    ...options.homes.flatMap((home) => HOME_SECRET_PATHS.map((rel) => path.join(home, rel))),
    ...AGENVOY_SECRET_PATHS.map((rel) => path.join(options.agenvoyHome, rel)),
  ];
  const names = await fs.readdir(options.workspace).catch(() => [] as string[]);
  for (const name of names)
    if (WORKSPACE_SECRET_NAME.test(name)) candidates.push(path.join(options.workspace, name));
  const unique = [...new Set(candidates)];
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
