// What the default read-only rules accept (docs/security.md): argv predicates, since the argv is what will run.
// They never accept an option that writes a file or starts a program, in any spelling git accepts: quoted
// (the argv has no quotes left), `--opt=value` or `--opt value`, or an unambiguous abbreviation (`--outp=`).

// Long options of git's log/diff/show family (and of git in general) that write files, start programs, read
// files outside the repository or reach other machines. An argument names one when its name is a prefix of it.
const GIT_FORBIDDEN_LONG = [
  'output',
  'output-directory',
  'ext-diff',
  'textconv',
  'no-index',
  'show-signature',
  'upload-pack',
  'receive-pack',
  'exec',
  'open-files-in-pager',
  'orderfile',
  'contents',
  'git-dir',
  'work-tree',
  'exec-path',
  'namespace',
  'paginate',
  'config-env',
  'super-prefix',
  'ignore-revs-file',
  // A merge re-done for `--remerge-diff` (or `--diff-merges=remerge`) runs the merge driver a work-tree
  // `.gitattributes` names, from the user's own config too (mergiraf, npm-merge-driver…).
  'remerge-diff',
  'diff-merges',
  // `git status --help` is `git help status`: it runs man, or (help.format=web) a browser on help.htmlPath.
  'help',
];

// Short options of the same kind: `-O<orderfile>` (reads a file), `-o` (`git grep -O`/`--output` forms).
const GIT_FORBIDDEN_SHORT = /^-[A-Za-z0-9]*[Oo]/;

// Whole options that merely begin like a forbidden one (`--text` is not `--textconv`).
const GIT_HARMLESS_LONG = new Set(['text', 'no-ext-diff', 'no-textconv']);

// A `%G…` placeholder of --format/--pretty (`%G?`, `%GS`, `%GK`…) makes git run gpg (or gpg.ssh.program) to
// verify each commit's signature, as --show-signature does; so is the word anywhere it is not a placeholder.
const SIGNATURE_PLACEHOLDER = '%G';

/** Whether one git argument is an option the read-only defaults never accept. */
export function forbiddenGitArgument(argument: string): boolean {
  if (argument.includes(SIGNATURE_PLACEHOLDER)) return true;
  if (argument.startsWith('--') && argument.length > 2) {
    const [name, ...value] = argument.slice(2).split('=') as [string, ...string[]];
    if (GIT_HARMLESS_LONG.has(name) && !argument.includes('=')) return false;
    // `--submodule=diff` runs `git diff` in each submodule as a child without the --no-ext-diff --no-textconv of
    // tools/sdk/git-protection.ts, so textconv and diff.external run there.
    if ('submodule'.startsWith(name) && value.length > 0 && !['log', 'short'].includes(value.join('=')))
      return true;
    return GIT_FORBIDDEN_LONG.some((option) => option.startsWith(name));
  }
  return GIT_FORBIDDEN_SHORT.test(argument);
}

/**
 * `git <subcommand> <arguments>` with nothing before the subcommand (no `-c`, `-C`, `--git-dir`, `-p`…: a global
 * option can run a program or point git elsewhere) and no forbidden option anywhere after it, even after `--`.
 */
export function gitSubcommand(argv: readonly string[], subcommand: string, allowArguments = true): boolean {
  if (argv[0] !== 'git' || argv[1] !== subcommand) return false;
  const rest = argv.slice(2);
  if (!allowArguments && rest.length > 0) return false;
  return !rest.some(forbiddenGitArgument);
}

/**
 * `git status` with no `-v`/`--verbose` in any spelling (`-sv`, `-vv`, `--verb`): a verbose status prints the staged
 * diff (a staged .env too, which the secret check looks for only in diff, show and log) through the textconv driver
 * a work-tree `.gitattributes` picks from the user's own config, and status takes no --no-textconv.
 */
export function gitStatus(argv: readonly string[]): boolean {
  return gitSubcommand(argv, 'status') && !argv.slice(2).some(verboseStatus);
}

function verboseStatus(argument: string): boolean {
  if (/^-[^-]/.test(argument)) return argument.includes('v');
  const name = argument.startsWith('--') ? (argument.slice(2).split('=')[0] as string) : '';
  return name !== '' && 'verbose'.startsWith(name);
}

/**
 * `ls` with no `-L`/`--dereference` before `--`: operands are checked to lead inside the workspace, but with `-L` a
 * recursive listing follows every link it meets below them, so a committed `up -> ../..` lists the folders outside.
 */
export function lsListing(argv: readonly string[]): boolean {
  if (!plainCommand(argv, 'ls', { arguments: true })) return false;
  const options = argv.slice(1);
  const end = options.indexOf('--');
  return !(end === -1 ? options : options.slice(0, end)).some(
    (argument) =>
      (/^-[^-]/.test(argument) && argument.includes('L')) ||
      (argument.startsWith('--') &&
        argument.length > 2 &&
        'dereference'.startsWith(argument.slice(2).split('=')[0] as string)),
  );
}

/** `git branch`, bare or with options that only list. */
export function gitBranchListing(argv: readonly string[]): boolean {
  if (argv[0] !== 'git' || argv[1] !== 'branch') return false;
  const listing = new Set([
    '-a',
    '--all',
    '-r',
    '--remotes',
    '-v',
    '-vv',
    '--verbose',
    '--show-current',
    '--list',
  ]);
  return argv.slice(2).every((argument) => listing.has(argument));
}

/** A command name alone, or with arguments none of which is an option outside `options` (when given). */
export function plainCommand(
  argv: readonly string[],
  name: string,
  options: { arguments: boolean; allowedOptions?: readonly string[] },
): boolean {
  if (argv[0] !== name) return false;
  const rest = argv.slice(1);
  if (!options.arguments)
    return rest.every((argument) => options.allowedOptions?.includes(argument) ?? false);
  return true;
}
