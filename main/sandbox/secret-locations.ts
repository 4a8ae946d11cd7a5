// Where secrets live, for the sandbox's read denies (docs/security.md): a sandboxed command or script cannot read
// these, whatever approved it. Reading one needs `sandbox: false`, which only a person's decision allows.
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

/** Names that hold secrets wherever they are, denied at the top of the workspace (.env, .envrc). */
export const WORKSPACE_SECRET_GLOBS: readonly string[] = ['.env', '.env.*', '.envrc'];

/** Every absolute path a sandboxed process may not read, for these homes and this $AGENVOY_HOME. */
export function secretLocations(options: {
  homes: string[];
  agenvoyHome: string;
  workspace: string;
}): string[] {
  const paths = [
    ...options.homes.flatMap((home) => HOME_SECRET_PATHS.map((rel) => path.join(home, rel))),
    ...AGENVOY_SECRET_PATHS.map((rel) => path.join(options.agenvoyHome, rel)),
    ...WORKSPACE_SECRET_GLOBS.map((glob) => path.join(options.workspace, glob)),
  ];
  return [...new Set(paths)];
}
