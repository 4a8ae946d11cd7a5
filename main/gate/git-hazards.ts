// Git config keys that make git (or git-lfs) start a program or write a file: when a repository's own config sets
// one, a default read-only rule no longer vouches for git there (docs/security.md). The list errs towards asking: a
// key here that a read-only command never uses costs one question, a missing one a program run. Keys that only hold
// data (core.worktree, which git itself writes into every submodule's config, gpg.format) are left out.

// Whole keys (git prints section and key lower-case).
const KEYS = new Set([
  'core.fsmonitor',
  'core.pager',
  'core.sshcommand',
  'core.hookspath',
  'core.editor',
  'core.askpass',
  'core.gitproxy',
  'core.alternaterefscommand',
  'diff.external',
  'diff.tool',
  'diff.guitool',
  'merge.tool',
  'sequence.editor',
  'gpg.program',
  'credential.helper',
  'uploadpack.packobjectshook',
  'include.path',
  'interactive.difffilter',
  'web.browser',
  'man.viewer',
  'ssh.variant',
  'status.showsignature',
]);

// Keys by shape: `diff.<driver>.command`, `filter.<driver>.clean`, `pager.<cmd>`…
const PATTERNS: readonly RegExp[] = [
  /^diff\..+\.(command|textconv)$/,
  /^filter\./,
  /^gpg\..+\.program$/,
  /^gpg\.ssh\.defaultkeycommand$/,
  /^includeif\./,
  /^credential\..+\.helper$/,
  /^pager\./,
  /^protocol\./,
  /^url\./,
  /^remote\..+\.(uploadpack|receivepack|vcs)$/,
  /^merge\..+\.driver$/,
  /^mergetool\./,
  /^difftool\./,
  /^man\..+\.(cmd|path)$/,
  /^browser\./,
  /^instaweb\./,
  /^sendemail\./,
  /^trace2\./,
  /^fsmonitor\./,
  // git-lfs runs these from its clean and smudge filters (during `git status` too); lfs.repositoryformatversion is data.
  /^lfs\.(extension|customtransfer)\./,
  /^lfs\.standalonetransferagent$/,
  /^uploadpack\./,
];

/** Why a config entry makes git start a program (or go elsewhere), or null when it does not. */
export function gitHazard(key: string, value: string | null): string | null {
  const lower = key.toLowerCase();
  if (lower.startsWith('alias.'))
    return value?.trimStart().startsWith('!') ? `${key} runs a shell command` : null;
  if (/^submodule\..+\.update$/.test(lower))
    return value?.trimStart().startsWith('!') ? `${key} runs a shell command` : null;
  if (lower === 'log.showsignature') return isTrue(value) ? `${key} makes git log run gpg` : null;
  // A default or named format with a `%G…` placeholder makes git log verify signatures: it runs gpg.
  if (lower === 'format.pretty' || lower.startsWith('pretty.'))
    return value?.includes('%G') ? `${key} = ${clipValue(value)} makes git log run gpg` : null;
  // `-m` then re-does each merge (`--remerge-diff`), running the merge driver `.gitattributes` names.
  if (lower === 'log.diffmerges')
    return /^(r|remerge)$/i.test(value?.trim() ?? '') ? `${key} = remerge runs merge drivers` : null;
  // Inline submodule diffs run `git diff` in each submodule without --no-ext-diff --no-textconv.
  if (lower === 'diff.submodule')
    return value?.trim().toLowerCase() === 'diff' ? `${key} = diff runs git diff in each submodule` : null;
  if (KEYS.has(lower) || PATTERNS.some((pattern) => pattern.test(lower)))
    return `${key} = ${clipValue(value)}`;
  return null;
}

function isTrue(value: string | null): boolean {
  return value === null || /^(true|yes|on|1)$/i.test(value.trim());
}

function clipValue(value: string | null): string {
  if (value === null) return 'true';
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
