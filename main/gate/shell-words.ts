// A deliberately rough shell reading for the sensitive-target check: words and the words in command position.
// It errs towards finding more (a false find only means the user is asked), never towards finding less.
import type { ShellGlob } from './shell-glob';
import { compileShellGlob } from './shell-glob';

/** A command line with quotes and backslash escapes removed, as the shell would see the words. */
export function unquote(text: string): string {
  return text.replace(/\\(.)/gs, '$1').replace(/["']/g, '');
}

/** Every word of a text: split at blanks, shell operators, `=`, `:` and `,` (so `--file=~/.ssh/id` yields `~/.ssh/id`). */
export function words(text: string): string[] {
  return unquote(text)
    .split(/[\s;&|<>()`{}=:,[\]]+/)
    .filter((word) => word.length > 0);
}

// Words that run the word after them (after their own options): `sudo cat`, `env A=1 cat`, `xargs cat`.
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'command',
  'builtin',
  'exec',
  'eval',
  'nohup',
  'time',
  'nice',
  'ionice',
  'timeout',
  'watch',
  'xargs',
  'strace',
  'ltrace',
  'stdbuf',
  'setsid',
  'chrt',
  'taskset',
  'flock',
  'unbuffer',
  'chroot',
  'nsenter',
  'runuser',
  'su',
  'then',
  'do',
  'else',
  'elif',
  'if',
  'while',
  'until',
  '!',
]);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'busybox']);

// Package runners: they fetch or find a program by the name in their words and run it (`npx pkg`, `uvx tool`).
const PACKAGE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx']);
// Package managers whose subcommand runs any command line or package (`npm exec -c '…'`, `pnpm dlx pkg`, `npm init
// <initializer>` is `npm exec create-<initializer>`), or rewrites the scripts and config the others run (`npm pkg set
// scripts.test=…`, `npm config set script-shell=…`).
const RUNNING_SUBCOMMANDS: Record<string, readonly string[]> = {
  npm: ['exec', 'x', 'init', 'create', 'innit', 'pkg', 'set-script', 'config', 'c'],
  pnpm: ['exec', 'dlx', 'create', 'pkg', 'config'],
  yarn: ['exec', 'dlx', 'create', 'config'],
  bun: ['x', 'exec', 'create', 'init'],
};

/**
 * Whether an argv runs another program or a command line given in its own words (`timeout 60 npm test`,
 * `env CI=1 …`, `sh -c '…'`, `npx pkg`, `npm exec -c '…'`): what it does is decided by those words, not by its name.
 */
export function runsOtherPrograms(argv: readonly string[]): boolean {
  const base = basename(argv[0] ?? '');
  if (WRAPPERS.has(base) || SHELLS.has(base) || PACKAGE_RUNNERS.has(base)) return true;
  const subcommand = argv.slice(1).find((word) => !word.startsWith('-'));
  return subcommand !== undefined && (RUNNING_SUBCOMMANDS[base]?.includes(subcommand) ?? false);
}

/** The words a command line may run as commands: the first of each simple command, every word after a wrapper (`sudo -u root cat`), and inside `sh -c`. */
export function commandWords(line: string): string[] {
  const tokens = unquote(line)
    .split(/(\$\(|&&|\|\||[;&|()`{}\n\r])|[ \t]+/)
    .filter((token): token is string => token !== undefined && token.length > 0);
  const found: string[] = [];
  let state: 'command' | 'arguments' | 'wrapped' | 'shell' = 'command';
  for (const token of tokens) {
    if (/^(\$\(|&&|\|\||[;&|()`{}\n\r])$/.test(token)) {
      state = 'command';
      continue;
    }
    switch (state) {
      case 'arguments':
        continue;
      case 'shell':
        // `bash -c 'secret-tool lookup …'`: the quoted text is a command line of its own.
        if (/^-[a-z]*c[a-z]*$/i.test(token)) state = 'command';
        continue;
      case 'wrapped':
        // A wrapper's own options take arguments we cannot tell apart from the command: count every word.
        found.push(token);
        continue;
      case 'command': {
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token)) continue;
        found.push(token);
        const base = basename(token);
        state = WRAPPERS.has(base) ? 'wrapped' : SHELLS.has(base) ? 'shell' : 'arguments';
        continue;
      }
    }
  }
  return found;
}

/** The last path segment of a word (`/usr/bin/security` → `security`). */
export function basename(word: string): string {
  const parts = word.split(/[\\/]/);
  return parts[parts.length - 1] ?? word;
}

/** Whether a word holds shell glob characters. */
export function hasShellGlob(word: string): boolean {
  return /[*?[]/.test(word);
}

/** A shell glob compiled for testing names (see shell-glob.ts), cached: the same words recur within a decision. */
export function shellGlob(glob: string): ShellGlob {
  const cached = globCache.get(glob);
  if (cached) return cached;
  const compiled = compileShellGlob(glob);
  if (globCache.size > 1000) globCache.clear();
  globCache.set(glob, compiled);
  return compiled;
}

const globCache = new Map<string, ShellGlob>();
