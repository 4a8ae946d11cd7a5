// The sensitive-target lists (docs/security.md, "Decisions and rules"), kept in one visible place: paths that always ask, and secret-store commands.
import { foldName } from './name-fold';

/** One path segment of a sensitive name: a test for real names and a sample for testing shell globs against. */
export interface SegmentPattern {
  test: RegExp;
  sample: string;
  /** Lower-case text every matching segment contains (a fast pre-check); the sample when omitted. */
  needle?: string;
  /**
   * The same names as git glob patterns, matched case-insensitively (looking for them in a repository's history,
   * main/gate/git-secret-files.ts); the sample when omitted, which then is the only name `test` accepts.
   */
  globs?: readonly string[];
}

/** A sensitive location named by consecutive path segments (compared case-insensitively, as macOS and Windows do). */
export interface SensitiveName {
  label: string;
  segments: SegmentPattern[];
}

const exact = (name: string): SegmentPattern => ({
  test: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}$`, 'i'),
  sample: name,
});

/** The extensions of private key, certificate and keystore files. */
export const KEY_FILE_EXTENSIONS: readonly string[] = ['pem', 'key', 'p12', 'pfx', 'jks', 'keystore', 'ppk'];

/** Path names that always ask, wherever they appear in an argument (absolute, `~`, relative or `../`). */
export const SENSITIVE_NAMES: readonly SensitiveName[] = [
  { label: 'the secret file (.secrets)', segments: [exact('.secrets')] },
  { label: 'SSH keys (~/.ssh)', segments: [exact('.ssh')] },
  { label: 'AWS credentials (~/.aws)', segments: [exact('.aws')] },
  { label: 'GnuPG keys (~/.gnupg)', segments: [exact('.gnupg')] },
  { label: 'a keyring (~/.local/share/keyrings)', segments: [exact('keyrings')] },
  { label: 'a keychain (~/Library/Keychains)', segments: [exact('keychains')] },
  {
    label: 'a keychain file',
    segments: [
      {
        test: /\.keychain(-db)?$/i,
        sample: 'login.keychain-db',
        needle: '.keychain',
        globs: ['*.keychain', '*.keychain-db'],
      },
    ],
  },
  {
    label: 'a .env file',
    segments: [{ test: /^\.env(\..+)?$/i, sample: '.env', needle: '.env', globs: ['.env', '.env.*'] }],
  },
  { label: 'a .envrc file', segments: [exact('.envrc')] },
  {
    label: 'a private SSH key',
    segments: [
      {
        test: /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/i,
        sample: 'id_rsa',
        needle: 'id_',
        globs: ['rsa', 'dsa', 'ecdsa', 'ed25519'].flatMap((kind) => [`id_${kind}`, `id_${kind}_sk`]),
      },
    ],
  },
  // A TLS or deploy key, a keystore, a PuTTY key, wherever it lies (a workspace's `certs/server.key` too); a certificate
  // file asks as well, since `.pem` holds either.
  ...KEY_FILE_EXTENSIONS.map((extension) => ({
    label: `a private key or certificate file (*.${extension})`,
    segments: [
      {
        test: new RegExp(`\\.${extension}$`, 'i'),
        sample: `server.${extension}`,
        needle: `.${extension}`,
        globs: [`*.${extension}`],
      },
    ],
  })),
  { label: 'netrc credentials (~/.netrc)', segments: [exact('.netrc')] },
  { label: 'git credentials (~/.git-credentials)', segments: [exact('.git-credentials')] },
  { label: 'PostgreSQL passwords (~/.pgpass)', segments: [exact('.pgpass')] },
  { label: 'a pass password store', segments: [exact('.password-store')] },
  { label: 'Kubernetes credentials (~/.kube/config)', segments: [exact('.kube'), exact('config')] },
  { label: 'Docker credentials (~/.docker/config.json)', segments: [exact('.docker'), exact('config.json')] },
  { label: 'Google Cloud credentials (~/.config/gcloud)', segments: [exact('.config'), exact('gcloud')] },
  { label: 'Azure credentials (~/.azure)', segments: [exact('.azure')] },
  // Agenvoy's own folder holds the secret file, the approval rules, mcp.json trust and script tools that may be alwaysAllow.
  { label: "Agenvoy's own folder (.config/agenvoy)", segments: [exact('.config'), exact('agenvoy')] },
  // Git's second credential store, beside its config (git-credential-store(1)).
  {
    label: 'git credentials (~/.config/git/credentials)',
    segments: [exact('.config'), exact('git'), exact('credentials')],
  },
  // npm's global config in a per-user Node's prefix (~/.nvm/versions/node/*/etc/npmrc, ~/.npm-global/etc/npmrc).
  { label: "npm's global config (etc/npmrc)", segments: [exact('etc'), exact('npmrc')] },
];

/**
 * The label of the sensitive name that `parts` (a real path's components) contain as consecutive segments, or
 * null: as case-insensitive file systems compare names (foldName), and without the trailing dots and spaces
 * Windows drops. For readers that hold a real path; the gate also reads globs (main/gate/sensitive-paths.ts).
 */
export function sensitiveNameIn(parts: readonly string[]): string | null {
  const folded = parts.map((part) => foldName(part).replace(/^(.*[^. ])[. ]+$/, '$1'));
  for (const name of SENSITIVE_NAMES) {
    for (let i = 0; i + name.segments.length <= folded.length; i++) {
      if (name.segments.every((pattern, j) => pattern.test.test(folded[i + j] as string))) return name.label;
    }
  }
  return null;
}

/** Folders under the user's home that always ask, also when a path only contains them (`ls ~`, `tar c ~/.config`). */
export const SENSITIVE_HOME_DIRS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.local/share/keyrings',
  'Library/Keychains',
];

/** Commands that read secret stores: they always ask when they are run (in command position). */
export const SECRET_STORE_COMMANDS: readonly string[] = [
  'secret-tool',
  'security',
  'keyctl',
  'kwallet-query',
  'kwalletcli',
  'pass',
  'gopass',
  'gpg',
  'gpg2',
  'op',
  'bw',
  'lpass',
  'keepassxc-cli',
];

/** Words distinctive enough to always ask wherever they appear in a command line (`python -c "…'secret-tool'…"`). */
export const SECRET_STORE_WORDS: readonly string[] = [
  'secret-tool',
  'kwallet-query',
  'keepassxc-cli',
  'find-generic-password',
  'find-internet-password',
  'dump-keychain',
];
